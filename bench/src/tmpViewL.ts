// tmp (not committed): the product at SIZE with churn; sequential entity page views, latencies with wall times
import { randomBytes } from 'node:crypto';
import { writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startSimulator } from './simulator';
import { startProductBackend } from './product/productBackend';
import { componentsYaml, sampleServices } from './product/catalogComponents';
async function freePort(): Promise<number> {
  return new Promise(resolve => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const a = s.address() as any; s.close(() => resolve(a.port)); }); });
}
async function main() {
  const root = process.env.FLUX_FLEET_ROOT!;
  const size = (process.env.SIZE ?? 'M') as any;
  const dir = join(root, '.flux-fleet/bench-tmp'); mkdirSync(dir, { recursive: true });
  const sim = await startSimulator({ label: 'product', root, dir, size, seed: 1, churn: Number(process.env.CHURN ?? 5), tls: true });
  const truth = await sim.truth();
  const services = sampleServices(truth.objects, 100);
  const catalogFile = join(dir, 'components.yaml'); writeFileSync(catalogFile, componentsYaml(services));
  const t0 = Date.now();
  const backend = await startProductBackend({ root, dir, ...(size === 'L' && { maxOldSpaceMiB: 16_384 }),
    nodeFlags: (process.env.BENCH_BACKEND_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    settings: { port: await freePort(), apiToken: randomBytes(24).toString('hex'), kubeconfigPath: sim.kubeconfigPath, clusters: sim.clusters, catalogFile } });
  const at = () => ((Date.now() - t0) / 1000).toFixed(2);
  const syncedMs = await backend.waitSynced(900_000);
  console.log(at(), 'synced', syncedMs, 'rss', Math.round(backend.rssBytes() / 2 ** 20));
  while ((await backend.client.call(`/api/catalog/entities/by-name/component/default/${services[0]}`)).status !== 200) await new Promise(r => setTimeout(r, 500));
  await new Promise(r => setTimeout(r, Number(process.env.WAIT_S ?? 60) * 1000));
  for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round++) {
    const ms: number[] = [];
    console.log(at(), 'views start round', round);
    for (let i = 0; i < 50; i++) {
      const s = services[i % services.length];
      const a = await backend.client.call<any>(`/api/flux-fleet/entity/component/default/${s}`);
      ms.push(a.ms);
      if (process.env.VERBOSE) console.log(at(), 'view', s, a.status, a.ms.toFixed(1), a.body?.objects?.length);
    }
    console.log(at(), 'views end', JSON.stringify(ms.map(x => Math.round(x * 10) / 10)));
    const sorted = [...ms].sort((a, b) => a - b);
    console.log('p50', sorted[25].toFixed(1), 'p90', sorted[45].toFixed(1), 'max', sorted[49].toFixed(1));
    await new Promise(r => setTimeout(r, 5000));
  }
  console.log('HOLD', backend.client.baseUrl, backend.client.token, JSON.stringify(services.slice(0, 100)));
  await new Promise(r => setTimeout(r, Number(process.env.HOLD_S ?? 0) * 1000));
  await backend.stop();
  await sim.stop();
}
main().catch(e => { console.error(e); process.exit(1); });
