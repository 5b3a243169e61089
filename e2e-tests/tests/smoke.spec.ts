import { expect, test } from '@playwright/test';
import { screenshotPath, signIn } from './helpers';

test('an entity page shows the Flux Fleet card', async ({ page }) => {
  await signIn(page);
  await page.goto('/catalog/default/component/checkout');
  await expect(page.getByText('Flux Fleet').first()).toBeVisible();
  await page.screenshot({ path: screenshotPath('entity-card.png'), fullPage: true });
});
