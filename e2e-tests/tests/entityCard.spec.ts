import { expect, test } from '@playwright/test';
import { EntityCard } from './entityCard';
import {
  expectedBoundary,
  expectedInstance,
  expectedShard,
  expectedState,
} from './expectedWords';
import {
  objectsOfService,
  readTruth,
  RECONCILER_KINDS,
  TruthObject,
} from './groundTruth';
import { screenshotPath, signIn } from './helpers';

/** How many objects of one cluster the card lists before pointing to the Flux tab. */
const CARD_OBJECTS_PER_CLUSTER = 5;

/**
 * Demo Components (examples/entities.yaml) whose Flux objects the simulator deploys: checkout on every cluster, and
 * two services with a deliberate owner problem (contested, orphan) on one of them.
 */
const SERVICES = ['checkout', 'ranking', 'fulfillment-scheduler'];

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

for (const service of SERVICES) {
  test(`the card of ${service} shows, per cluster, the shard, state and boundary of the ground truth`, async ({
    page,
  }) => {
    const card = new EntityCard(page);
    await card.open(`default/component/${service}`);

    // The simulated fleet churns: compare with the truth of the moment, and read both again until they agree
    // (the card follows a change within a second or two through signals).
    await expect(async () => {
      const truth = objectsOfService(await readTruth(), service);
      expect(
        truth.size,
        `the ground truth deploys ${service} somewhere`,
      ).toBeGreaterThan(0);
      expect(
        (await card.deployClusters()).sort(),
        'the deploy answer has one line per cluster where the service deploys',
      ).toEqual([...truth.keys()].sort());
      expect(
        (await card.clusters()).sort(),
        'one row per cluster where the service deploys',
      ).toEqual([...truth.keys()].sort());

      for (const [cluster, objects] of truth) {
        await expect(
          card.row(cluster).getByTestId(/^flux-fleet-object-/),
          `objects listed in the row of ${cluster}`,
        ).toHaveCount(Math.min(objects.length, CARD_OBJECTS_PER_CLUSTER));
        for (const o of objects.filter(x =>
          RECONCILER_KINDS.includes(x.kind),
        )) {
          await expectCardShows(card, o);
        }
      }
    }).toPass({ timeout: 30_000 });

    if (service === 'checkout') {
      await page.screenshot({
        animations: 'disabled',
        path: screenshotPath('entity-card.png'),
        fullPage: true,
      });
    }
  });
}

async function expectCardShows(card: EntityCard, o: TruthObject) {
  const what = `${o.kind} ${o.namespace}/${o.name} in ${o.cluster}`;
  const shown = await card.read(o);
  expect(shown.instance, `instance of ${what}`).toMatch(
    startsWith(expectedInstance(o)),
  );
  // An owned object's shard is its name alone; orphans and contested objects start with the problem, then advise.
  if (o.owner === 'ok') {
    expect(shown.shard, `shard of ${what}`).toBe(expectedShard(o));
  } else {
    expect(shown.shard, `shard of ${what}`).toMatch(
      startsWith(expectedShard(o)),
    );
  }
  expect(shown.state, `reconcile state of ${what}`).toMatch(
    startsWith(expectedState(o)),
  );
  expect(shown.boundary, `tenancy boundary of ${what}`).toMatch(
    startsWith(expectedBoundary(o)),
  );
}

function startsWith(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
}
