import {
  DEPLOYMENTS,
  KUSTOMIZATIONS,
  kustomization,
  kustomizeControllerDeployment,
  watchedTestFleet,
  watchHealth,
} from '../__testUtils__/fluxFixtures';
import type { WatchedResource } from '../watch/WatchedResource';
import { ObjectJsonCache } from './ObjectJsonCache';

const T0 = Date.parse('2026-07-14T10:00:00Z');

const GIT_REPOSITORIES: WatchedResource = {
  group: 'source.toolkit.fluxcd.io',
  version: 'v1',
  kind: 'GitRepository',
  plural: 'gitrepositories',
};

function gitRepository(url: string) {
  return {
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'GitRepository',
    metadata: { name: 'apps', namespace: 'apps', generation: 1 },
    spec: { interval: '1m', url },
    status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'True', reason: 'Succeeded', message: 'ok' }] },
  };
}

/**
 * The JSON answer of /objects is the serialised answer of `objects()` after every kind of change that alters an
 * object's answer: its status, its record, a dependency (state derived from another object), its cluster's
 * analysis, its cluster's staleness and its source's URL. A cache entry kept across one of them would serve the
 * object as it was.
 */
describe('objectsJson (each object\'s JSON kept between queries)', () => {
  beforeEach(() => jest.useFakeTimers({ now: T0 }));
  afterEach(() => jest.useRealTimers());

  function watchedLab() {
    const { fleet, index, setHealth } = watchedTestFleet('lab', watchHealth(true));
    const store = fleet.storeOf('lab');
    const kustomizations = store.flux(KUSTOMIZATIONS);
    const sources = store.flux(GIT_REPOSITORIES);
    sources.upsert(gitRepository('https://github.com/acme/apps'));
    kustomizations.upsert(kustomization('platform'));
    kustomizations.upsert(kustomization('payments', { spec: { dependsOn: [{ name: 'platform' }] } }));
    setHealth(watchHealth(true));
    jest.advanceTimersByTime(1_000);
    return { fleet, index, kustomizations, sources, setHealth };
  }

  it.each([
    ['its status changed', ({ kustomizations }: ReturnType<typeof watchedLab>) =>
      kustomizations.upsert(
        kustomization('payments', {
          spec: { dependsOn: [{ name: 'platform' }] },
          ready: { status: 'False', reason: 'HealthCheckFailed', message: 'timeout waiting for payments-api' },
        }),
      )],
    ['its record changed (labels)', ({ kustomizations }: ReturnType<typeof watchedLab>) =>
      kustomizations.upsert(
        kustomization('payments', { spec: { dependsOn: [{ name: 'platform' }] }, labels: { team: 'payments' } }),
      )],
    ['the object it depends on failed', ({ kustomizations }: ReturnType<typeof watchedLab>) =>
      kustomizations.upsert(
        kustomization('platform', { ready: { status: 'False', reason: 'BuildFailed', message: 'kustomize build failed' } }),
      )],
    ['the controller that reconciles it appeared (its owner, from an analysis)', ({ fleet }: ReturnType<typeof watchedLab>) =>
      fleet.storeOf('lab').supporting('controllers', DEPLOYMENTS).upsert(kustomizeControllerDeployment())],
    ['its source moved to another URL', ({ sources }: ReturnType<typeof watchedLab>) =>
      sources.upsert(gitRepository('https://github.com/acme/apps-moved'))],
    ['its cluster became unreachable', ({ setHealth }: ReturnType<typeof watchedLab>) =>
      setHealth({ ...watchHealth(false), connection: { status: 'unreachable', since: T0, unreachableSince: T0 } })],
    ['the object was deleted', ({ kustomizations }: ReturnType<typeof watchedLab>) =>
      kustomizations.remove({ metadata: { name: 'payments', namespace: 'apps' } })],
  ])('answers what objects() answers after %s', (_, change) => {
    const lab = watchedLab();
    const { index, fleet } = lab;
    const query = { kind: ['Kustomization' as const] };
    const before = index.objectsJson(query).toString('utf8');
    expect(JSON.parse(before)).toEqual(JSON.parse(JSON.stringify(index.objects(query))));
    // asked again unchanged: the same text
    expect(index.objectsJson(query).toString('utf8')).toBe(before);
    change(lab);
    jest.advanceTimersByTime(1_000);
    const after = index.objectsJson(query).toString('utf8');
    expect(after).not.toBe(before);
    expect(after).toBe(JSON.stringify(index.objects(query)));
    fleet.close();
  });

  it('keeps an object\'s JSON from its second answer on, at most its limit of objects, dropping the oldest', () => {
    const lab = watchedLab();
    const cache = new ObjectJsonCache(1);
    const entry = lab.fleet.find('lab')!;
    const [platform, payments] = ['platform', 'payments'].map(
      name => entry.view.get(`lab/apps/Kustomization/${name}`)!,
    );
    const first = cache.jsonOf(entry, platform);
    // answered once: its text, not kept
    expect(typeof first).toBe('string');
    expect(JSON.parse(first as string)).toMatchObject({ key: 'lab/apps/Kustomization/platform' });
    expect(cache.size).toBe(0);
    const json = cache.jsonOf(entry, platform);
    expect(json.toString('utf8')).toBe(first);
    expect(cache.size).toBe(1);
    expect(cache.jsonOf(entry, platform)).toBe(json);
    // a second object asked twice takes the only place
    cache.jsonOf(entry, payments);
    cache.jsonOf(entry, payments);
    expect(cache.size).toBe(1);
    expect(cache.jsonOf(entry, platform)).not.toBe(json);
    expect(cache.jsonOf(entry, platform)).toEqual(json);
    lab.fleet.close();
  });

  it("keeps serving an object's JSON across analyses of its cluster that changed nothing of it", () => {
    const lab = watchedLab();
    const cache = new ObjectJsonCache();
    const entry = lab.fleet.find('lab')!;
    const key = 'lab/apps/Kustomization/platform';
    cache.jsonOf(entry, entry.view.get(key)!);
    const kept = cache.jsonOf(entry, entry.view.get(key)!);
    const analysis = entry.view.analysis;
    // another object appears: the cluster is analysed again, platform's answer is what it was
    lab.kustomizations.upsert(kustomization('billing'));
    jest.advanceTimersByTime(1_000);
    expect(entry.view.analysis).toBeGreaterThan(analysis);
    expect(cache.jsonOf(entry, entry.view.get(key)!)).toBe(kept);
    // its controller appears: the next analysis gives it an owner, and its answer is built again
    lab.fleet.storeOf('lab').supporting('controllers', DEPLOYMENTS).upsert(kustomizeControllerDeployment());
    jest.advanceTimersByTime(1_000);
    const owned = cache.jsonOf(entry, entry.view.get(key)!);
    expect(owned).not.toBe(kept);
    expect(JSON.parse(owned.toString())).toEqual(
      JSON.parse(JSON.stringify(lab.index.objects({ kind: ['Kustomization'] }).items.find(o => o.key === key))),
    );
    expect(JSON.parse(owned.toString()).owner).not.toEqual(JSON.parse(kept.toString()).owner);
    lab.fleet.close();
  });
});
