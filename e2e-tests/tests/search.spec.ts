import { expect, test } from '@playwright/test';
import { readTruth } from './groundTruth';
import { screenshotPath, signIn } from './helpers';
import { SearchPage } from './searchPage';

// Flux Fleet's entities reach the search index on the catalog collator's schedule (every 10 s in the end-to-end
// stack, app-config.e2e.yaml; every 2 minutes by default): a fresh stack may need a moment before they are found.
const INDEXED_WITHIN_MS = 60_000;

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("search finds a shard's entity by the shard's name", async ({ page }) => {
  // The truth's shards (other than the unsharded main), with every cluster and instance that has one by that name.
  const truth = await readTruth();
  const shards = new Map<string, Set<string>>();
  for (const o of truth.objects) {
    if (o.owner !== 'ok' || !o.shard || o.shard === 'main' || !o.instance)
      continue;
    shards.set(
      o.shard,
      (shards.get(o.shard) ?? new Set()).add(`${o.cluster}|${o.instance}`),
    );
  }
  expect(shards.size, 'the simulated fleet has shards').toBeGreaterThan(0);
  // The shard name shared by most instances: the search must find each of them.
  const [shard, places] = [...shards].sort(
    (a, b) => b[1].size - a[1].size || a[0].localeCompare(b[0]),
  )[0];

  const search = new SearchPage(page);
  await expect(async () => {
    await search.search(shard);
    for (const place of places) {
      const [cluster, instance] = place.split('|');
      await expect(
        search.fluxResults([
          'Kind: flux-shard',
          `Cluster: ${cluster}`,
          `Instance: ${instance}`,
          `Shard: ${shard}`,
        ]),
        `the entity of shard ${shard} of ${instance} in ${cluster} on the first page of results`,
      ).toHaveCount(1, { timeout: 5_000 });
    }
  }).toPass({ timeout: INDEXED_WITHIN_MS });
  await page.screenshot({ animations: 'disabled', path: screenshotPath('search-shard.png') });
});

test("search finds a service's Kustomizations by the service's name", async ({
  page,
}) => {
  const service = 'checkout';
  const truth = await readTruth();
  const kustomizations = truth.objects.filter(
    o => o.service === service && o.kind === 'Kustomization',
  );
  expect(
    kustomizations.length,
    `the simulated fleet deploys ${service} with Kustomizations`,
  ).toBeGreaterThan(0);
  // The title starts with the object's name (not a longer name that begins with it, such as checkout-web).
  const title = new RegExp(`^${service}(?![\\w-])`);

  const search = new SearchPage(page);
  const wanted = kustomizations.map(o => `${o.cluster}|${o.namespace}`);
  await expect(async () => {
    await search.search(service);
    await expect(search.fluxResults([], /./).first()).toBeVisible({
      timeout: 5_000,
    });
    // Read every page of results, as a person would when the first does not show them all.
    let missing = [...wanted];
    let pages = 0;
    do {
      pages += 1;
      const stillMissing: string[] = [];
      for (const key of missing) {
        const [cluster, namespace] = key.split('|');
        const found = search.fluxResults(
          [
            'Kind: Kustomization',
            `Cluster: ${cluster}`,
            `Namespace: ${namespace}`,
          ],
          title,
        );
        if ((await found.count()) === 0) stillMissing.push(key);
        else await found.first().scrollIntoViewIfNeeded();
      }
      missing = stillMissing;
    } while (missing.length > 0 && pages < 10 && (await search.nextPage()));
    expect(
      missing,
      `Kustomizations of ${service} (cluster|namespace) not found in ${pages} pages of results`,
    ).toEqual([]);
  }).toPass({ timeout: INDEXED_WITHIN_MS });
  await page.screenshot({ animations: 'disabled', path: screenshotPath('search-service.png') });
});
