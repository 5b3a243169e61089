import { expect, test } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stateDir } from './fleetState';
import { objectKey, readTruth, TruthObject } from './groundTruth';
import { guestToken } from './helpers';
import { kubectl } from './kubectl';

/**
 * An assistant's view of the running product: the official MCP client SDK against `/api/mcp-actions/v1` of
 * packages/backend, with the guest's user token from the real auth backend (the token the app gets after "Enter").
 * The guest is a member of group:default/platform, which owns checkout; invoicing-service belongs to
 * group:default/billing (examples/entities.yaml, the demo permission policy).
 */

const baseURL = process.env.PLAYWRIGHT_BASE_URL ?? 'http://localhost:7007';

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'flux-fleet-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseURL}/api/mcp-actions/v1`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

async function reconcilableKustomization(service: string): Promise<TruthObject> {
  const truth = await readTruth();
  const o = truth.objects.find(
    x => x.service === service && x.kind === 'Kustomization' && x.owner === 'ok' && x.state !== 'suspended',
  );
  if (!o) throw new Error(`the ground truth has no reconcilable Kustomization of ${service}`);
  return o;
}

async function liveAnnotations(o: TruthObject): Promise<Record<string, string>> {
  const live = JSON.parse(
    await kubectl(o.cluster, 'get', 'kustomizations.kustomize.toolkit.fluxcd.io', '-n', o.namespace, o.name, '-o', 'json'),
  );
  return live.metadata.annotations ?? {};
}

const refOf = (o: TruthObject) => ({ cluster: o.cluster, namespace: o.namespace, kind: o.kind, name: o.name });

test("an assistant with the guest's token lists Flux Fleet's tools and gets checkout's deploy status as the API gives it", async () => {
  const token = await guestToken();
  const client = await connect(token);
  try {
    const names = (await client.listTools()).tools.map(t => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'flux-fleet.get-deploy-status',
        'flux-fleet.explain-flux-object',
        'flux-fleet.list-flux-findings',
        'flux-fleet.list-flux-objects',
        'flux-fleet.get-capacity-verdict',
        'flux-fleet.reconcile-flux-object',
        'flux-fleet.suspend-flux-object',
        'flux-fleet.resume-flux-object',
      ]),
    );
    const result: any = await client.callTool({
      name: 'flux-fleet.get-deploy-status',
      arguments: { entityRef: 'component:default/checkout', limit: 100 },
    });
    expect(result.isError ?? false).toBe(false);
    const answer = result.structuredContent;
    const view = await (
      await fetch(`${baseURL}/api/flux-fleet/entity/component/default/checkout`, {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).json();
    const lines = answer.clusters.flatMap((c: any) => c.objects);
    expect(lines.map((l: any) => `${l.key} ${l.state}`).sort()).toEqual(
      view.objects.map((o: any) => `${o.key} ${o.state.state}`).sort(),
    );
    expect(answer.summary).toMatch(/^component:default\/checkout is deployed \(every Flux object ready\) on \d+ of \d+ clusters\./);
  } finally {
    await client.close();
  }
});

test("an assistant asks whether the demo's over-capacity Flux installation should shard, and gets GET /capacity's answer", async () => {
  const token = await guestToken();
  const client = await connect(token);
  const api = async (path: string) =>
    (await fetch(`${baseURL}/api/flux-fleet${path}`, { headers: { Authorization: `Bearer ${token}` } })).json();
  try {
    const truth = await readTruth();
    // the simulator's own load model names the over-capacity controller's cluster (the demo: staging-us-east-1)
    const over = truth.controllers.find(c => c.verdict === 'over-capacity');
    if (!over) throw new Error('the ground truth has no over-capacity controller');
    const result: any = await client.callTool({
      name: 'flux-fleet.get-capacity-verdict',
      arguments: { cluster: over.cluster, instance: over.namespace, plan: true },
    });
    expect(result.isError ?? false).toBe(false);
    const answer = result.structuredContent;
    const report = await api(`/capacity?cluster=${over.cluster}&instance=${over.namespace}`);
    expect(answer.instances.map((i: any) => [i.instance, i.verdict, i.answer])).toEqual(
      report.items.map((i: any) => [i.instance, i.verdict, i.answer]),
    );
    // before the first scrape round the verdict is the interval estimate's, which may be ok: no plan then
    const plan =
      report.items[0].verdict === 'ok'
        ? undefined
        : await api(`/capacity/plan?cluster=${over.cluster}&instance=${over.namespace}`);
    const mine = answer.instances[0].plan;
    expect(mine && [mine.summary, mine.commandCount]).toEqual(plan && [plan.summary, plan.commands.length]);
  } finally {
    await client.close();
  }
});

test('the guest reconciles checkout through MCP as its owner, and is refused invoicing-service with nothing written', async () => {
  const client = await connect(await guestToken());
  try {
    const owned = await reconcilableKustomization('checkout');
    const done: any = await client.callTool({ name: 'flux-fleet.reconcile-flux-object', arguments: refOf(owned) });
    expect(done.isError ?? false).toBe(false);
    expect(done.structuredContent).toMatchObject({ key: objectKey(owned), action: 'reconcile' });
    expect((await liveAnnotations(owned))['reconcile.fluxcd.io/requestedAt']).toBe(done.structuredContent.requestedAt);

    const other = await reconcilableKustomization('invoicing-service');
    const before = await liveAnnotations(other);
    const refused: any = await client.callTool({ name: 'flux-fleet.reconcile-flux-object', arguments: refOf(other) });
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toBe(
      `NotAllowedError: You do not have the permission flux-fleet.object.reconcile on ${objectKey(other)}.`,
    );
    expect(await liveAnnotations(other)).toEqual(before);

    // Flux Fleet's own audit records name the guest, not a plugin: the on-behalf-of tokens kept the user principal
    const audit = readFileSync(join(stateDir(), 'backend.log'), 'utf8')
      .split('\n')
      .filter(l => l.includes('flux-fleet.reconcile') && l.includes('"actorId":"user:default/guest"'));
    expect(audit.some(l => l.includes(`"object":"${objectKey(owned)}"`) && l.includes('succeeded'))).toBe(true);
    expect(audit.some(l => l.includes(`"object":"${objectKey(other)}"`) && l.includes('failed'))).toBe(true);
  } finally {
    await client.close();
  }
});
