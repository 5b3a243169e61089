/** One kind of object watched in a cluster, at the API version read. */
export interface WatchedResource {
  /** `''` for the core group. */
  group: string;
  version: string;
  kind: string;
  plural: string;
  /** Only objects with these labels (`app.kubernetes.io/part-of=flux`). */
  labelSelector?: string;
  fieldSelector?: string;
  /** Only the objects' metadata is read: list and watch them as `PartialObjectMetadata` (`METADATA_ONLY_ACCEPT`). */
  metadataOnly?: boolean;
}

/** `apiVersion` of a resource: `v1` for the core group, else `group/version`. */
export function apiVersionOf(resource: WatchedResource): string {
  return resource.group
    ? `${resource.group}/${resource.version}`
    : resource.version;
}

/** The cluster-wide collection path: `/api/v1/namespaces`, `/apis/apps/v1/deployments`. */
export function collectionPath(resource: WatchedResource): string {
  return resource.group
    ? `/apis/${resource.group}/${resource.version}/${resource.plural}`
    : `/api/${resource.version}/${resource.plural}`;
}

/** A name for logs and messages: `kustomizations.kustomize.toolkit.fluxcd.io/v1 (labels …)`. */
export function describeResource(resource: WatchedResource): string {
  const name = resource.group
    ? `${resource.plural}.${resource.group}/${resource.version}`
    : `${resource.plural}/${resource.version}`;
  return resource.labelSelector ? `${name} [${resource.labelSelector}]` : name;
}
