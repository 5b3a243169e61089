import { mockCredentials } from '@backstage/backend-test-utils';
import {
  actionsRegistryServiceFactory,
  actionsServiceFactory,
} from '@backstage/backend-defaults/alpha';
import mcpActionsPlugin from '@backstage/plugin-mcp-actions-backend';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { startFleetSim, type FleetSim, type SimCluster } from '@flux-fleet/fleet-sim';
import {
  FLUX_KIND_PLURAL,
  type CapacityReport,
  type ClusterHealth,
  type EntityView,
  type FleetObject,
  type FleetObjectDetail,
  type Finding,
  type ShardingPlan,
} from '@flux-fleet/plugin-flux-fleet-common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ALICE, BOB, ownershipPolicy, TEAM } from '../__testUtils__/actionFixtures';
import { capturingRootLogger } from '../__testUtils__/capturingRootLogger';
import { FleetBackend, startFleetBackend } from '../__testUtils__/startFleetBackend';

jest.setTimeout(150_000);

const TOOLS = [
  'flux-fleet.explain-flux-object',
  'flux-fleet.get-capacity-verdict',
  'flux-fleet.get-deploy-status',
  'flux-fleet.list-flux-findings',
  'flux-fleet.list-flux-objects',
  'flux-fleet.reconcile-flux-object',
  'flux-fleet.resume-flux-object',
  'flux-fleet.suspend-flux-object',
];

/**
 * Flux Fleet's actions through the MCP server of `@backstage/plugin-mcp-actions-backend`, asked with the official
 * MCP client SDK over HTTP (streamable HTTP transport) on a backend running the real actions registry and actions
 * service, against a simulated fleet: two clusters with the simulator's admin token, one with its read-only token.
 * Every answer is compared with the REST API's answer to the same question.
 */
