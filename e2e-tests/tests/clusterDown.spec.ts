import { expect, test } from '@playwright/test';
import { EntityCard } from './entityCard';
import { expectedState, shownStateWords } from './expectedWords';
import { objectsOfService, readTruth } from './groundTruth';
import { screenshotPath, signIn } from './helpers';
import { setFaults } from './simAdmin';

// The backend calls a cluster unreachable after its requests have failed for 15 s (watch.unreachableAfterSeconds)
// and probes quiet clusters every 10 s; once the cluster is back, its watches retry with a back-off of up to 30 s.
const UNREACHABLE_WITHIN_MS = 60_000;
const BACK_WITHIN_MS = 90_000;

test('a cluster that goes down shows as unreachable with stale rows, while the other clusters stay as they were', async ({
  page,
}) => {
  test.setTimeout(UNREACHABLE_WITHIN_MS + BACK_WITHIN_MS + 30_000);
  const service = 'checkout';
  const byCluster = objectsOfService(await readTruth(), service);
  const clusters = [...byCluster.keys()].sort();
  expect(
    clusters.length,
    `${service} deploys to several clusters in the ground truth`,
  ).toBeGreaterThan(1);
  const down = clusters[0];
  const others = clusters.slice(1);
  await signIn(page);
  const card = new EntityCard(page);
  const objectsOf = (cluster: string) =>
    card.row(cluster).getByTestId(/^flux-fleet-object-/);

  await card.open(`default/component/${service}`);
  await expect(card.rows()).toHaveCount(clusters.length);
  await expect(page.getByTestId('flux-fleet-stale')).toHaveCount(0);

  try {
    await setFaults(down, { down: true });
    // What the card shows of the cluster once it is down: its objects and their states' words. Read after the
    // fault, not before: the fleet churns, and a change the cluster sent just before it went down is its last
    // known state (a run read "Ready" before the fault and the card rightly kept the "Progressing" that came 1 s
    // later). The wait covers a change already on its way to the page when the cluster's connections closed.
    await page.waitForTimeout(2_000);
    const lastKnown = new Map<string, string>();
    for (const o of byCluster.get(down)!) {
      if ((await card.object(o).count()) === 0) continue;
      lastKnown.set(
        `${o.kind}/${o.namespace}/${o.name}`,
        shownStateWords((await card.read(o)).state) ?? '',
      );
    }
    expect(lastKnown.size, `objects shown for ${down}`).toBeGreaterThan(0);

    await expect(
      page.getByTestId(`flux-fleet-cluster-notice-${down}`),
    ).toContainText(`Cluster ${down} cannot be reached`, {
      timeout: UNREACHABLE_WITHIN_MS,
    });
    // Every object of the cluster that is down keeps its row, with its last known state, marked stale.
    await expect(objectsOf(down)).toHaveCount(lastKnown.size);
    await expect(card.row(down).getByTestId('flux-fleet-stale')).toHaveCount(
      lastKnown.size,
    );
    for (const o of byCluster.get(down)!) {
      const before = lastKnown.get(`${o.kind}/${o.namespace}/${o.name}`);
      if (before === undefined) continue;
      await expect(card.object(o).getByTestId('flux-fleet-state')).toHaveText(
        new RegExp(`^${before}`),
      );
    }
    // The other clusters' rows are untouched: same objects, no stale marker, no notice.
    for (const cluster of others) {
      await expect(
        page.getByTestId(`flux-fleet-cluster-notice-${cluster}`),
      ).toHaveCount(0);
      await expect(
        card.row(cluster).getByTestId('flux-fleet-stale'),
      ).toHaveCount(0);
      await expect(objectsOf(cluster)).toHaveCount(
        Math.min(byCluster.get(cluster)!.length, 5),
      );
    }
    await page.screenshot({
      animations: 'disabled',
      path: screenshotPath('entity-card-cluster-down.png'),
      fullPage: true,
    });
  } finally {
    await setFaults(down, { down: false });
  }

  // Back: the notice and the stale markers go, and the rows show the truth again.
  await expect(
    page.getByTestId(`flux-fleet-cluster-notice-${down}`),
  ).toHaveCount(0, {
    timeout: BACK_WITHIN_MS,
  });
  await expect(page.getByTestId('flux-fleet-stale')).toHaveCount(0);
  await expect(async () => {
    for (const o of objectsOfService(await readTruth(), service).get(down)!) {
      if ((await card.object(o).count()) === 0) continue;
      expect((await card.read(o)).state).toMatch(
        new RegExp(`^${expectedState(o)}`),
      );
    }
  }).toPass({ timeout: 20_000 });
});
