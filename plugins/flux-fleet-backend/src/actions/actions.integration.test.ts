import { createServiceFactory } from '@backstage/backend-plugin-api';
import { mockCredentials } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { signalsServiceRef } from '@backstage/plugin-signals-node';
import { startFleetSim, type FleetSim, type SimCluster } from '@flux-fleet/fleet-sim';
import {
  ActionResult,
  ClusterHealth,
  FleetObject,
  FleetObjectDetail,
} from '@flux-fleet/plugin-flux-fleet-common';
import request from 'supertest';
import { ALICE, BOB, CAROL, clusterObjectOf, ownershipPolicy, TEAM } from '../__testUtils__/actionFixtures';
import { capturingRootLogger } from '../__testUtils__/capturingRootLogger';
import { FleetBackend, startFleetBackend } from '../__testUtils__/startFleetBackend';
import { actionResultSchema } from '../schema/responseSchemas';

jest.setTimeout(60_000);

interface Attempt {
  user: string;
  action: string;
  key: string;
  status: number;
}

/**
 * The actions against a simulated fleet served over TLS: two clusters with the simulator's admin token, one with
 * its read-only token. A policy like the app's (owners may act, everybody may read) decides through the plugin's
 * IS_OWNED_BY rule; the catalog says which team owns which service.
 */
