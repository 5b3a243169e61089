import { parseQuantity } from '@flux-fleet/plugin-flux-fleet-common';
import type { ClusterClient } from '../watch/ClusterClient';
import { KubernetesRequestError } from '../watch/KubernetesRequestError';

/** The port Flux controllers serve metrics on (`http-prom`), when a pod does not name it. */
const METRICS_PORT = 8080;

/** A running pod of a controller Deployment and the port its metrics are served on. */
export interface ControllerPod {
  name: string;
  port: number;
}

/** The container resources of a controller Deployment (its `manager` container), in cores and bytes. */
export interface ControllerResources {
  cpuLimitCores?: number;
  memoryLimitBytes?: number;
  cpuRequestCores?: number;
  memoryRequestBytes?: number;
}

/** What {@link discoverControllerPods} found. */
export interface ControllerPods {
  pods: ControllerPod[];
  resources: ControllerResources;
  /** Sentences saying what could not be found and why. */
  problems: string[];
}

type Obj = Record<string, any>;

/** `spec.selector` as a label selector query (`app=kustomize-controller,tier in (a,b)`). */
export function selectorQuery(selector: Obj | undefined): string | undefined {
  const parts = Object.entries((selector?.matchLabels ?? {}) as Record<string, string>).map(
    ([k, v]) => `${k}=${v}`,
  );
  for (const e of (selector?.matchExpressions ?? []) as Obj[]) {
    const values = Array.isArray(e.values) ? e.values.join(',') : '';
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(`${e.key}`);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.length ? parts.join(',') : undefined;
}

/** The container whose figures count: `manager` (every Flux controller's), else the only or first one. */
function managerContainer(containers: unknown): Obj | undefined {
  if (!Array.isArray(containers)) return undefined;
  return containers.find(c => c?.name === 'manager') ?? containers[0];
}

function resourcesOf(container: Obj | undefined): ControllerResources {
  const r = container?.resources ?? {};
  const figures: ControllerResources = {
    cpuLimitCores: parseQuantity(r.limits?.cpu),
    memoryLimitBytes: parseQuantity(r.limits?.memory),
    cpuRequestCores: parseQuantity(r.requests?.cpu),
    memoryRequestBytes: parseQuantity(r.requests?.memory),
  };
  for (const key of Object.keys(figures) as Array<keyof ControllerResources>) {
    if (figures[key] === undefined) delete figures[key];
  }
  return figures;
}

function metricsPort(container: Obj | undefined): number {
  const ports = Array.isArray(container?.ports) ? (container!.ports as Obj[]) : [];
  const named = ports.find(p => p?.name === 'http-prom')?.containerPort;
  return Number.isInteger(named) ? named : METRICS_PORT;
}

function denied(error: unknown, verb: string, what: string): string {
  if (error instanceof KubernetesRequestError && error.status === 403) {
    return `the credentials lack ${verb} on ${what} (see the ClusterRole in the README)`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Finds the running pods of one controller Deployment (by its `spec.selector`, as the ReplicaSets do) and the
 * limits of its `manager` container. Never throws: what fails is said in `problems`.
 */
export async function discoverControllerPods(
  client: ClusterClient,
  namespace: string,
  deployment: string,
  signal?: AbortSignal,
): Promise<ControllerPods> {
  const problems: string[] = [];
  let spec: Obj;
  try {
    spec = await client.getJson<Obj>(
      `/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/deployments/${encodeURIComponent(deployment)}`,
      {},
      signal,
    );
  } catch (error) {
    return { pods: [], resources: {}, problems: [`cannot read the Deployment: ${denied(error, 'get', 'deployments')}`] };
  }
  const template = managerContainer(spec?.spec?.template?.spec?.containers);
  const resources = resourcesOf(template);
  const labelSelector = selectorQuery(spec?.spec?.selector);
  if (!labelSelector) {
    return { pods: [], resources, problems: ['the Deployment has no spec.selector, so its pods cannot be found'] };
  }
  let list: Obj;
  try {
    list = await client.getJson<Obj>(
      `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`,
      { labelSelector },
      signal,
    );
  } catch (error) {
    return { pods: [], resources, problems: [`cannot list its pods: ${denied(error, 'list', 'pods')}`] };
  }
  const items = (Array.isArray(list?.items) ? list.items : []) as Obj[];
  const running = items.filter(p => p?.status?.phase === 'Running' && !p?.metadata?.deletionTimestamp);
  if (running.length === 0) {
    const phases = items.map(p => `${p?.metadata?.name} ${p?.status?.phase ?? 'without a phase'}`);
    problems.push(
      items.length ? `no running pod (${phases.join(', ')})` : `no pod matches its selector ${labelSelector}`,
    );
  }
  const pods = running
    .map(p => ({
      name: String(p.metadata?.name ?? ''),
      port: metricsPort(managerContainer(p.spec?.containers) ?? template),
    }))
    .filter(p => p.name)
    .sort((a, b) => a.name.localeCompare(b.name));
  return { pods, resources, problems };
}
