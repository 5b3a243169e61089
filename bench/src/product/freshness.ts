/**
 * Freshness: a change made through a simulated cluster's API (a merge patch of a Kustomization's status, as a
 * controller writes it), until the signal that announces it reaches a subscribed client on the entity channel
 * (an open entity page) and on the object channel (an open object detail), under the simulator's churn; and until
 * an open entity page holds the change: the signal, then the view the page asks again at once (as
 * `useLiveRefresh` does for the first signal after a quiet spell).
 */
import type { EventLoopLoad } from '@flux-fleet/fleet-sim';
import {
  SIGNAL_CHANNELS,
  type EntityView,
  type FleetObject,
} from '@flux-fleet/plugin-flux-fleet-common';
import { clusterRequest } from '../clusterRequest';
import type { SimulatedCluster } from '../kubeconfig';
import { distribution, type Distribution } from '../stats';
import type { BackendClient } from './backendClient';
import { SignalsClient } from './signalsClient';

/** Change-to-signal figures. */
export interface Freshness {
  changes: number;
  entityChannelMs: Distribution;
  /** Until the entity page's refresh, asked when its signal arrived, has answered. */
  entityPageMs?: Distribution;
  objectChannelMs: Distribution;
  /** Changes whose signal did not arrive within the timeout, per channel. */
  missed: { entity: number; object: number };
  timeoutMs: number;
  /**
   * The backend's liveness endpoint, asked every 100 ms meanwhile: when its tail matches the signals' tail, the
   * backend as a whole paused (garbage collection, a snapshot write…), not the signal path.
   */
  livenessMs?: Distribution;
  /**
   * Until the simulator answered the change (the PATCH). It writes the change's watch events before it answers, so
   * a tail here is the simulator's (its thread held up), not the backend's.
   */
  simulatorAnswerMs?: Distribution;
  /**
   * From the simulator's answer to the signal on the entity channel: the backend's share (its watch, index and
   * signals) and the network's. 0 when the signal came first.
   */
  entityChannelAfterAnswerMs?: Distribution;
  /** The simulator's thread over the same time (its clusters, watches and admin API all run on it). */
  simulatorEventLoop?: EventLoopLoad;
}

