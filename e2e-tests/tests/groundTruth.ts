import { simAdminUrl } from './fleetState';

/**
 * The simulator's ground truth (`GET <admin>/truth`, the same document as `truth.json`): how it built each Flux
 * object, never derived by the plugin's code. Shapes as documented in packages/fleet-sim/README.md; typed here
 * rather than imported, so that the tests depend on the documented contract only.
 */
export interface TruthObject {
  cluster: string;
  kind: string;
  namespace: string;
  name: string;
  /** The owning instance (its namespace); null for orphans and contested objects. */
  instance: string | null;
  shard: string | null;
  owner: 'ok' | 'orphan' | 'contested';
  state: string;
  tenant: string | null;
  /** Effective service account (Kustomization and HelmRelease only). */
  serviceAccount: string | null;
  boundary: 'none' | 'partial' | 'enforced';
  service: string | null;
  /** A ready reconciler whose source holds a newer revision than it applied. */
  behindSource?: true;
}

/** One object-level finding of the truth. */
export interface TruthFinding {
  type: string;
  cluster: string;
  kind: string;
  namespace: string;
  name: string;
}

/** The whole ground truth. */
export interface GroundTruth {
  clusters: Array<{
    name: string;
    server: string;
    fluxVersion: string;
    /** The environment it was built for, which its kube-system namespace names (label `flux-fleet.io/environment`). */
    environment?: string;
  }>;
  objects: TruthObject[];
  findings: TruthFinding[];
  /** Every Flux controller Deployment with the simulator's modelled capacity verdict. */
  controllers: Array<{
    cluster: string;
    namespace: string;
    deployment: string;
    verdict: 'ok' | 'near-capacity' | 'over-capacity';
  }>;
}

/**
 * The truth now. Read live from the simulator rather than from truth.json, because the simulated fleet churns
 * (reconciliations change states every second) and kubectl writes change it too; truth.json is the truth at start.
 */
export async function readTruth(): Promise<GroundTruth> {
  const url = `${simAdminUrl()}/truth`;
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(
      `GET ${url} answered ${response.status}: ${await response.text()}`,
    );
  }
  return (await response.json()) as GroundTruth;
}

/** The key the product gives a Flux object (`cluster/namespace/kind/name`), also in its test ids. */
export function objectKey(
  o: Pick<TruthObject, 'cluster' | 'namespace' | 'kind' | 'name'>,
): string {
  return `${o.cluster}/${o.namespace}/${o.kind}/${o.name}`;
}

/** Kinds that apply workloads under a service account: the rows a service's card is about. */
export const RECONCILER_KINDS = ['Kustomization', 'HelmRelease'];

/** A service's Flux objects in the truth, grouped by cluster. */
export function objectsOfService(
  truth: GroundTruth,
  service: string,
): Map<string, TruthObject[]> {
  const byCluster = new Map<string, TruthObject[]>();
  for (const o of truth.objects) {
    if (o.service !== service) continue;
    byCluster.set(o.cluster, [...(byCluster.get(o.cluster) ?? []), o]);
  }
  return byCluster;
}
