/**
 * How the simulated controllers read a Flux object that a client wrote through the API (created, patched,
 * relabelled): its placement, reconcile state, tenant, service account, service and references, following
 * docs/rules.md. Objects the generator built are described by construction instead; a test checks that reading
 * every generated object back gives the record it was built with.
 */
import type {
  SimulatedObject,
  ObjectRef,
  ReconcileStateName,
} from '../fleet/model';
import type { ControlPlane } from './controlPlane';

const KUBERNETES_ID = 'backstage.io/kubernetes-id';
const SERVICE_ANNOTATION = 'flux-fleet.io/service';
const TENANT_LABEL = 'toolkit.fluxcd.io/tenant';
const OPERATOR_GROUP_KINDS = new Set([
  'FluxInstance',
  'FluxReport',
  'ResourceSet',
  'ResourceSetInputProvider',
]);
const WORKLOAD_KINDS = new Set([
  'apps_Deployment',
  'apps_StatefulSet',
  'apps_DaemonSet',
  'batch_CronJob',
]);

/** Whether an object is suspended (rules §2: `spec.suspend`, or the operator's reconcile annotation). */
export function isSuspended(kind: string, object: any): boolean {
  if (OPERATOR_GROUP_KINDS.has(kind)) {
    return (
      object?.metadata?.annotations?.['fluxcd.controlplane.io/reconcile'] ===
      'disabled'
    );
  }
  return object?.spec?.suspend === true;
}

/** The reconcile state of an object as rules §2 reads it. */
/**
 * Objects no controller keeps a status on, which `flux get` shows Ready (rules §2, rule 3's exception): Alerts and
 * Providers (notification v1beta3 has no status) and HelmRepositories of type oci.
 */
function isStatic(kind: string, object: any): boolean {
  if (kind === 'Alert' || kind === 'Provider') return true;
  return kind === 'HelmRepository' && object?.spec?.type === 'oci';
}

export function readState(kind: string, object: any): ReconcileStateName {
  if (object?.metadata?.deletionTimestamp) return 'terminating';
  if (isSuspended(kind, object)) return 'suspended';
  const status = object?.status;
  const conditions = status?.conditions;
  const observed = status?.observedGeneration;
  const list = Array.isArray(conditions) ? conditions : undefined;
  const ready = list?.find((c: any) => c?.type === 'Ready');
  if (!ready && observed === undefined) {
    if (isStatic(kind, object)) return 'ready';
    return conditions === undefined || list !== undefined
      ? 'never-reconciled'
      : 'unknown';
  }
  if (conditions !== undefined && !list) return 'unknown';
  if (list?.some((c: any) => c?.type === 'Stalled' && c?.status === 'True'))
    return 'stalled';
  if (ready?.status === 'False') {
    return ready.reason === 'DependencyNotReady' ? 'blocked' : 'failed';
  }
  const generation = object?.metadata?.generation;
  if (
    (typeof observed === 'number' &&
      typeof generation === 'number' &&
      observed < generation) ||
    ready?.status === 'Unknown' ||
    (!ready && observed !== undefined)
  ) {
    return 'progressing';
  }
  if (ready?.status === 'True') return 'ready';
  return 'unknown';
}

function ref(
  kind: string | undefined,
  name: unknown,
  namespace: unknown,
  own: string,
): ObjectRef | undefined {
  if (typeof name !== 'string' || !kind) return undefined;
  return {
    kind,
    name,
    namespace: typeof namespace === 'string' && namespace ? namespace : own,
  };
}

/** Source references of an object (rules §7), namespace defaulted. */
export function sourceRefs(kind: string, object: any): ObjectRef[] {
  const spec = object?.spec ?? {};
  const ns = object?.metadata?.namespace ?? '';
  const refs: Array<ObjectRef | undefined> = [];
  switch (kind) {
    case 'Kustomization':
    case 'HelmChart':
      refs.push(
        ref(
          spec.sourceRef?.kind,
          spec.sourceRef?.name,
          spec.sourceRef?.namespace,
          ns,
        ),
      );
      break;
    case 'HelmRelease': {
      const chartSource = spec.chart?.spec?.sourceRef;
      if (chartSource)
        refs.push(
          ref(chartSource.kind, chartSource.name, chartSource.namespace, ns),
        );
      else if (spec.chartRef)
        refs.push(
          ref(
            spec.chartRef.kind,
            spec.chartRef.name,
            spec.chartRef.namespace,
            ns,
          ),
        );
      break;
    }
    case 'ImagePolicy':
      refs.push(
        ref(
          'ImageRepository',
          spec.imageRepositoryRef?.name,
          spec.imageRepositoryRef?.namespace,
          ns,
        ),
      );
      break;
    case 'ImageUpdateAutomation':
      refs.push(
        ref(
          spec.sourceRef?.kind ?? 'GitRepository',
          spec.sourceRef?.name,
          spec.sourceRef?.namespace,
          ns,
        ),
      );
      break;
    case 'Alert':
      refs.push(
        ref(
          'Provider',
          spec.providerRef?.name,
          spec.providerRef?.namespace,
          ns,
        ),
      );
      break;
    default:
  }
  return refs.filter((r): r is ObjectRef => r !== undefined);
}