/** Asks the liveness endpoint every `intervalMs` until stopped; resolves with the latencies. */
function probeLiveness(
  baseUrl: string,
  intervalMs: number,
): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${baseUrl}/.backstage/health/v1/liveness`)
        .then(r => r.arrayBuffer())
        .catch(() => undefined);
      latencies.push(performance.now() - started);
      await new Promise(r => setTimeout(r, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return latencies;
    },
  };
}

interface Target {
  object: FleetObject;
  entityRef: string;
  cluster: SimulatedCluster;
}

/** Opens the pages (entity views and object details) and subscribes to their channels, as the frontend does. */
async function openPages(
  client: BackendClient,
  userToken: string,
  signals: SignalsClient,
  services: string[],
  clusters: Map<string, SimulatedCluster>,
): Promise<Target[]> {
  const targets: Target[] = [];
  for (const service of services) {
    const view = await client.call<EntityView>(
      `/api/flux-fleet/entity/component/default/${service}`,
      {
        token: userToken,
      },
    );
    if (view.status !== 200 || !view.body) {
      throw new Error(
        `the entity view of component:default/${service} answered ${view.status}`,
      );
    }
    signals.subscribe(SIGNAL_CHANNELS.entity(view.body.entityRef));
    for (const object of view.body.objects) {
      const cluster = clusters.get(object.ref.cluster);
      if (object.ref.kind !== 'Kustomization' || !cluster) continue;
      const { cluster: c, namespace, kind, name } = object.ref;
      const detail = await client.call(
        `/api/flux-fleet/objects/${c}/${namespace}/${kind}/${name}`,
        {
          token: userToken,
        },
      );
      if (detail.status !== 200)
        throw new Error(
          `the detail of ${object.key} answered ${detail.status}`,
        );
      signals.subscribe(SIGNAL_CHANNELS.object(object.key));
      targets.push({ object, entityRef: view.body.entityRef, cluster });
    }
  }
  return targets;
}

/** Makes `changes` changes, one at a time with a short random pause, and measures each one's signals. */
export async function measureFreshness(options: {
  client: BackendClient;
  userToken: string;
  services: string[];
  clusters: SimulatedCluster[];
  changes: number;
  timeoutMs?: number;
  /** Reads the simulator's event loop (`RunningSimulator.eventLoop`); without it, it is left out. */
  simulatorEventLoop?: (reset: boolean) => Promise<EventLoopLoad>;
}): Promise<Freshness> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const signals = await SignalsClient.connect(
    options.client.baseUrl,
    options.userToken,
  );
  let liveness: ReturnType<typeof probeLiveness> | undefined;
  try {
    const targets = await openPages(
      options.client,
      options.userToken,
      signals,
      options.services,
      new Map(options.clusters.map(c => [c.name, c])),
    );
    if (targets.length === 0)
      throw new Error(
        `no Kustomization among the Flux objects of ${options.services.join(
          ', ',
        )}`,
      );
    // let the subscriptions reach the signals plugin before the first change
    await new Promise(r => setTimeout(r, 500));
    const entity: number[] = [];
    const entityPage: number[] = [];
    const object: number[] = [];
    const answered: number[] = [];
    const afterAnswer: number[] = [];
    const missed = { entity: 0, object: 0 };
    await options.simulatorEventLoop?.(true);
    liveness = probeLiveness(options.client.baseUrl, 100);
    for (let i = 0; i < options.changes; i++) {
      const {
        object: o,
        entityRef,
        cluster,
      } = targets[(i * 7) % targets.length];
      const onEntity = signals.waitFor(
        SIGNAL_CHANNELS.entity(entityRef),
        o.key,
        timeoutMs,
      );
      // what the open page does on the signal: ask for the entity's view again
      const onEntityPage = onEntity.then(async at => {
        if (at === undefined) return undefined;
        const [kind, rest] = entityRef.split(':');
        const view = await options.client.call(
          `/api/flux-fleet/entity/${kind}/${rest}`,
          { token: options.userToken },
        );
        if (view.status !== 200) {
          throw new Error(`the entity view of ${entityRef} answered ${view.status}`);
        }
        return performance.now();
      });
      const onObject = signals.waitFor(
        SIGNAL_CHANNELS.object(o.key),
        o.key,
        timeoutMs,
      );
      const path = `/apis/${o.apiVersion}/namespaces/${o.ref.namespace}/kustomizations/${o.ref.name}/status`;
      const started = performance.now();
      const answer = await clusterRequest(cluster, path, {
        method: 'PATCH',
        contentType: 'application/merge-patch+json',
        body: { status: { lastHandledReconcileAt: new Date().toISOString() } },
      });
      const answeredAt = performance.now();
      answered.push(answeredAt - started);
      if (answer.status !== 200) {
        throw new Error(
          `cluster ${cluster.name}: PATCH ${path} answered ${
            answer.status
          }: ${answer.text.slice(0, 200)}`,
        );
      }
      const [atEntity, atEntityPage, atObject] = await Promise.all([
        onEntity,
        onEntityPage,
        onObject,
      ]);
      if (atEntity === undefined) missed.entity += 1;
      else {
        entity.push(atEntity - started);
        afterAnswer.push(Math.max(0, atEntity - answeredAt));
      }
      if (atEntityPage !== undefined) entityPage.push(atEntityPage - started);
      if (atObject === undefined) missed.object += 1;
      else object.push(atObject - started);
      await new Promise(r => setTimeout(r, 100 + Math.random() * 200));
    }
    return {
      changes: options.changes,
      entityChannelMs: distribution(entity),
      entityPageMs: distribution(entityPage),
      objectChannelMs: distribution(object),
      missed,
      timeoutMs,
      livenessMs: distribution(await liveness.stop()),
      simulatorAnswerMs: distribution(answered),
      entityChannelAfterAnswerMs: distribution(afterAnswer),
      ...(options.simulatorEventLoop && {
        simulatorEventLoop: await options.simulatorEventLoop(false),
      }),
    };
  } finally {
    await liveness?.stop();
    signals.close();
  }
}
