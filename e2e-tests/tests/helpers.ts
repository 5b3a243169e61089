import { Page, expect } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Screenshots of a run land in e2e-tests/screenshots (git-ignored). */
export function screenshotPath(name: string): string {
  const dir = join(__dirname, '..', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}

/** Signs in as the guest user, the demo's only identity. */
export async function signIn(page: Page): Promise<void> {
  await page.goto('/');
  const enter = page.getByRole('button', { name: 'Enter' });
  await expect(enter).toBeVisible();
  await enter.click();
  // the sign-in page goes away once the guest identity is in place
  await expect(enter).toBeHidden();
}

/** The guest's Backstage token from the real auth backend, as the app gets it after "Enter". */
export async function guestToken(): Promise<string> {
  const baseURL = process.env.PLAYWRIGHT_BASE_URL ?? 'http://localhost:7007';
  const res = await fetch(`${baseURL}/api/auth/guest/refresh`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  });
  expect(res.status).toBe(200);
  return (await res.json()).backstageIdentity.token;
}
