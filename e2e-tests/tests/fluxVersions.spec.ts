import { expect, test } from '@playwright/test';
import { readTruth } from './groundTruth';
import { signIn } from './helpers';

test('the Flux versions tab shows the release each cluster runs, as the simulator built it', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/flux-fleet');
  await page.getByRole('tab', { name: 'Flux versions' }).click();
  await expect(page.getByTestId('flux-versions-headline')).toHaveText(
    /^\d+ of \d+ Flux instances? run the latest release \(v2\.\d+\.\d+\)/,
  );
  const truth = await readTruth();
  expect(truth.clusters.length).toBeGreaterThan(0);
  for (const cluster of truth.clusters) {
    // the cluster's main instance runs the release the simulator installed there
    await expect(
      page.getByTestId(`flux-versions-row-${cluster.name}-flux-system`),
      `Flux version of ${cluster.name}`,
    ).toContainText(cluster.fluxVersion);
  }
});

test("the revision matrix groups clusters by the environment their kube-system label names, not by their name's prefix", async ({
  page,
}) => {
  const truth = await readTruth();
  const environments = [
    ...new Set(
      truth.clusters
        .map(c => c.environment)
        .filter((e): e is string => e !== undefined),
    ),
  ];
  expect(environments.length).toBeGreaterThan(0);
  await signIn(page);
  await page.goto('/catalog/default/component/checkout/flux-fleet');
  const matrix = page.getByTestId('flux-fleet-revision-matrix');
  await expect(matrix).toBeVisible();
  const header = await matrix.locator('thead tr').first().innerText();
  // checkout runs on some of the clusters: each environment heading is one a cluster's label gives (the demo
  // configures none)
  const headings = header
    .split(/\t|\n/)
    .map(s => s.trim())
    .filter(s => s && s !== 'Reconciler');
  expect(headings.length).toBeGreaterThan(0);
  for (const heading of headings) expect(environments).toContain(heading);
});
