/**
 * What a cluster says about the API versions of its Flux objects (rules §10): the Flux CRDs'
 * `status.storedVersions` (`apiextensions.k8s.io/v1` CustomResourceDefinitions) and the version each Flux
 * object was last written with (its `metadata.managedFields`). Plain JSON in, never throws.
 */
import { FieldReader, isJsonObject } from './readUnknown';
import { FLUX_GROUPS, isFluxKind, type FluxKind } from './vocabulary';

/** The part of a Flux CRD the upgrade readiness reads. */
export interface FluxCrdRecord {
  cluster: string;
  /** e.g. `kustomizations.kustomize.toolkit.fluxcd.io` */
  name: string;
  group: string;
  kind: FluxKind;
  /** `spec.versions[].name` with `served: true`, as listed. */
  servedVersions: string[];
  /** `status.storedVersions`: every version objects may still be stored at in etcd. */
  storedVersions: string[];
}

/** A Flux CRD, nothing when it is not one (another group's CRD), or why it cannot be read. */
export type CrdResult =
  | { crd: FluxCrdRecord; error?: undefined }
  | { crd?: undefined; error?: string };

const GROUPS: ReadonlySet<string> = new Set(Object.keys(FLUX_GROUPS));

/** Whether a CRD group is one of Flux's (the ones Flux Fleet watches CRDs of). */
export function isFluxGroup(group: string): boolean {
  return GROUPS.has(group);
}

function strings(list: unknown[] | undefined): string[] {
  return (list ?? []).filter((v): v is string => typeof v === 'string');
}

/** Reads a CustomResourceDefinition; other groups' CRDs give `{}` (not an error). */
export function normalizeCrd(cluster: string, raw: unknown): CrdResult {
  if (!isJsonObject(raw)) {
    return {
      error: `cluster ${cluster}: a CustomResourceDefinition should be an object`,
    };
  }
  const problems: string[] = [];
  const root = new FieldReader(raw, '', problems);
  const name = root.object('metadata').string('name') ?? '?';
  const spec = root.object('spec');
  const group = spec.string('group');
  if (group === undefined || !isFluxGroup(group)) return {};
  const kind = spec.object('names').string('kind');
  if (!isFluxKind(kind)) {
    return {
      error: `cluster ${cluster}: CustomResourceDefinition ${name} names kind '${
        kind ?? '?'
      }', which is not a Flux kind; ignored`,
    };
  }
  const servedVersions: string[] = [];
  for (const entry of spec.list('versions') ?? []) {
    if (!isJsonObject(entry)) continue;
    if (typeof entry.name === 'string' && entry.served !== false) {
      servedVersions.push(entry.name);
    }
  }
  return {
    crd: {
      cluster,
      name,
      group,
      kind,
      servedVersions,
      storedVersions: strings(root.object('status').list('storedVersions')),
    },
  };
}

/**
 * The version (`v1beta2`, not the group) an object was last written with: the `apiVersion` of its newest
 * `managedFields` entry that wrote the object itself (entries of the `status` subresource are the controller's
 * own writes, always at its storage version). Newest by `time`; entries without a time count as oldest.
 * Undefined when the object has no such entry.
 */
export function writtenApiVersion(raw: unknown): string | undefined {
  if (!isJsonObject(raw) || !isJsonObject(raw.metadata)) return undefined;
  const entries = raw.metadata.managedFields;
  if (!Array.isArray(entries)) return undefined;
  let best: { time: string; version: string } | undefined;
  for (const entry of entries) {
    if (!isJsonObject(entry) || typeof entry.apiVersion !== 'string') continue;
    if (typeof entry.subresource === 'string' && entry.subresource !== '') {
      continue;
    }
    const time = typeof entry.time === 'string' ? entry.time : '';
    // RFC 3339 times in UTC (as the API server writes them) sort as text; a later entry wins a tie.
    if (!best || time >= best.time) {
      const slash = entry.apiVersion.lastIndexOf('/');
      best = { time, version: entry.apiVersion.slice(slash + 1) };
    }
  }
  return best?.version;
}
