import { chromium } from '@playwright/test';
const base = 'http://localhost:7150';
const [,, ...pairs] = process.argv;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync','--disable-dev-shm-usage'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(base + '/');
await page.getByRole('button', { name: 'Enter' }).click();
await page.waitForTimeout(1500);
for (const p of pairs) {
  const [name, path] = p.split('=');
  await page.goto(base + path);
  await page.waitForTimeout(5000);
  await page.screenshot({ path: `/tmp/ui-shots/${name}.png`, fullPage: true });
}
await browser.close();
