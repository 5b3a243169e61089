/*
 * The baseline of the index benchmark: memory that the plain `JSON.parse` of the same list bodies takes when the
 * parsed items are kept, as a naive index would keep them. Lists every Flux kind of every cluster of a kubeconfig
 * page by page (the same page size as the index), keeps each page's items, and prints one JSON line with RSS and
 * heap per object after a full collection and a short settle. Run by `indexBenchmark.ts` in its own process, so
 * the index's figures are not disturbed.
 *
 *   node --expose-gc --require @backstage/cli/config/nodeTransform.cjs bench/listBaseline.ts \
 *     <kubeconfig> <page size> <context>...
 */
import { KubeConfig } from '@kubernetes/client-node';
import { ClusterClient } from '../src/watch/ClusterClient';
import { discoverFluxResources } from '../src/watch/discoverFluxResources';
import { collectionPath } from '../src/watch/WatchedResource';

const [kubeconfigPath, pageSizeText, ...contexts] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;

async function settle() {
  for (let i = 0; i < 3; i++) gc?.();
  await new Promise(r => setTimeout(r, 1000));
  gc?.();
  return process.memoryUsage();
}

async function main() {
  const clients = contexts.map(context => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(kubeconfigPath);
    kubeConfig.setCurrentContext(context);
    return new ClusterClient(context, kubeConfig, 60_000);
  });
  const before = await settle();
  const started = Date.now();
  const kept: unknown[][] = [];
  let objects = 0;
  for (const client of clients) {
    const { resources } = await discoverFluxResources(client);
    for (const resource of resources) {
      let continueToken: string | undefined;
      do {
        const page = await client.getJson<{ items: unknown[]; metadata?: { continue?: string } }>(
          collectionPath(resource),
          { limit: Number(pageSizeText), continue: continueToken },
        );
        kept.push(page.items);
        objects += page.items.length;
        continueToken = page.metadata?.continue || undefined;
      } while (continueToken);
    }
  }
  const listMs = Date.now() - started;
  const after = await settle();
  process.stdout.write(
    `${JSON.stringify({
      objects,
      listMs,
      rssBytesPerObject: Math.round((after.rss - before.rss) / objects),
      heapBytesPerObject: Math.round((after.heapUsed - before.heapUsed) / objects),
    })}\n`,
  );
  // keep the pages alive until measured
  if (kept.length < 0) process.stdout.write(String(kept));
}

main().catch(error => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