describe('Flux Fleet over MCP', () => {
  let sim: FleetSim;
  let fleet: FleetBackend;
  let readOnly: SimCluster;
  const logs = capturingRootLogger();
  const clients: Client[] = [];

  async function connect(authorization: string): Promise<Client> {
    const { port } = fleet.backend.server.address() as AddressInfo;
    const transport = new StreamableHTTPClientTransport(
      new URL(`http://localhost:${port}/api/mcp-actions/v1`),
      { requestInit: { headers: { Authorization: authorization } } },
    );
    const client = new Client({ name: 'flux-fleet-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  /** Calls a tool; its structured answer, or the error text when the tool answered isError. */
  async function call(client: Client, name: string, args: Record<string, unknown>) {
    const result: any = await client.callTool({ name: `flux-fleet.${name}`, arguments: args });
    if (result.isError) return { error: result.content[0].text as string };
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    return { output: result.structuredContent as any };
  }

  async function rest<T = any>(path: string, user = ALICE): Promise<T> {
    const res = await request(fleet.backend.server)
      .get(`/api/flux-fleet${path}`)
      .set('Authorization', mockCredentials.user.header(user));
    expect(res.status).toBe(200);
    return res.body;
  }

  /** The object as the simulated cluster serves it, read with the admin token (as kubectl would). */
  async function clusterObject(o: FleetObject): Promise<any> {
    const cluster = sim.clusters.find(c => c.name === o.ref.cluster)!;
    const url = `${cluster.server}/apis/${o.apiVersion}/namespaces/${o.ref.namespace}/${FLUX_KIND_PLURAL[o.ref.kind]}/${o.ref.name}`;
    const res = await fetch(url, { headers: { Authorization: `Bearer ${cluster.adminToken}` } });
    expect(res.status).toBe(200);
    return res.json();
  }

  /** A checkout Kustomization reconciled by a running controller on a cluster. */
  async function checkoutKustomization(onCluster: (c: string) => boolean): Promise<FleetObject> {
    const page = await rest(`/objects?service=checkout&kind=Kustomization&owner=ok&limit=1000`);
    const found = page.items.find((o: FleetObject) => onCluster(o.ref.cluster) && !o.suspended);
    if (!found) throw new Error('fleet S seed 1 has no such checkout Kustomization');
    return found;
  }

  const refOf = (o: FleetObject) => ({ ...o.ref });

  beforeAll(async () => {
    sim = await startFleetSim({ size: 'S', seed: 1, port: 0 });
    readOnly = sim.clusters[2];
    fleet = await startFleetBackend({
      runningSim: sim,
      fluxFleet: {
        clusters: sim.clusters.map(c => ({
          name: c.name,
          url: c.server,
          serviceAccountToken: c === readOnly ? c.readOnlyToken : c.adminToken,
        })),
      },
      config: { backend: { actions: { pluginSources: ['flux-fleet'] } } },
      features: [
        logs.factory,
        // the real registry and actions service: actions are listed and invoked over HTTP with plugin tokens
        actionsRegistryServiceFactory,
        actionsServiceFactory,
        mcpActionsPlugin,
        catalogServiceMock.factory({
          entities: [
            {
              apiVersion: 'backstage.io/v1alpha1',
              kind: 'Component',
              metadata: {
                name: 'checkout',
                namespace: 'default',
                annotations: { 'backstage.io/kubernetes-id': 'checkout' },
              },
              spec: { type: 'service', lifecycle: 'production', owner: TEAM },
            },
          ],
        }),
        // the app's example policy: everybody reads, owners act (Alice's team owns checkout; Bob owns nothing)
        ownershipPolicy().factory,
      ],
    });
    await fleet.waitFor('every cluster synced', async () => {
      const { items } = await fleet.get('/clusters');
      return items.every((c: ClusterHealth) => c.synced && c.readOnly !== undefined) ? true : undefined;
      // a shared test machine may take a minute to list three clusters
    }, 90_000);
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
    await fleet?.stop();
    await sim?.close();
  });

  it('lists the Flux Fleet tools with their schemas and truthful hints', async () => {
    const client = await connect(mockCredentials.user.header(ALICE));
    const { tools } = await client.listTools();
    const ours = tools.filter(t => t.name.startsWith('flux-fleet.'));
    expect(ours.map(t => t.name).sort()).toEqual(TOOLS);
    const hints = Object.fromEntries(
      ours.map(t => [t.name.slice('flux-fleet.'.length), t.annotations]),
    );
    for (const read of ['get-deploy-status', 'explain-flux-object', 'list-flux-findings', 'list-flux-objects', 'get-capacity-verdict']) {
      expect(hints[read]).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    }
    expect(hints['reconcile-flux-object']).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(hints['suspend-flux-object']).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(hints['resume-flux-object']).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    for (const tool of ours) {
      expect(tool.description!.length).toBeGreaterThan(100);
      expect(tool.inputSchema.type).toBe('object');
    }
    const explain = ours.find(t => t.name === 'flux-fleet.explain-flux-object')!;
    expect(explain.inputSchema.required).toEqual(['cluster', 'namespace', 'kind', 'name']);
  });

  it("answers a service's deploy status as the entity API does, per cluster", async () => {
    const client = await connect(mockCredentials.user.header(BOB));
    const args = { entityRef: 'checkout', limit: 100 };
    const { output } = await call(client, 'get-deploy-status', args);
    const view: EntityView = await rest('/entity/component/default/checkout', BOB);
    if (process.env.FLUX_FLEET_MCP_RECORD) {
      writeFileSync(
        process.env.FLUX_FLEET_MCP_RECORD,
        JSON.stringify({ request: { name: 'flux-fleet.get-deploy-status', arguments: args }, answer: output }, null, 2),
      );
    }
    expect(view.objects.length).toBeGreaterThan(3);
    expect(output.entityRef).toBe('component:default/checkout');
    expect(output.objectCount).toBe(view.objects.length);
    const listed = output.clusters.flatMap((c: any) => c.objects);
    expect(listed).toHaveLength(view.objects.length);
    const byKey = new Map(view.objects.map(o => [o.key, o]));
    for (const line of listed) {
      const o = byKey.get(line.key)!;
      expect(line).toMatchObject({ cluster: o.ref.cluster, state: o.state.state, revision: o.state.revision });
      expect(line.command).toContain(`--context ${o.ref.cluster}`);
    }
    const clusters = [...new Set(view.objects.map(o => o.ref.cluster))].sort();
    expect(output.clusters.map((c: any) => c.cluster)).toEqual(clusters);
    for (const c of output.clusters) {
      const here = view.objects.filter(o => o.ref.cluster === c.cluster);
      expect(c.deployed).toBe(here.every(o => o.state.state === 'ready'));
    }
    const deployed = output.clusters.filter((c: any) => c.deployed).length;
    expect(output.summary).toContain(`deployed (every Flux object ready) on ${deployed} of ${clusters.length} clusters`);
    // a blocked object's line carries its root cause, and the summary says it
    // fleet S seed 1 blocks checkout's HelmRelease on prod-ap-southeast-1 behind a stalled cart-api
    const blocked = listed.find((l: any) => l.state === 'blocked');
    expect(blocked).toBeDefined();
    {
      const detail: FleetObjectDetail = await rest(`/objects/${blocked.key}`, BOB);
      const { cluster, namespace, kind, name } = detail.rootCause!.ref;
      expect(blocked.rootCause).toMatchObject({ key: `${cluster}/${namespace}/${kind}/${name}`, state: detail.rootCause!.state });
      expect(output.summary).toContain(`root cause ${kind} ${namespace}/${name} ${detail.rootCause!.state}`);
    }
    // sized for a model: limit 2 lists two objects, not-ready ones first, and still counts them all
    const small = (await call(client, 'get-deploy-status', { entityRef: 'component:default/checkout', limit: 2 })).output;
    expect(small.shownObjects).toBe(2);
    expect(small.objectCount).toBe(view.objects.length);
    expect(small.clusters.flatMap((c: any) => c.objects)).toHaveLength(2);
    const unknown = await call(client, 'get-deploy-status', { entityRef: 'component:default/nothing-here' });
    expect(unknown.error).toBe('NotFoundError: The catalog has no entity component:default/nothing-here');
  });

  it('explains one object as its detail API does, the root cause of a blocked one included', async () => {
    const client = await connect(mockCredentials.user.header(BOB));
    const blocked = (await rest('/objects?state=blocked&kind=Kustomization,HelmRelease&limit=1')).items[0] as FleetObject;
    const failed = (await rest('/objects?state=failed&kind=Kustomization,HelmRelease&limit=1')).items[0] as FleetObject;
    expect([blocked?.state.state, failed?.state.state]).toEqual(['blocked', 'failed']);
    const explained = new Map<string, any>();
    for (const o of [blocked, failed]) {
      const detail: FleetObjectDetail = await rest(`/objects/${o.key}`, BOB);
      const { output } = await call(client, 'explain-flux-object', refOf(o));
      expect(output).toMatchObject({
        key: detail.key,
        state: { state: detail.state.state, reason: detail.state.reason, revision: detail.state.revision },
        owner: { status: detail.owner.status, instance: detail.owner.instance, shard: detail.owner.shard },
        boundary: { tenant: detail.boundary.tenant, enforcement: detail.boundary.enforcement },
        service: detail.service,
      });
      expect(output.findings.map((f: any) => f.type)).toEqual(detail.findingDetails.map(f => f.type));
      expect(output.summary).toContain(`${o.ref.kind} ${o.ref.namespace}/${o.ref.name} on ${o.ref.cluster} is ${detail.state.state}`);
      expect(output.commands.map((c: any) => c.command)).toContain(
        `flux get ${o.ref.kind === 'HelmRelease' ? 'helmrelease' : 'kustomization'} ${o.ref.name} -n ${o.ref.namespace} --context ${o.ref.cluster}`,
      );
      const root = detail.rootCause?.ref;
      expect(output.rootCause && { key: output.rootCause.key, state: output.rootCause.state }).toEqual(
        root && { key: `${root.cluster}/${root.namespace}/${root.kind}/${root.name}`, state: detail.rootCause!.state },
      );
      explained.set(o.key, output);
    }
    // the blocked one names its root cause, in its answer and in its summary
    const root = (await rest<FleetObjectDetail>(`/objects/${blocked.key}`)).rootCause!.ref;
    expect(explained.get(blocked.key).summary).toContain(
      `Root cause through dependsOn: ${root.cluster}/${root.namespace}/${root.kind}/${root.name}`,
    );
  });

  it('lists findings with the counts the findings API gives, filtered by severity too', async () => {
    const client = await connect(mockCredentials.user.header(BOB));
    const all: Finding[] = (await rest('/findings', BOB)).items;
    expect(all.length).toBeGreaterThan(0);
    const { output } = await call(client, 'list-flux-findings', { limit: 5 });
    expect(output.totalCount).toBe(all.length);
    expect(output.items).toHaveLength(Math.min(5, all.length));
    const countsByType: Record<string, number> = {};
    for (const f of all) countsByType[f.type] = (countsByType[f.type] ?? 0) + 1;
    expect(output.countsByType).toEqual(countsByType);
    const cluster = all[0].object?.cluster ?? all[0].shard!.cluster;
    const type = all[0].type;
    const onCluster: Finding[] = (await rest(`/findings?cluster=${cluster}&type=${type}`, BOB)).items;
    const filtered = (await call(client, 'list-flux-findings', { cluster, type: [type], severity: [all[0].severity] })).output;
    expect(filtered.totalCount).toBe(onCluster.length);
    const other = (await call(client, 'list-flux-findings', { cluster, type: [type], severity: ['info', 'warning', 'error'].filter(s => s !== all[0].severity) })).output;
    expect(other.totalCount).toBe(0);
    expect(other.summary).toBe(`No findings on ${cluster} match.`);
  });

  it('answers the capacity verdict as GET /capacity does, with the plan of an instance that is not ok', async () => {
    const client = await connect(mockCredentials.user.header(BOB));
    const report: CapacityReport = await rest('/capacity', BOB);
    // the worst instance of the fleet: its plan is the one asked for
    const rank = { ok: 0, 'near-capacity': 1, 'over-capacity': 2 } as const;
    const worst = [...report.items].sort((a, b) => rank[b.verdict] - rank[a.verdict])[0];
    const { cluster } = worst;
    // the figures and reasons move while the first collection rounds land (and for up to a second after /clusters
    // says synced, the capacity reasons still say the first sync is under way): the MCP answer is compared with
    // the REST answer read just before it, once the one read just after it agrees
    const answers = async () => {
      const answer: CapacityReport = await rest(`/capacity?cluster=${cluster}`, BOB);
      const verdict = answer.items.find(i => i.instance === worst.instance)?.verdict;
      // the plan only of an instance that is not ok
      const plan: ShardingPlan | undefined =
        verdict === 'ok' ? undefined : await rest(`/capacity/plan?cluster=${cluster}&instance=${worst.instance}`, BOB);
      return { report: answer, plan, same: JSON.stringify([answer.items, plan?.summary, plan?.commands]) };
    };
    const { expected, plan, output } = await fleet.waitFor('an unchanging capacity answer around an MCP call', async () => {
      const before = await answers();
      const mcp = (await call(client, 'get-capacity-verdict', { cluster, plan: true })).output;
      const after = await answers();
      return before.same === after.same ? { expected: before.report, plan: before.plan, output: mcp } : undefined;
    }, 60_000);
    expect(output.cluster).toBe(cluster);
    expect(output.instances.map((i: any) => [i.instance, i.verdict, i.answer, i.advice, i.source])).toEqual(
      expected.items.map(i => [i.instance, i.verdict, i.answer, i.advice, i.source]),
    );
    expect(output.summary).toBe(expected.items.map(i => `${i.instance}: ${i.answer}`).join(' '));
    const mine = output.instances.find((i: any) => i.instance === worst.instance);
    const theirs = expected.items.find(i => i.instance === worst.instance)!;
    expect(
      mine.controllers.map((c: any) => [c.controller, c.verdict, c.source, c.figures.utilisation, c.reasons.map((r: any) => r.code)]),
    ).toEqual(
      theirs.controllers.map(c => [c.controller, c.verdict, c.source, c.figures.utilisation, c.reasons.map(r => r.code)]),
    );
    // every figure says where it comes from
    for (const c of mine.controllers) {
      for (const figure of Object.values(c.figures) as any[]) {
        expect(['measured', 'configured', 'estimated']).toContain(figure.source);
      }
    }
    const planShape = (p: { summary: string; commands: string[] }, count: number) => ({ summary: p.summary, count, commands: p.commands });
    expect(mine.plan && planShape(mine.plan, mine.plan.commandCount)).toEqual(
      plan && planShape({ summary: plan.summary, commands: plan.commands.slice(0, 20) }, plan.commands.length),
    );
    // one instance, and a cluster Flux Fleet does not watch: the API's own words
    const one = (await call(client, 'get-capacity-verdict', { cluster, instance: worst.instance })).output;
    expect(one.instances.map((i: any) => i.instance)).toEqual([worst.instance]);
    expect(one.instances[0].plan).toBeUndefined();
    const unknown = await call(client, 'get-capacity-verdict', { cluster: 'no-such-cluster' });
    expect(unknown.error).toMatch(/watches no cluster named 'no-such-cluster'/);
  });

  it("lists objects with the objects API's filters, page by page", async () => {
    const client = await connect(mockCredentials.user.header(BOB));
    const query = 'kind=Kustomization&state=ready&sort=name&limit=3';
    const first = await rest(`/objects?${query}`, BOB);
    const args = { kind: ['Kustomization'], state: ['ready'], sort: 'name', limit: 3 };
    const { output } = await call(client, 'list-flux-objects', args);
    expect(output.totalCount).toBe(first.totalCount);
    expect(output.items.map((o: any) => o.key)).toEqual(first.items.map((o: FleetObject) => o.key));
    expect(output.nextCursor).toBe(first.nextCursor);
    const second = await rest(`/objects?${query}&cursor=${encodeURIComponent(first.nextCursor)}`, BOB);
    const next = (await call(client, 'list-flux-objects', { ...args, cursor: output.nextCursor })).output;
    expect(next.items.map((o: any) => o.key)).toEqual(second.items.map((o: FleetObject) => o.key));
    const bad = await call(client, 'list-flux-objects', { state: ['broken'] });
    expect(bad.error).toMatch(/^InputError: Invalid input to action "flux-fleet:list-flux-objects"/);
  });

  it("refuses a non-owner's reconcile, suspend and resume with the API's permission error, and writes nothing", async () => {
    const target = await checkoutKustomization(c => c !== readOnly.name);
    const before = await clusterObject(target);
    const client = await connect(mockCredentials.user.header(BOB));
    for (const action of ['reconcile', 'suspend', 'resume']) {
      const { error } = await call(client, `${action}-flux-object`, refOf(target));
      const permission = action === 'reconcile' ? 'reconcile' : 'suspend';
      expect(error).toBe(`NotAllowedError: You do not have the permission flux-fleet.object.${permission} on ${target.key}.`);
    }
    const after = await clusterObject(target);
    expect(after.metadata.annotations).toEqual(before.metadata.annotations);
    expect(after.spec.suspend).toEqual(before.spec.suspend);
    // the REST route audited Bob himself, not a plugin: the on-behalf-of token kept the user principal
    const denied = logs.lines
      .map(l => l.parsed)
      .filter(r => r.isAuditEvent && r.eventId === 'reconcile' && r.status === 'failed' && r.meta?.object === target.key);
    expect(denied.map(r => [r.actor?.actorId, r.meta.outcome])).toContainEqual([BOB, 'denied']);
  });

  it('refuses a script with a service token: actions are for people', async () => {
    const target = await checkoutKustomization(c => c !== readOnly.name);
    const before = await clusterObject(target);
    const client = await connect(mockCredentials.service.header());
    const { error } = await call(client, 'reconcile-flux-object', refOf(target));
    expect(error).toMatch(/^NotAllowedError: You do not have the permission flux-fleet.object.reconcile on .* Actions are for people/);
    expect((await clusterObject(target)).metadata.annotations).toEqual(before.metadata.annotations);
    // reading stays allowed
    expect((await call(client, 'list-flux-objects', { limit: 1 })).output.totalCount).toBeGreaterThan(0);
  });

  it("lets an owner reconcile, suspend and resume, and the cluster shows each", async () => {
    const target = await checkoutKustomization(c => c !== readOnly.name);
    const client = await connect(mockCredentials.user.header(ALICE));
    const reconciled = (await call(client, 'reconcile-flux-object', refOf(target))).output;
    expect(reconciled).toMatchObject({ key: target.key, action: 'reconcile', handled: 'pending' });
    const live = await clusterObject(target);
    expect(live.metadata.annotations['reconcile.fluxcd.io/requestedAt']).toBe(reconciled.requestedAt);

    const suspended = (await call(client, 'suspend-flux-object', refOf(target))).output;
    expect(suspended).toMatchObject({ key: target.key, action: 'suspend' });
    expect((await clusterObject(target)).spec.suspend).toBe(true);
    const resumed = (await call(client, 'resume-flux-object', refOf(target))).output;
    expect(resumed).toMatchObject({ key: target.key, action: 'resume' });
    expect((await clusterObject(target)).spec.suspend ?? false).toBe(false);
  });

  it("answers the API's read-only refusal on a cluster whose credentials cannot write", async () => {
    const target = await checkoutKustomization(c => c === readOnly.name);
    const before = await clusterObject(target);
    const client = await connect(mockCredentials.user.header(ALICE));
    const { error } = await call(client, 'reconcile-flux-object', refOf(target));
    const res = await request(fleet.backend.server)
      .post(`/api/flux-fleet/objects/${target.key}/reconcile`)
      .set('Authorization', mockCredentials.user.header(ALICE))
      .send({});
    expect(res.status).toBe(403);
    expect(error).toBe(`NotAllowedError: ${res.body.error.message}`);
    expect((await clusterObject(target)).metadata.annotations).toEqual(before.metadata.annotations);
  });
});
