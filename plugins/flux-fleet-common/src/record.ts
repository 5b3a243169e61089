/**
 * The lean record the fleet index keeps per Flux object, per namespace and per workload: only what a derivation,
 * the API (`FleetObject`, `FleetObjectDetail`) or the UI reads. Built by `normalize.ts`; read by every
 * derivation. The index may hold half a million of them, so every field earns its place: equal strings are
 * shared through a string pool, absent things are undefined rather than empty objects, and the inventory is one
 * packed string rather than a list of objects.
 */
import type { InventoryEntry } from './api';
import type { FluxKind, WorkloadKind } from './vocabulary';
import { WORKLOAD_KIND_GROUP } from './vocabulary';

/** A reference as written in a spec; `namespace` undefined means "the object's own" (rules §7). */
export interface RecordReference {
  /** The kind as written, or the kind the field implies (ImagePolicy → ImageRepository, Alert → Provider). */
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

/** One status condition, trimmed to what Flux Fleet shows. */
export interface RecordCondition {
  /** `True`, `False`, `Unknown`, or whatever else a malformed object says (rules §2.8). */
  readonly status: string;
  readonly reason?: string;
  /** At most {@link MAX_MESSAGE_LENGTH} characters. */
  readonly message?: string;
  readonly lastTransitionTime?: string;
  readonly observedGeneration?: number;
}

/** Longest condition message kept; longer ones are cut and end with `…`. */
export const MAX_MESSAGE_LENGTH = 1024;

/** Annotations the record keeps (every other annotation is dropped). */
export const RECORDED_ANNOTATIONS: readonly string[] = [
  'reconcile.fluxcd.io/requestedAt',
  'reconcile.fluxcd.io/forceAt',
  'reconcile.fluxcd.io/resetAt',
  'fluxcd.controlplane.io/reconcile',
  'flux-fleet.io/service',
];

/** The record of one Flux object. */
export interface FluxObjectRecord {
  /** `cluster/namespace/kind/name` (rules §1). */
  readonly key: string;
  readonly cluster: string;
  readonly namespace: string;
  readonly kind: FluxKind;
  readonly name: string;
  /** The API version it was read at. */
  readonly apiVersion: string;
  /**
   * The version (`v1beta2`) it was last written with, from its newest `metadata.managedFields` entry outside the
   * status subresource (rules §10); absent when it has none or when it equals the version it was read at.
   */
  readonly writtenApiVersion?: string;
  readonly generation?: number;
  readonly labels: Readonly<Record<string, string>>;
  /** Only the {@link RECORDED_ANNOTATIONS} it has. */
  readonly annotations: Readonly<Record<string, string>>;
  readonly deletionTimestamp?: string;
  /** `spec.suspend: true`. (Flux Operator kinds suspend with an annotation instead: see `isSuspended`.) */
  readonly suspend: boolean;
  /** `spec.serviceAccountName` of Kustomizations and HelmReleases. */
  readonly serviceAccountName?: string;
  /** `spec.interval` as written (a Go duration). */
  readonly interval?: string;
  /**
   * What it takes its artifact or input from (rules §7): Kustomization, HelmChart and ImageUpdateAutomation
   * `spec.sourceRef`, HelmRelease `spec.chartRef` or `spec.chart.spec.sourceRef`, ImagePolicy
   * `spec.imageRepositoryRef`, Alert `spec.providerRef`.
   */
  readonly sourceRef?: RecordReference;
  /** HelmRelease `spec.chart.spec.chart`: the chart name, when the release uses a chart template. */
  readonly chart?: string;
  /** `spec.dependsOn` of Kustomizations and HelmReleases (the kind is always the object's own). */
  readonly dependsOn?: readonly RecordReference[];
  /** Sources: the URL they fetch from, with any credentials removed. */
  readonly url?: string;
  /** `spec.kubeConfig` set: it applies to another cluster, so its inventory is not in this one. */
  readonly remote: boolean;
  /**
   * Reconcilers: `status.inventory.entries`, packed as lines of `<id> <version>` (ids are
   * `<namespace>_<name>_<group>_<kind>`, the object's own namespace written `*`). Read it with
   * {@link inventoryEntries}, {@link inventoryWorkloadIds} or {@link visitInventoryWorkloadIds}.
   */
  readonly inventory?: string;
  /** Number of inventory entries. */
  readonly inventoryCount: number;
  /** Set when `status.conditions` is present but cannot be read, saying why (rules §2.8). */
  readonly conditionsError?: string;
  readonly ready?: RecordCondition;
  readonly stalled?: RecordCondition;
  readonly reconciling?: RecordCondition;
  /**
   * `status.observedGeneration`; for kinds whose status has none (the Flux Operator's), the `Ready`
   * condition's `observedGeneration`.
   */
  readonly observedGeneration?: number;
  readonly lastHandledReconcileAt?: string;
  /** The revision it shows (rules §2), per kind and API version. */
  readonly revision?: string;
  /** `status.lastAttemptedRevision`, where the kind has it. */
  readonly attemptedRevision?: string;
  /** Host of `status.artifact.url`: a sharded source-controller serves from its own host. */
  readonly artifactHost?: string;
  /** Kustomization `status.history[0].lastReconciledDuration`, in ms. */
  readonly lastReconcileDurationMs?: number;
  /** What was malformed in the object (fields ignored, messages cut); absent when nothing was. */
  readonly problems?: readonly string[];
}

/** The record of a namespace: its labels (a tenant label there applies to its Flux objects, rules §5). */
export interface NamespaceRecord {
  readonly cluster: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * The labels of a workload, shared through the value pool: all that the index keeps of a workload (rules §6 reads
 * its `backstage.io/kubernetes-id` label and matches label selectors against them). Kept by inventory id, they cost
 * about 60 bytes a workload less than whole {@link WorkloadRecord}s (one of every two Flux objects has a workload).
 */
export type WorkloadLabels = Readonly<Record<string, string>>;

/** The record of a workload that a Flux object may have applied (rules §6). */
export interface WorkloadRecord {
  readonly cluster: string;
  /** Its id in the inventory format, `<namespace>_<name>_<group>_<kind>`. */
  readonly id: string;
  readonly namespace: string;
  readonly kind: WorkloadKind;
  readonly name: string;
  /** Its `backstage.io/kubernetes-id` label. */
  readonly kubernetesId?: string;
  /** Its labels, for entities linked by `backstage.io/kubernetes-label-selector`. */
  readonly labels: Readonly<Record<string, string>>;
}

/** The key of a Flux object: `cluster/namespace/kind/name` (rules §1). */
export function fluxObjectKey(
  cluster: string,
  namespace: string,
  kind: string,
  name: string,
): string {
  // join() gives one flat string; a template literal a chain of pieces kept alive with it (the index holds keys)
  return [cluster, namespace, kind, name].join('/');
}

/**
 * The inventory id of an object, as Flux writes it: `<namespace>_<name>_<group>_<kind>`, with an empty namespace
 * for cluster-scoped objects, an empty group for the core group, and `:` in names written as `__`.
 */
export function inventoryId(
  namespace: string,
  name: string,
  group: string,
  kind: string,
): string {
  // join() gives one flat string; a template literal gives a tree of pieces that costs several times the text
  return [namespace, name.replace(/:/g, '__'), group, kind].join('_');
}

/**
 * Splits an inventory id into its parts; undefined when it is not one. Names never contain `_` (Kubernetes names
 * are DNS subdomains; RBAC names may hold `:`, written `__`), so the id splits on the first and the last two `_`.
 */
export function parseInventoryId(
  id: string,
): Omit<InventoryEntry, 'version'> | undefined {
  const kindSep = id.lastIndexOf('_');
  const groupSep = kindSep > 0 ? id.lastIndexOf('_', kindSep - 1) : -1;
  const nsSep = id.indexOf('_');
  if (kindSep < 0 || groupSep < 0 || nsSep < 0 || nsSep >= groupSep) {
    return undefined;
  }
  const kind = id.slice(kindSep + 1);
  if (!kind) return undefined;
  return {
    id,
    namespace: id.slice(0, nsSep),
    name: id.slice(nsSep + 1, groupSep).replace(/__/g, ':'),
    group: id.slice(groupSep + 1, kindSep),
    kind,
  };
}

/**
 * Marks, at the start of a packed id, the namespace of the object that holds the inventory: most of what an
 * object applies is in its own namespace, so writing it once saves a fifth of the inventory's memory. `*` cannot
 * start a real id (namespaces are DNS labels).
 */
const OWN_NAMESPACE = '*';

/**
 * Packs inventory entries into the record's one-string form: lines of `<id> <version>`, with the object's own
 * namespace at the start of an id written as `*`.
 */
export function packInventory(
  entries: ReadonlyArray<{ id: string; version: string }>,
  namespace = '',
): string | undefined {
  if (entries.length === 0) return undefined;
  const own = namespace ? `${namespace}_` : undefined;
  return entries
    .map(e => {
      const id =
        own && e.id.startsWith(own)
          ? OWN_NAMESPACE + e.id.slice(namespace.length)
          : e.id;
      return `${id} ${e.version}`;
    })
    .join('\n');
}

/** The full id of a packed id. */
function unpackId(packed: string, namespace: string): string {
  return packed.startsWith(OWN_NAMESPACE)
    ? namespace + packed.slice(1)
    : packed;
}

/** The inventory of a record, entry by entry, in inventory order. */
export function inventoryEntries(record: {
  readonly inventory?: string;
  readonly namespace: string;
}): InventoryEntry[] {
  if (!record.inventory) return [];
  const entries: InventoryEntry[] = [];
  for (const line of record.inventory.split('\n')) {
    const space = line.indexOf(' ');
    const id = unpackId(
      space >= 0 ? line.slice(0, space) : line,
      record.namespace,
    );
    const parsed = parseInventoryId(id);
    if (parsed) {
      entries.push({
        ...parsed,
        version: space >= 0 ? line.slice(space + 1) : '',
      });
    }
  }
  return entries;
}

const WORKLOAD_ID_SUFFIXES = (
  Object.entries(WORKLOAD_KIND_GROUP) as Array<[WorkloadKind, string]>
).map(([kind, group]) => `_${group}_${kind}`);

/**
 * Calls `visit` with the id of each workload (Deployment, StatefulSet, DaemonSet, CronJob) in a record's
 * inventory, in inventory order, until it returns true (rules §6). Scans the packed string without splitting it,
 * since the analysis does it for every reconciler.
 */
export function visitInventoryWorkloadIds(
  record: { readonly inventory?: string; readonly namespace: string },
  visit: (id: string) => boolean | void,
): void {
  const packed = record.inventory;
  if (!packed) return;
  let start = 0;
  while (start < packed.length) {
    let end = packed.indexOf('\n', start);
    if (end < 0) end = packed.length;
    const space = packed.indexOf(' ', start);
    const idEnd = space >= 0 && space < end ? space : end;
    for (const suffix of WORKLOAD_ID_SUFFIXES) {
      if (
        idEnd - start > suffix.length &&
        packed.startsWith(suffix, idEnd - suffix.length)
      ) {
        if (
          visit(unpackId(packed.slice(start, idEnd), record.namespace)) === true
        ) {
          return;
        }
        break;
      }
    }
    start = end + 1;
  }
}

/** The ids of the workloads in a record's inventory, in inventory order (rules §6). */
export function inventoryWorkloadIds(record: {
  readonly inventory?: string;
  readonly namespace: string;
}): string[] {
  const ids: string[] = [];
  visitInventoryWorkloadIds(record, id => {
    ids.push(id);
  });
  return ids;
}

/** Whether an object is suspended: `spec.suspend`, or for Flux Operator kinds `fluxcd.controlplane.io/reconcile: disabled` (rules §2). */
export function isSuspended(record: Pick<FluxObjectRecord, 'suspend' | 'annotations'>): boolean {
  return (
    record.suspend ||
    record.annotations['fluxcd.controlplane.io/reconcile'] === 'disabled'
  );
}