describe('reconcile, suspend and resume', () => {
  let sim: FleetSim;
  let fleet: FleetBackend;
  const logs = capturingRootLogger();
  const published: Array<{ channel: string; message: unknown; at: number }> = [];
  /** Every response body the API gave in this file, for the credentials check. */
  const bodies: string[] = [];
  const attempts: Attempt[] = [];
  let admin: [SimCluster, SimCluster];
  let readOnly: SimCluster;
  /** Objects under test, by role. */
  const targets = {} as Record<'reconcile' | 'helmRelease' | 'suspend' | 'orphan' | 'readOnly', FleetObject>;

  const keyOf = (o: { cluster: string; namespace: string; kind: string; name: string }) =>
    `${o.cluster}/${o.namespace}/${o.kind}/${o.name}`;

  async function api(
    method: 'get' | 'post',
    path: string,
    user: string | undefined = ALICE,
    body?: object,
  ) {
    let req = request(fleet.backend.server)[method](`/api/flux-fleet${path}`);
    if (user) req = req.set('Authorization', mockCredentials.user.header(user));
    const res = await (body ? req.send(body) : req);
    bodies.push(res.text);
    return res;
  }

  async function act(user: string, action: string, object: FleetObject, body: object = {}) {
    const res = await api('post', `/objects/${object.key}/${action}`, user, body);
    attempts.push({ user, action, key: object.key, status: res.status });
    return res;
  }

  beforeAll(async () => {
    sim = await startFleetSim({ size: 'S', seed: 1, port: 0, tls: true });
    admin = [sim.clusters[0], sim.clusters[1]];
    readOnly = sim.clusters[2];
    const truth = sim.truth().objects;
    const pick = (test: (o: (typeof truth)[number]) => boolean, what: string) => {
      const found = truth.find(test);
      if (!found) throw new Error(`fleet S seed 1 has no ${what}`);
      return found;
    };
    const reconcile = pick(
      o => o.cluster === admin[0].name && o.service === 'checkout' && o.kind === 'Kustomization',
      'checkout Kustomization on the first cluster',
    );
    const helmRelease = pick(
      o =>
        o.cluster === admin[0].name &&
        o.kind === 'HelmRelease' &&
        o.owner === 'ok' &&
        o.state === 'ready' &&
        o.service !== null,
      'ready HelmRelease of a service on the first cluster',
    );
    const suspend = pick(
      o => o.cluster === admin[1].name && o.service === 'checkout' && o.kind === 'Kustomization',
      'checkout Kustomization on the second cluster',
    );
    const orphan = pick(
      o =>
        o.cluster !== readOnly.name &&
        o.owner === 'orphan' &&
        o.kind === 'Kustomization' &&
        o.state !== 'suspended' &&
        o.service !== null,
      'orphan Kustomization of a service on a writable cluster',
    );
    const onReadOnly = pick(
      o => o.cluster === readOnly.name && o.service === 'checkout' && o.kind === 'Kustomization',
      'checkout Kustomization on the third cluster',
    );
    const component = (name: string, owner: string) => ({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Component',
      metadata: { name, namespace: 'default', annotations: { 'backstage.io/kubernetes-id': name } },
      spec: { type: 'service', lifecycle: 'production', owner },
    });

    fleet = await startFleetBackend({
      runningSim: sim,
      fluxFleet: {
        clusters: sim.clusters.map(c => ({
          name: c.name,
          url: c.server,
          caData: c.caData,
          serviceAccountToken: c === readOnly ? c.readOnlyToken : c.adminToken,
        })),
      },
      features: [
        logs.factory,
        catalogServiceMock.factory({
          entities: [
            // spec.owner written short, as people do: resolved to group:default/team-checkout
            component('checkout', 'team-checkout'),
            component(helmRelease.service!, TEAM),
            component(orphan.service!, TEAM),
          ],
        }),
        ownershipPolicy().factory,
        createServiceFactory({
          service: signalsServiceRef,
          deps: {},
          factory: () => ({
            publish: async (signal: any) => {
              published.push({ channel: signal.channel, message: signal.message, at: Date.now() });
            },
          }),
        }),
      ],
    });
    await fleet.waitFor('every cluster synced', async () => {
      const { items } = await fleet.get('/clusters');
      return items.every((c: ClusterHealth) => c.synced) ? true : undefined;
    });
    for (const [role, t] of Object.entries({ reconcile, helmRelease, suspend, orphan, readOnly: onReadOnly })) {
      targets[role as keyof typeof targets] = await fleet.get(`/objects/${keyOf(t)}`);
    }
  });

  afterAll(async () => {
    await fleet?.stop();
    await sim?.close();
  });

  it('lets an owner reconcile, and says when the controller has handled it', async () => {
    const target = targets.reconcile;
    const res = await act(ALICE, 'reconcile', target);
    expect(res.status).toBe(200);
    const result: ActionResult = res.body;
    expect(actionResultSchema.safeParse(result).success).toBe(true);
    expect(result).toMatchObject({ key: target.key, action: 'reconcile', handled: 'pending' });
    expect(result.requestedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/);
    expect(result.message).toContain(`waiting for ${target.owner.controller}`);

    // the simulated controller echoes the token into status.lastHandledReconcileAt after 0.5–1 s
    const handled = await fleet.waitFor('the echo of the request', async () => {
      const detail: FleetObjectDetail = (await api('get', `/objects/${target.key}`)).body;
      return detail.state.lastHandledReconcileAt === result.requestedAt ? detail : undefined;
    }, 10_000);
    expect(handled.state.reconcileRequestedAt).toBe(result.requestedAt);
    // and the object's channel told open pages so
    await fleet.waitFor('the object signal', async () =>
      published.some(p => p.channel === `flux-fleet:object:${target.key}`) ? true : undefined,
    );
  });

  it('forces a HelmRelease reconcile with forceAt beside requestedAt', async () => {
    const target = targets.helmRelease;
    const res = await act(ALICE, 'reconcile', target, { force: true });
    expect(res.status).toBe(200);
    const live = await clusterObjectOf(sim, target);
    expect(live.metadata.annotations['reconcile.fluxcd.io/requestedAt']).toBe(res.body.requestedAt);
    expect(live.metadata.annotations['reconcile.fluxcd.io/forceAt']).toBe(res.body.requestedAt);
    expect(res.body.message).toContain('Forced reconcile');
  });

  it('refuses a user who does not own the service with 403, and writes nothing', async () => {
    const target = targets.helmRelease;
    const before = (await clusterObjectOf(sim, target)).metadata.annotations;
    for (const action of ['reconcile', 'suspend', 'resume']) {
      const res = await act(BOB, action, target);
      expect(res.status).toBe(403);
      const permission = action === 'reconcile' ? 'reconcile' : 'suspend';
      expect(res.body.error.message).toBe(
        `You do not have the permission flux-fleet.object.${permission} on ${target.key}.`,
      );
    }
    const after = await clusterObjectOf(sim, target);
    expect(after.metadata.annotations).toEqual(before);
    expect(after.spec.suspend ?? false).toBe(false);
  });

  it('refuses a service principal (a script with a token) with 403, and writes nothing', async () => {
    const target = targets.reconcile;
    const before = await clusterObjectOf(sim, target);
    const token = mockCredentials.service.header({
      onBehalfOf: mockCredentials.service('external:flux-fleet-scripts'),
      targetPluginId: 'flux-fleet',
    });
    for (const action of ['reconcile', 'suspend', 'resume']) {
      const res = await request(fleet.backend.server)
        .post(`/api/flux-fleet/objects/${target.key}/${action}`)
        .set('Authorization', token)
        .send({});
      bodies.push(res.text);
      expect(res.status).toBe(403);
      const permission = action === 'reconcile' ? 'reconcile' : 'suspend';
      expect(res.body.error.message).toBe(
        `You do not have the permission flux-fleet.object.${permission} on ${target.key}. Actions are for ` +
          `people: the service principal external:flux-fleet-scripts may act only when its access restrictions ` +
          `name flux-fleet.object.${permission} (backend.auth.externalAccess[].accessRestrictions[].permission).`,
      );
    }
    // reading is still allowed
    const read = await request(fleet.backend.server)
      .get(`/api/flux-fleet/objects/${target.key}`)
      .set('Authorization', token);
    expect(read.status).toBe(200);
    const after = await clusterObjectOf(sim, target);
    expect(after.metadata.annotations).toEqual(before.metadata.annotations);
    expect(after.spec.suspend ?? false).toBe(before.spec.suspend ?? false);
  });

  it('says the credentials are read-only where the cluster refuses writes, and keeps reading there', async () => {
    const clusters = async (): Promise<ClusterHealth[]> => (await api('get', '/clusters')).body.items;
    // asked up front with a SelfSubjectAccessReview
    const known = await fleet.waitFor('readOnly on every cluster', async () => {
      const items = await clusters();
      return items.every(c => c.readOnly !== undefined) ? items : undefined;
    });
    expect(Object.fromEntries(known.map(c => [c.name, c.readOnly]))).toEqual({
      [admin[0].name]: false,
      [admin[1].name]: false,
      [readOnly.name]: true,
    });

    const target = targets.readOnly;
    const res = await act(ALICE, 'reconcile', target);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(
      new RegExp(`^the credentials for cluster ${readOnly.name} are read-only: it refused to patch Kustomization ${target.ref.namespace}/${target.ref.name}`),
    );
    // the entity view the card reads says so too, and the cluster's objects are still served
    const view = (await api('get', '/entity/component/default/checkout')).body;
    expect(view.clusters.find((c: ClusterHealth) => c.name === readOnly.name).readOnly).toBe(true);
    const page = await api('get', `/objects?cluster=${readOnly.name}&limit=5`);
    expect(page.status).toBe(200);
    expect(page.body.totalCount).toBeGreaterThan(0);
  });

  it('suspends, refuses to reconcile a suspended object, and resumes', async () => {
    const target = targets.suspend;
    const suspended = await act(ALICE, 'suspend', target);
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({ action: 'suspend', handled: 'yes' });
    // the answer waited for the index: a view refreshed now shows the object suspended
    const detail: FleetObject = (await api('get', `/objects/${target.key}`)).body;
    expect([detail.suspended, detail.state.state]).toEqual([true, 'suspended']);

    const refused = await act(ALICE, 'reconcile', target);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      `Kustomization ${target.ref.namespace}/${target.ref.name} on cluster ${target.ref.cluster} is suspended: resume it first (Flux does not reconcile a suspended object)`,
    );
    expect((await clusterObjectOf(sim, target)).metadata.annotations?.['reconcile.fluxcd.io/requestedAt']).toBe(
      target.state.reconcileRequestedAt,
    );

    const resumed = await act(ALICE, 'resume', target);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ action: 'resume', handled: 'yes' });
    expect((await api('get', `/objects/${target.key}`)).body.suspended).toBe(false);
    expect((await clusterObjectOf(sim, target)).spec.suspend).toBe(false);
  });

  it('says that nothing will handle a reconcile of an object no controller watches', async () => {
    const target = targets.orphan;
    const res = await act(ALICE, 'reconcile', target);
    expect(res.status).toBe(200);
    expect(res.body.handled).toBe('never');
    expect(res.body.message).toContain('no controller watches it');
    // the request is written all the same, as `flux reconcile` would
    expect((await clusterObjectOf(sim, target)).metadata.annotations['reconcile.fluxcd.io/requestedAt']).toBe(
      res.body.requestedAt,
    );
  });

  it('answers 503 naming a cluster that is down, within the request deadline', async () => {
    const target = targets.suspend;
    await sim.setFault(target.ref.cluster, { down: true });
    try {
      const started = Date.now();
      const res = await act(ALICE, 'reconcile', target);
      expect(res.status).toBe(503);
      expect(res.body.error.message).toContain(
        `cluster ${target.ref.cluster} cannot be reached, so nothing was written to Kustomization ${target.ref.namespace}/${target.ref.name}`,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      // the other clusters still take actions
      expect((await act(ALICE, 'reconcile', targets.reconcile)).status).toBe(200);
    } finally {
      await sim.setFault(target.ref.cluster, { down: false });
    }
  });

  it('lets a policy condition reads on ownership too: a reader sees only what her team owns', async () => {
    const page = await api('get', '/objects?limit=1000', CAROL);
    expect(page.status).toBe(200);
    const services = new Set(page.body.items.map((o: FleetObject) => o.service));
    expect([...services].sort()).toEqual(
      ['checkout', targets.helmRelease.service, targets.orphan.service].sort(),
    );
    // an object she may not read does not exist for her, actions included
    const other = (await api('get', `/objects?cluster=${admin[0].name}&kind=Kustomization&q=platform&limit=1`)).body
      .items[0] as FleetObject;
    expect(other.service).not.toBe('checkout');
    expect((await api('get', `/objects/${other.key}`, CAROL)).status).toBe(404);
    expect((await act(CAROL, 'reconcile', other)).status).toBe(404);
  });

  it('refuses callers without credentials, bad input and what a kind does not take', async () => {
    const target = targets.reconcile;
    const anonymous = await request(fleet.backend.server)
      .post(`/api/flux-fleet/objects/${target.key}/reconcile`)
      .set('Authorization', 'Bearer not-a-backstage-token');
    bodies.push(anonymous.text);
    expect(anonymous.status).toBe(401);

    const forced = await act(ALICE, 'reconcile', target, { force: true });
    expect(forced.status).toBe(400);
    expect(forced.body.error.message).toBe(
      `Cannot force a reconcile of ${target.key}: only a HelmRelease takes force`,
    );
    const odd = await act(ALICE, 'suspend', target, { now: true });
    expect(odd.status).toBe(400);
    expect(odd.body.error.message).toContain("unknown request body parameter 'now'");

    const missing = { ...target, key: `${target.ref.cluster}/nowhere/Kustomization/nothing` };
    const notFound = await act(ALICE, 'reconcile', missing);
    expect(notFound.status).toBe(404);
    expect(notFound.body.error.message).toBe(
      `Cluster '${target.ref.cluster}' has no Kustomization nowhere/nothing (as of the index; it may have been deleted)`,
    );
  });

  it('records who did what to which object, and how it ended, for every attempt', () => {
    const records = logs.lines.filter(l => l.parsed.isAuditEvent).map(l => l.parsed);
    for (const attempt of attempts) {
      const [cluster, namespace, kind, name] = attempt.key.split('/');
      const mine = records.filter(
        r =>
          r.eventId === attempt.action &&
          r.actor?.actorId === attempt.user &&
          r.meta?.object === attempt.key,
      );
      expect({ attempt, statuses: mine.map(r => r.status) }).toEqual({
        attempt,
        statuses: expect.arrayContaining(['initiated', attempt.status === 200 ? 'succeeded' : 'failed']),
      });
      expect(mine[0].meta).toMatchObject({ cluster, namespace, kind, name });
      expect(mine[0].plugin).toBe('flux-fleet');
    }
    const outcomes = records.filter(r => r.status === 'failed').map(r => r.meta.outcome);
    expect(new Set(outcomes)).toEqual(
      new Set(['denied', 'refused-by-cluster', 'suspended', 'unreachable', 'invalid', 'not-found']),
    );
    const denied = records.find(r => r.status === 'failed' && r.meta.outcome === 'denied')!;
    expect(denied.actor.actorId).toBe(BOB);
    expect(denied.error.message).toContain('You do not have the permission');
  });

  it('never shows a cluster credential in a response, a log line or an error', () => {
    const secrets = sim.clusters.flatMap(c => [c.adminToken, c.readOnlyToken]);
    const everything = [...bodies, ...logs.lines.map(l => `${l.message} ${l.fields}`)];
    // the check reads something: responses, watch logs and audit records
    expect(bodies.length).toBeGreaterThan(30);
    expect(logs.lines.length).toBeGreaterThan(30);
    const leaks = everything.filter(
      text => secrets.some(s => text.includes(s)) || /PRIVATE KEY|Bearer [A-Za-z0-9]/.test(text),
    );
    expect(leaks).toEqual([]);
  });
});
