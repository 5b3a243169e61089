import { expect, test } from '@playwright/test';
import {
  ENFORCEMENT_WORDS,
  expectedShard,
  expectedState,
} from './expectedWords';
import { objectKey, objectsOfService, readTruth } from './groundTruth';
import { screenshotPath, signIn } from './helpers';

test("the Flux tab lists every Flux object of a service, and an object's detail says who reconciles it", async ({
  page,
}) => {
  const service = 'checkout';
  await signIn(page);
  await page.goto(`/catalog/default/component/${service}/flux-fleet`);
  const table = page.getByTestId('flux-fleet-objects');
  await expect(table).toBeVisible();

  const objects = [
    ...objectsOfService(await readTruth(), service).values(),
  ].flat();
  await expect(
    page.getByRole('heading', {
      name: new RegExp(`^Flux objects of ${service} `),
    }),
  ).toHaveText(
    `Flux objects of ${service} (${objects.length} of ${objects.length})`,
  );
  for (const o of objects) {
    await expect(
      table.getByRole('button', {
        name: `Details of ${o.kind} ${o.namespace}/${o.name} in ${o.cluster}`,
        exact: true,
      }),
      `a row for ${objectKey(o)}`,
    ).toHaveCount(1);
  }

  // The detail of a Kustomization on a shard other than main when there is one: the owner is the interesting part.
  const target =
    objects.find(o => o.kind === 'Kustomization' && o.shard !== 'main') ??
    objects.find(o => o.kind === 'Kustomization')!;
  await table
    .getByRole('button', {
      name: `Details of ${target.kind} ${target.namespace}/${target.name} in ${target.cluster}`,
      exact: true,
    })
    .click();
  const drawer = page.getByRole('dialog', {
    name: `${target.kind} ${target.namespace}/${target.name}`,
  });
  await expect(drawer).toBeVisible();
  await expect(drawer).toContainText(`Cluster ${target.cluster}`);
  const reconciledBy = drawer.getByRole('region', { name: 'Reconciled by' });
  await expect(reconciledBy).toContainText(`Instance${target.instance ?? '—'}`);
  await expect(reconciledBy.getByTestId('flux-fleet-shard')).toHaveText(
    new RegExp(`^${expectedShard(target)}`),
  );
  await expect(
    drawer
      .getByRole('region', { name: 'Tenancy boundary' })
      .getByTestId('flux-fleet-boundary'),
  ).toHaveText(
    new RegExp(
      `^${ENFORCEMENT_WORDS[target.boundary]} · tenant ${
        target.tenant ?? 'none'
      }`,
    ),
  );
  await expect(async () => {
    const now = (await readTruth()).objects.find(
      o => objectKey(o) === objectKey(target),
    )!;
    await expect(
      drawer
        .getByRole('region', { name: 'State' })
        .getByTestId('flux-fleet-state'),
    ).toHaveText(new RegExp(`^${expectedState(now)}`), { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(drawer.getByTestId('flux-fleet-cli')).toContainText(
    `flux get kustomization ${target.name} -n ${target.namespace} --context ${target.cluster}`,
  );
  await page.screenshot({ animations: 'disabled', path: screenshotPath('entity-tab-detail.png') });
  // the copyable commands, further down the drawer
  await drawer.getByTestId('flux-fleet-cli').scrollIntoViewIfNeeded();
  await page.screenshot({ animations: 'disabled', path: screenshotPath('entity-tab-detail-commands.png') });

  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();
});
