import { mockServices } from '@backstage/backend-test-utils';
import type { WatchFollowState } from '@flux-fleet/plugin-flux-fleet-common';
import { testWatchSettings } from '../__testUtils__/watchSettings';
import type { ClusterClient, WatchEnd, WatchEvent } from './ClusterClient';
import type { ListPageReader } from './ListBodyReader';
import { KubernetesRequestError } from './KubernetesRequestError';
import { InformerSink, REPLAY_MAX_MS, REPLAY_QUIET_MS, ResourceInformer } from './ResourceInformer';

const settings = testWatchSettings({ idleTimeoutMs: 30_000, backoffInitialMs: 50, backoffMaxMs: 50 });

const object = (name: string, resourceVersion: number) => ({
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: { namespace: 'apps', name, resourceVersion: String(resourceVersion) },
});

/** An open watch the test drives: it delivers what the test says, when it says. */
interface ScriptedWatch {
  query: Record<string, unknown>;
  open(): void;
  send(event: WatchEvent): void;
  end(how: WatchEnd | KubernetesRequestError): void;
}

/**
 * A cluster client whose list answers at once and whose watches the test scripts: enough to hold the informer's
 * own timing (when it counts a resumed watch caught up) without the jitter of a real connection.
 */
function scriptedClient() {
  const watches: ScriptedWatch[] = [];
  const client = {
    cluster: 'dev-eu-1',
    getListWith: async (_path: string, _query: unknown, reader: () => ListPageReader) => {
      const body = reader();
      body.write(Buffer.from(JSON.stringify({ items: [object('podinfo', 10)], metadata: { resourceVersion: '10' } })));
      return body.end();
    },
    watch: (
      _path: string,
      query: Record<string, unknown>,
      handlers: { onOpen?: () => void; onEvent: (event: WatchEvent) => void },
      options: { signal?: AbortSignal },
    ) =>
      new Promise<WatchEnd>((resolve, reject) => {
        options.signal?.addEventListener('abort', () => resolve('aborted'));
        watches.push({
          query,
          open: () => handlers.onOpen?.(),
          send: event => handlers.onEvent(event),
          end: how => (how instanceof KubernetesRequestError ? reject(how) : resolve(how)),
        });
      }),
  } as unknown as ClusterClient;
  return { client, watches };
}

const sink: InformerSink = { listStarted: () => {}, upsert: () => {}, remove: () => {}, listFinished: () => {} };
const observer = { succeeded: () => {}, failed: () => {}, listed: () => {}, heard: () => {}, vanished: () => {} };
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

async function until<T>(what: string, value: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = value();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe('ResourceInformer: when a resumed watch has caught up (rules §15)', () => {
  let informer: ResourceInformer;
  let scripted: ReturnType<typeof scriptedClient>;
  const state = (): WatchFollowState => informer.followState('Kustomization');

  /** Lists, follows, then loses its watch to a network failure and opens the resumed one; returns that watch. */
  async function resumedAfterFailure(): Promise<ScriptedWatch> {
    scripted = scriptedClient();
    informer = new ResourceInformer(
      { group: 'kustomize.toolkit.fluxcd.io', version: 'v1', kind: 'Kustomization', plural: 'kustomizations' },
      scripted.client,
      sink,
      observer,
      settings,
      mockServices.logger.mock(),
    );
    informer.start();
    const first = await until('the first watch', () => scripted.watches[0]);
    first.open();
    await until('following after the first list', () => (state().behindSince === undefined ? true : undefined));
    first.end(new KubernetesRequestError({ cluster: 'dev-eu-1', failure: 'network', message: 'connection refused' }));
    const resumed = await until('the resumed watch', () => scripted.watches[1]);
    expect(resumed.query.resourceVersion).toBe('10');
    expect(state().reason).toBe('backoff');
    resumed.open();
    return resumed;
  }

  afterEach(() => informer?.stop());

  it('is replaying, not following, while the replay arrives; follows after a quiet interval', async () => {
    const resumed = await resumedAfterFailure();
    const behindSince = state().behindSince;
    // the response opened: the connection is back, the objects are not yet
    expect(state()).toMatchObject({ reason: 'replaying', behindSince });
    let lastEvent = 0;
    for (let rv = 11; rv <= 14; rv++) {
      resumed.send({ type: 'MODIFIED', object: object('podinfo', rv) });
      lastEvent = Date.now();
      await sleep(REPLAY_QUIET_MS / 3);
      expect(state().reason).toBe('replaying');
    }
    const followed = await until('following', () => (state().behindSince === undefined ? Date.now() : undefined));
    expect(followed - lastEvent).toBeGreaterThanOrEqual(REPLAY_QUIET_MS - 5);
    // how long it had been behind, counted from the failure: the derivation tells an outage from a renewal by it
    expect(state().caughtUp?.behindMs).toBeGreaterThanOrEqual(followed - behindSince! - 50);
  });

  it('follows at once at a bookmark, which the server writes after the replay', async () => {
    const resumed = await resumedAfterFailure();
    resumed.send({ type: 'MODIFIED', object: object('podinfo', 11) });
    expect(state().reason).toBe('replaying');
    resumed.send({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '12' } } });
    expect(state().behindSince).toBeUndefined();
    expect(state().caughtUp).toBeDefined();
  });

  it('follows a busy watch that never goes quiet once it has been open for the longest replay', async () => {
    const resumed = await resumedAfterFailure();
    const opened = Date.now();
    let rv = 11;
    while (state().behindSince !== undefined && Date.now() - opened < 3 * REPLAY_MAX_MS) {
      resumed.send({ type: 'MODIFIED', object: object('podinfo', rv++) });
      await sleep(REPLAY_QUIET_MS / 5);
    }
    const after = Date.now() - opened;
    expect(after).toBeGreaterThanOrEqual(REPLAY_MAX_MS);
    expect(after).toBeLessThan(REPLAY_MAX_MS + 500);
  });

  it('does not count a stalled event loop as quiet: what was already read is delivered first', async () => {
    const resumed = await resumedAfterFailure();
    resumed.send({ type: 'MODIFIED', object: object('podinfo', 11) });
    // the loop is busy past the quiet interval, and the rest of the replay waits behind it as bytes on a socket
    // do: when the loop is free, the quiet timer and the delivery are both due, and the delivery must win
    setTimeout(() => {
      const stalled = Date.now();
      while (Date.now() - stalled < REPLAY_QUIET_MS + 50) {
        // busy
      }
    }, 0);
    setTimeout(() => resumed.send({ type: 'MODIFIED', object: object('podinfo', 12) }), REPLAY_QUIET_MS + 10);
    await sleep(REPLAY_QUIET_MS + 80);
    expect(state().reason).toBe('replaying');
  });
});
