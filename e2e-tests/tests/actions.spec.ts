import { expect, Page, test } from '@playwright/test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EntityCard } from './entityCard';
import { FleetPage } from './fleetPage';
import { kubeconfigPath, stateDir } from './fleetState';
import { objectKey, readTruth, TruthObject } from './groundTruth';
import { screenshotPath, signIn } from './helpers';
import { kubectl } from './kubectl';

/**
 * Actions on Flux objects with the demo permission policy (packages/backend/src/permissionPolicy.ts): the guest is
 * a member of group:default/platform, which owns checkout (examples/entities.yaml), so it may reconcile checkout's
 * objects; invoicing-service belongs to group:default/billing, so its buttons are disabled with the reason and the
 * API refuses the request.
 */

/** The Backstage token the app sends to the backend, taken from one of its own API requests. */
async function backstageToken(page: Page, open: () => Promise<void>): Promise<string> {
  const request = page.waitForRequest(
    r => r.url().includes('/api/flux-fleet/') && !!r.headers().authorization,
  );
  await open();
  return (await request).headers().authorization;
}

/** A Kustomization of a service that a running controller reconciles, on a reachable cluster. */
async function reconcilableKustomization(service: string): Promise<TruthObject> {
  const truth = await readTruth();
  const o = truth.objects.find(
    x =>
      x.service === service &&
      x.kind === 'Kustomization' &&
      x.owner === 'ok' &&
      x.state !== 'suspended',
  );
  if (!o) throw new Error(`the ground truth has no reconcilable Kustomization of ${service}`);
  return o;
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('an owner reconciles from the card and sees the controller handle it', async ({ page }) => {
  const o = await reconcilableKustomization('checkout');
  const card = new EntityCard(page);
  await card.open('default/component/checkout');
  const object = card.object(o);

  await object.getByRole('button', { name: `Actions for Kustomization ${o.namespace}/${o.name}` }).click();
  const reconcile = page.getByRole('menuitem', { name: /^Reconcile/ });
  // enabled once the permission decision (IS_OWNED_BY through the permission backend) has arrived
  await expect(reconcile).toBeEnabled();
  await reconcile.click();

  const status = object.getByTestId('flux-fleet-action-status');
  // the simulated controller echoes the request after 0.5–1 s; the signal on the object's channel brings it here
  await expect(status).toHaveText('Reconciled: the controller handled the request.');
  await page.screenshot({ animations: 'disabled', path: screenshotPath('actions-reconciled.png') });
});

test('a user who does not own the service sees the actions disabled with the reason, and the API refuses them', async ({
  page,
}) => {
  const o = await reconcilableKustomization('invoicing-service');
  const card = new EntityCard(page);
  const token = await backstageToken(page, () => card.open('default/component/invoicing-service'));
  const key = objectKey(o);
  const object = card.object(o);

  await object.getByRole('button', { name: `Actions for Kustomization ${o.namespace}/${o.name}` }).click();
  for (const [label, permission] of [
    ['Reconcile', 'reconcile'],
    ['Suspend', 'suspend'],
  ]) {
    const item = page.getByRole('menuitem', { name: new RegExp(`^${label}`) });
    await expect(item).toHaveAttribute('aria-disabled', 'true');
    await expect(item).toContainText(
      `You do not have the permission flux-fleet.object.${permission} on ${key}.`,
    );
  }
  await page.screenshot({ animations: 'disabled', path: screenshotPath('actions-not-permitted.png') });
  await page.keyboard.press('Escape');

  // the button is not the only guard: the backend refuses the request itself
  const res = await page.request.post(`/api/flux-fleet/objects/${key}/reconcile`, {
    headers: { Authorization: token, 'Content-Type': 'application/json' },
    data: {},
  });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.message).toBe(
    `You do not have the permission flux-fleet.object.reconcile on ${key}.`,
  );
});

