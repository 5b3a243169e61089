import { expect, test } from '@playwright/test';
import { readTruth } from './groundTruth';
import { guestToken, screenshotPath, signIn } from './helpers';

const baseURL = process.env.PLAYWRIGHT_BASE_URL ?? 'http://localhost:7007';

/** The API's answer with the guest's token, as the page asks it. */
async function api(path: string): Promise<any> {
  const token = await guestToken();
  const res = await fetch(`${baseURL}/api/flux-fleet${path}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status, `GET ${path}`).toBe(200);
  return res.json();
}

test("the Capacity tab answers whether the demo's over-capacity Flux installation should shard, with its plan and commands", async ({
  page,
}) => {
  // the simulator's own load model names the over-capacity instance (the demo: staging-us-east-1 / flux-system)
  const truth = await readTruth();
  const over = truth.controllers.find(c => c.verdict === 'over-capacity');
  if (!over) throw new Error('the ground truth has no over-capacity controller');
  const id = `${over.cluster}-${over.namespace}`;

  await signIn(page);
  await page.goto('/flux-fleet');
  await page.getByRole('tab', { name: 'Capacity' }).click();
  const view = page.getByTestId('capacity-view');
  await expect(view).toBeVisible();
  await expect(view).not.toHaveAttribute('aria-busy', 'true');

  // one card per instance the API reports, each leading with the API's one-sentence answer
  const report = await api('/capacity');
  expect(report.items.length).toBeGreaterThan(0);
  for (const i of report.items) {
    await expect(page.getByTestId(`capacity-instance-${i.cluster}-${i.instance}`), `${i.cluster}/${i.instance}`).toBeVisible();
  }

  // the over-capacity instance, once measured (before the first scrape round its verdict is the interval
  // estimate's, which may differ; the view follows the capacity signal): the verdict the simulator modelled, the
  // API's answer, its controllers' rows
  const card = page.getByTestId(`capacity-instance-${id}`);
  await expect(card).toContainText('From the controllers’ metrics', { timeout: 90_000 });
  await expect(card.getByText('over capacity').first()).toBeVisible();
  const mine = (await api(`/capacity?cluster=${over.cluster}&instance=${over.namespace}`)).items[0];
  expect(mine.verdict).toBe('over-capacity');
  await expect(card.getByText(mine.answer)).toBeVisible();
  const rows = card.getByRole('table', { name: `Controllers of ${over.cluster}/${over.namespace}` }).locator('tbody tr');
  for (const c of mine.controllers) {
    await expect(rows.filter({ has: page.getByRole('cell', { name: c.controller, exact: true }) })).toHaveCount(1);
  }
  const row = rows.filter({ has: page.getByRole('cell', { name: over.deployment, exact: true }) });
  await expect(row).toContainText('over capacity');

  // its sharding plan: open already when the advice is to shard, one click away when it is to raise --concurrent
  // first (as the demo's is); the API's sentence, its shards and the commands to copy
  if (mine.advice !== 'shard') await card.getByRole('button', { name: 'Show a sharding plan' }).click();
  const plan = await api(`/capacity/plan?cluster=${over.cluster}&instance=${over.namespace}`);
  const panel = page.getByTestId(`capacity-plan-${id}`);
  await expect(panel.getByText(plan.summary)).toBeVisible();
  await expect(panel.getByRole('table', { name: 'Planned shards' }).locator('tbody tr')).toHaveCount(plan.shards.length);
  if (plan.commands.length > 0) {
    await expect(panel.getByRole('button', { name: 'Copy the commands' })).toBeVisible();
    await expect(panel).toContainText(plan.commands[0]);
  }

  // the recent hours, drawn once asked for
  await card.getByRole('button', { name: 'Show recent hours' }).click();
  await expect(card.locator('svg.recharts-surface').first()).toBeVisible();

  // the card's answer and controllers, then its plan, as a reader scrolls to them
  await card.evaluate(el => el.scrollIntoView({ block: 'start' }));
  await page.screenshot({ animations: 'disabled', path: screenshotPath('capacity.png') });
  await panel.evaluate(el => el.scrollIntoView({ block: 'start' }));
  await page.screenshot({ animations: 'disabled', path: screenshotPath('capacity-plan.png') });
});
