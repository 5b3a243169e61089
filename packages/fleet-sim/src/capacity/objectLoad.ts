/**
 * The load one Flux object puts on its controller: how often it is reconciled (`spec.interval`) and how long a
 * reconcile takes. The reconcile duration is the simulator's own: a typical figure per kind times a spread that
 * is deterministic from the object's identity (so a fleet is the same every run); the generator then scales
 * whole controllers to the demo's load (demoLoad.ts).
 */

/** What an object costs its controller. */
export interface ObjectLoad {
  intervalSeconds: number;
  reconcileSeconds: number;
}

/** A typical reconcile duration per kind, in seconds (fetch, build, apply or install). */
const TYPICAL_RECONCILE_SECONDS: Record<string, number> = {
  GitRepository: 1.2,
  OCIRepository: 0.8,
  HelmRepository: 2,
  HelmChart: 0.6,
  Bucket: 0.9,
  Kustomization: 3,
  HelmRelease: 4,
  Receiver: 0.05,
  ImageRepository: 1,
  ImagePolicy: 0.05,
  ImageUpdateAutomation: 2,
  ArtifactGenerator: 0.5,
};

/** Interval of kinds whose `spec.interval` is optional, when it is absent. */
const DEFAULT_INTERVAL_SECONDS = 600;

const UNITS: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
};

/** Parses a Go duration (`10m`, `1h30m`, `5m0s`, `500ms`) into seconds; undefined when it is not one. */
export function parseGoDuration(text: unknown): number | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/y;
  let total = 0;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return undefined;
    total += Number(m[1]) * UNITS[m[2]];
    at = re.lastIndex;
  }
  return total;
}

/** A spread in [0.5, 1.5) that is the same for the same object in the same cluster (FNV-1a of its identity). */
export function spreadOf(
  cluster: string,
  kind: string,
  namespace: string,
  name: string,
): number {
  const text = `${cluster}\u0000${kind}\u0000${namespace}\u0000${name}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return 0.5 + (hash >>> 0) / 2 ** 32;
}

/** Whether a kind is reconciled on an interval by a Flux controller (static and operator kinds are not). */
export function hasReconcileLoad(kind: string, object: any): boolean {
  if (!(kind in TYPICAL_RECONCILE_SECONDS)) return false;
  return !(kind === 'HelmRepository' && object?.spec?.type === 'oci');
}

/**
 * The load of an object, or undefined when no controller reconciles it on an interval. `reconcileSeconds`
 * keeps a known duration (an object rewritten through the API keeps its own).
 */
export function objectLoadOf(
  cluster: string,
  kind: string,
  object: any,
  reconcileSeconds?: number,
): ObjectLoad | undefined {
  if (!hasReconcileLoad(kind, object)) return undefined;
  const interval = parseGoDuration(object?.spec?.interval);
  return {
    intervalSeconds:
      interval !== undefined && interval > 0
        ? interval
        : DEFAULT_INTERVAL_SECONDS,
    reconcileSeconds:
      reconcileSeconds ??
      TYPICAL_RECONCILE_SECONDS[kind] *
        spreadOf(
          cluster,
          kind,
          object?.metadata?.namespace ?? '',
          object?.metadata?.name ?? '',
        ),
  };
}
