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