/** `spec.dependsOn` targets (Kustomization and HelmRelease), namespace defaulted. */
export function dependencyRefs(kind: string, object: any): ObjectRef[] {
  if (kind !== 'Kustomization' && kind !== 'HelmRelease') return [];
  const deps = object?.spec?.dependsOn;
  if (!Array.isArray(deps)) return [];
  const ns = object?.metadata?.namespace ?? '';
  return deps
    .map((d: any) => ref(kind, d?.name, d?.namespace, ns))
    .filter((r): r is ObjectRef => r !== undefined);
}

/** What the reading needs from the rest of the cluster. */
export interface ClusterLookup {
  controlPlane: ControlPlane;
  /** The tenant label of a namespace, or null. */
  namespaceTenant(namespace: string): string | null;
  /** The `backstage.io/kubernetes-id` label of a workload, or undefined. */
  workloadService(
    namespace: string,
    name: string,
    group: string,
    kind: string,
  ): string | undefined;
}

/** The service an object belongs to (rules §6). */
export function serviceOf(object: any, lookup: ClusterLookup): string | null {
  const label = object?.metadata?.labels?.[KUBERNETES_ID];
  if (typeof label === 'string' && label) return label;
  const annotation = object?.metadata?.annotations?.[SERVICE_ANNOTATION];
  if (typeof annotation === 'string' && annotation) return annotation;
  const entries = object?.status?.inventory?.entries;
  if (!Array.isArray(entries)) return null;
  for (const entry of entries) {
    const id = typeof entry?.id === 'string' ? entry.id : '';
    const parts = id.split('_');
    if (parts.length < 4) continue;
    const kind = parts[parts.length - 1];
    const group = parts[parts.length - 2];
    if (!WORKLOAD_KINDS.has(`${group}_${kind}`)) continue;
    const namespace = parts[0];
    const name = parts
      .slice(1, parts.length - 2)
      .join('_')
      .replace(/__/g, ':');
    const service = lookup.workloadService(namespace, name, group, kind);
    if (service) return service;
  }
  return null;
}

/** Reads the record of a Flux object a client wrote. */
export function readRecord(
  kind: string,
  object: any,
  lookup: ClusterLookup,
): Omit<SimulatedObject, 'generated' | 'steadyState'> {
  const namespace = object.metadata.namespace ?? '';
  const labels = object.metadata.labels;
  const tenantLabel = labels?.[TENANT_LABEL];
  const state = readState(kind, object);
  const requestedAt =
    object.metadata.annotations?.['reconcile.fluxcd.io/requestedAt'];
  const lastHandled = object.status?.lastHandledReconcileAt;
  const impersonating = kind === 'Kustomization' || kind === 'HelmRelease';
  const sa = object.spec?.serviceAccountName;
  return {
    kind,
    namespace,
    name: object.metadata.name,
    placement: lookup.controlPlane.placementOf(kind, namespace, labels),
    state,
    suspended: isSuspended(kind, object),
    tenant:
      typeof tenantLabel === 'string' && tenantLabel
        ? tenantLabel
        : lookup.namespaceTenant(namespace),
    serviceAccountName:
      impersonating && typeof sa === 'string' && sa ? sa : null,
    service: serviceOf(object, lookup),
    sources: sourceRefs(kind, object),
    dependsOn: dependencyRefs(kind, object),
    requestedAt: typeof requestedAt === 'string' ? requestedAt : undefined,
    lastHandledReconcileAt:
      typeof lastHandled === 'string' ? lastHandled : undefined,
  };
}
