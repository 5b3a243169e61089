/**
 * Metadata-only answers, which client-go's metadata client and informers ask for and kube-apiserver serves for
 * every resource: `Accept: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1` for a list,
 * `as=PartialObjectMetadata` for one object and for the objects of watch events. Each object is then its
 * `metadata` alone, as kind `PartialObjectMetadata` of `meta.k8s.io/v1`.
 */
import { BODY_METADATA_START, type StoredObject } from '../store/clusterStore';

/** The metadata-only representations, by what a request returns. */
export type PartialMetadataKind = 'PartialObjectMetadata' | 'PartialObjectMetadataList';

/**
 * The `meta.k8s.io` version of the metadata-only representation `kind` when the Accept header prefers it, else
 * undefined. Media ranges are taken in the order the client wrote them (client-go writes protobuf first, then
 * this, then plain JSON as the fallback for servers without it): a plain JSON range or `*∕*` before it means the
 * client prefers whole objects; protobuf and other representations are skipped, as the simulator serves none.
 */
export function partialMetadataVersion(
  accept: string | undefined,
  kind: PartialMetadataKind,
): string | undefined {
  if (!accept) return undefined;
  for (const range of accept.split(',')) {
    const [mediaType, ...parameterTexts] = range.split(';').map(part => part.trim());
    if (mediaType !== 'application/json' && mediaType !== '*/*') continue;
    const parameters = new Map(
      parameterTexts.map(text => {
        const at = text.indexOf('=');
        return [text.slice(0, at).trim(), text.slice(at + 1).trim()] as const;
      }),
    );
    const as = parameters.get('as');
    if (as === undefined) return undefined;
    const version = parameters.get('v');
    if (
      as === kind &&
      parameters.get('g') === 'meta.k8s.io' &&
      (version === 'v1' || version === 'v1beta1')
    ) {
      return `meta.k8s.io/${version}`;
    }
  }
  return undefined;
}

/** The Content-Type of a metadata-only answer, as kube-apiserver writes it. */
export function partialMetadataContentType(kind: PartialMetadataKind, apiVersion: string): string {
  return `application/json;as=${kind};g=meta.k8s.io;v=${apiVersion.split('/')[1]}`;
}

/** A stored object as `PartialObjectMetadata` JSON: its metadata, whole (labels, annotations, owners…). */
export function partialObjectMetadataJson(object: StoredObject, apiVersion: string): string {
  const metadataJson =
    object.metadataLength === undefined
      ? JSON.stringify((JSON.parse(object.body) as { metadata?: unknown }).metadata ?? {})
      : object.body.slice(BODY_METADATA_START.length, BODY_METADATA_START.length + object.metadataLength);
  return `{"kind":"PartialObjectMetadata","apiVersion":${JSON.stringify(apiVersion)},"metadata":${metadataJson}}`;
}
