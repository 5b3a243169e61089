import AxeBuilder from '@axe-core/playwright';
import { Page, expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { signIn } from './helpers';

/** Committed screenshots of every Flux Fleet view, light and dark, at 1280×800 (the README shows two). */
const SHOTS = join(__dirname, '..', 'screenshots', 'views');

/** The Flux Fleet views: where each is, and what shows it has loaded. */
const VIEWS: Array<{
  name: string;
  path: string;
  ready: string;
  open?: (page: Page) => Promise<void>;
}> = [
  {
    name: 'entity-card',
    path: '/catalog/default/component/checkout',
    ready: 'flux-fleet-deploy-answer',
  },
  {
    name: 'entity-tab',
    path: '/catalog/default/component/checkout/flux-fleet',
    ready: 'flux-fleet-objects',
  },
  {
    name: 'revision-matrix',
    path: '/catalog/default/component/checkout/flux-fleet',
    ready: 'flux-fleet-revision-matrix',
    // to the top of the view: "if needed" did not scroll when the deploy answer was short and the matrix already
    // showed, and the screenshot was the entity tab's again
    open: async page =>
      page.getByTestId('flux-fleet-revision-matrix').evaluate(el => el.scrollIntoView({ block: 'start' })),
  },
  {
    name: 'fleet-overview',
    path: '/flux-fleet',
    ready: 'flux-fleet-health-map',
  },
  {
    name: 'flux-versions',
    path: '/flux-fleet',
    ready: 'flux-fleet-health-map',
    open: async page => {
      await page.getByRole('tab', { name: 'Flux versions' }).click();
      await expect(page.getByTestId('flux-versions-headline')).toBeVisible();
    },
  },
  ...(
    [
      ['clusters', 'Clusters', 'flux-fleet-clusters'],
      ['instances-and-shards', 'Instances & shards', 'flux-fleet-shards'],
      ['capacity', 'Capacity', 'capacity-view'],
      ['tenants', 'Tenants', 'flux-fleet-tenants'],
      ['findings', 'Findings', 'flux-fleet-findings-panel'],
      ['objects', 'Objects', 'flux-fleet-fleet-objects'],
    ] as const
  ).map(([name, tab, shown]) => ({
    name,
    path: '/flux-fleet',
    ready: 'flux-fleet-health-map',
    open: async (page: Page) => {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByTestId(shown).first()).toBeVisible();
      // skeletons and progress bars gone: the tab shows its answers
      await expect(page.locator('[aria-busy="true"], [role="progressbar"]')).toHaveCount(0);
    },
  })),
  {
    name: 'group-card',
    path: '/catalog/default/group/content',
    ready: 'flux-fleet-group-counts',
  },
];

/** Words of table cells in Flux Fleet views that the layout broke over two lines (each word's own boxes). */
async function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    const cells = document.querySelectorAll(
      '[data-testid^="flux-fleet"] td, [data-testid^="flux-fleet"] th',
    );
    for (const cell of cells) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S{2,}/g)) {
          const range = document.createRange();
          range.setStart(node, match.index!);
          range.setEnd(node, match.index! + match[0].length);
          const tops = new Set(
            [...range.getClientRects()]
              .filter(r => r.width > 0)
              .map(r => Math.round(r.top)),
          );
          if (tops.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  });
}

/**
 * Tables of Flux Fleet views wider than the box they scroll in, with both widths: at 1280 px a reader should not
 * have to scroll sideways to see a row's last columns (nothing is cut off, but the state or the findings are).
 */
async function tablesWiderThanTheView(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const wide: string[] = [];
    for (const table of document.querySelectorAll('[data-testid^="flux-fleet"] table, [data-testid^="capacity"] table')) {
      let box = table.parentElement;
      while (box && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
      const available = box?.clientWidth ?? document.documentElement.clientWidth;
      const width = Math.ceil(table.getBoundingClientRect().width);
      if (width > available + 1) {
        const named = table.closest('[data-testid]')?.getAttribute('data-testid') ?? 'a table';
        wide.push(`${named}: ${width} px in ${available} px`);
      }
    }
    return wide;
  });
}

/** The fleet page's tabs that are out of sight, behind its scroll arrows (none on a fleet view at 1280 px). */
async function tabsOutOfSight(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const list = document.querySelector('[aria-label="Fleet views"]');
    if (!list) return [];
    const box = list.getBoundingClientRect();
    return [...list.querySelectorAll('[role="tab"]')]
      .filter(tab => {
        const r = tab.getBoundingClientRect();
        return r.left < box.left - 1 || r.right > box.right + 1;
      })
      .map(tab => tab.textContent ?? '');
  });
}

test.use({ viewport: { width: 1280, height: 800 } });

for (const theme of ['light', 'dark'] as const) {
  for (const view of VIEWS) {
    test(`${view.name} (${theme}): no serious or critical accessibility violation, no word broken in a table cell, no table wider than the page, every fleet tab in sight`, async ({
      page,
    }) => {
      // Backstage keeps the chosen theme in localStorage `theme` (the user settings' theme switch)
      await page.addInitScript(
        t => window.localStorage.setItem('theme', t),
        theme,
      );
      await signIn(page);
      await page.goto(view.path);
      await expect(page.getByTestId(view.ready)).toBeVisible();
      await expect(page.getByTestId('flux-fleet-loading')).toHaveCount(0);
      await expect(page.locator('body')).toHaveAttribute(
        'data-theme-mode',
        theme,
      );
      await view.open?.(page);

      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ animations: 'disabled', path: join(SHOTS, `${view.name}-${theme}.png`) });

      // the Flux Fleet views only (the catalog's About card, relations graph and profile card are Backstage's);
      // Backstage's Table puts its sort buttons in header cells it makes focusable (nested-interactive): not ours
      const results = await new AxeBuilder({ page })
        .include('[data-testid^="flux-fleet"]')
        .exclude('thead .MuiTableSortLabel-root')
        .analyze();
      const serious = results.violations.filter(
        v => v.impact === 'serious' || v.impact === 'critical',
      );
      expect(
        serious.map(
          v =>
            `${v.id} (${v.impact}): ${v.help} — ${v.nodes
              .map(n => n.target.join(' '))
              .slice(0, 3)
              .join('; ')}`,
        ),
        `axe on ${view.name}`,
      ).toEqual([]);

      expect(await brokenWords(page), `words broken in ${view.name}`).toEqual(
        [],
      );
      expect(await tablesWiderThanTheView(page), `tables scrolling sideways in ${view.name}`).toEqual([]);
      expect(await tabsOutOfSight(page), `fleet tabs out of sight in ${view.name}`).toEqual([]);
    });
  }
}