/** Every file under a folder. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap(name => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('no cluster credential reaches the browser, the built app or the backend log', async ({ page }) => {
  // the simulator's tokens, as the backend's kubeconfig holds them
  const secrets = [...readFileSync(kubeconfigPath(), 'utf8').matchAll(/^\s*token:\s*"?([^"\s]+)"?\s*$/gm)].map(
    m => m[1],
  );
  expect(secrets.length, 'tokens found in the kubeconfig').toBeGreaterThanOrEqual(2);
  const leaks = (text: string) =>
    secrets.some(s => text.includes(s)) || /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text);

  // everything the browser receives on the pages that show Flux objects, API answers included
  const received: Array<{ url: string; leaked: boolean }> = [];
  page.on('response', async response => {
    try {
      received.push({ url: response.url(), leaked: leaks(await response.text()) });
    } catch {
      // a response without a body (redirect, aborted): nothing to read
    }
  });
  const card = new EntityCard(page);
  const token = await backstageToken(page, () => card.open('default/component/checkout'));
  await new FleetPage(page).open();
  for (const path of ['/clusters', '/summary', '/objects?limit=1000', '/findings']) {
    const res = await page.request.get(`/api/flux-fleet${path}`, { headers: { Authorization: token } });
    received.push({ url: path, leaked: leaks(await res.text()) });
  }
  // a failing action's answer too
  const res = await page.request.post('/api/flux-fleet/objects/nowhere/x/Kustomization/y/reconcile', {
    headers: { Authorization: token, 'Content-Type': 'application/json' },
    data: {},
  });
  received.push({ url: 'failed action', leaked: leaks(await res.text()) });
  expect(received.length).toBeGreaterThan(10);
  expect(received.filter(r => r.leaked).map(r => r.url)).toEqual([]);

  // the built app as the backend serves it (app-backend writes the frontend configuration into it)
  const dist = join(__dirname, '..', '..', 'packages', 'app', 'dist');
  const files = filesUnder(dist);
  expect(files.some(f => f.endsWith('.js'))).toBe(true);
  expect(files.filter(f => leaks(readFileSync(f, 'latin1')))).toEqual([]);

  // every line the backend logged in this run
  const log = join(stateDir(), 'backend.log');
  expect(existsSync(log), `${log} exists`).toBe(true);
  const lines = readFileSync(log, 'utf8').split('\n');
  expect(lines.length).toBeGreaterThan(10);
  expect(lines.filter(leaks)).toEqual([]);
});

test('the static API token of app-config.yaml reads but cannot act, and nothing is written', async ({ page }) => {
  // scripts/test.sh starts the product with FLUX_FLEET_API_TOKEN set, as a script's operator would
  const apiToken = process.env.FLUX_FLEET_API_TOKEN;
  expect(apiToken, 'FLUX_FLEET_API_TOKEN for the end-to-end run').toBeTruthy();
  const headers = { Authorization: `Bearer ${apiToken}`, 'Content-Type': 'application/json' };
  const o = await reconcilableKustomization('checkout');
  const key = objectKey(o);
  const before = JSON.parse(
    await kubectl(o.cluster, 'get', 'kustomizations.kustomize.toolkit.fluxcd.io', '-n', o.namespace, o.name, '-o', 'json'),
  );

  const read = await page.request.get(`/api/flux-fleet/objects/${key}`, { headers });
  expect(read.status()).toBe(200);
  for (const [action, permission] of [
    ['reconcile', 'reconcile'],
    ['suspend', 'suspend'],
    ['resume', 'suspend'],
  ]) {
    const res = await page.request.post(`/api/flux-fleet/objects/${key}/${action}`, { headers, data: {} });
    expect(res.status(), `${action} with the static token`).toBe(403);
    expect((await res.json()).error.message).toContain(
      `You do not have the permission flux-fleet.object.${permission} on ${key}.`,
    );
  }

  const after = JSON.parse(
    await kubectl(o.cluster, 'get', 'kustomizations.kustomize.toolkit.fluxcd.io', '-n', o.namespace, o.name, '-o', 'json'),
  );
  expect(after.spec.suspend ?? false).toBe(before.spec.suspend ?? false);
  expect(after.metadata.annotations?.['reconcile.fluxcd.io/requestedAt']).toBe(
    before.metadata.annotations?.['reconcile.fluxcd.io/requestedAt'],
  );
});
