import { Locator, Page, expect } from '@playwright/test';

/** The fleet page (`/flux-fleet`), as a person uses it. */
export class FleetPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/flux-fleet');
    await expect(this.page.getByTestId('flux-fleet-page')).toBeVisible();
  }

  /** Opens one tab by its label and waits for its panel. */
  async tab(label: string, id: string): Promise<Locator> {
    await this.page.getByRole('tab', { name: label }).click();
    const panel = this.page.getByTestId(`flux-fleet-tab-${id}`);
    await expect(panel).toBeVisible();
    return panel;
  }

  /** Opens the Findings tab and waits until the findings have loaded. */
  async findings(): Promise<Locator> {
    await this.tab('Findings', 'findings');
    const panel = this.page.getByTestId('flux-fleet-findings-panel');
    await expect(panel).toBeVisible();
    return panel;
  }

  /** The finding groups shown, by type (from their test ids). */
  async findingTypes(): Promise<string[]> {
    const ids = await this.page
      .getByTestId(/^flux-fleet-findings-/)
      .evaluateAll(groups =>
        groups.map(g => g.getAttribute('data-testid') ?? ''),
      );
    return ids
      .filter(id => !['flux-fleet-findings-panel', 'flux-fleet-findings-headline'].includes(id))
      .map(id => id.replace(/^flux-fleet-findings-/, ''));
  }

  /** The group of one finding type. */
  findingGroup(type: string): Locator {
    return this.page.getByTestId(`flux-fleet-findings-${type}`);
  }

  /**
   * The rows of the objects table once its page has loaded, as `cluster/namespace/kind/name` keys, with the
   * "first–last of total" line.
   */
  async objectRows(): Promise<{ keys: string[]; range: string }> {
    const table = this.page.getByTestId('flux-fleet-fleet-objects');
    await expect(table).toBeVisible();
    await expect(
      this.page.getByRole('progressbar', { name: 'Loading objects' }),
    ).toHaveCount(0);
    const range =
      (await this.page.getByTestId('flux-fleet-page-range').textContent()) ??
      '';
    // each row's cluster (first cell), namespace/name and kind (the object's cell, by test id: not column order)
    const keys = await table.locator('tbody tr').evaluateAll(rows =>
      rows
        .filter(row => row.querySelector('[data-testid="flux-fleet-object-name"]'))
        .map(row => {
          const cluster = row.querySelector('td')?.textContent;
          const text = (id: string) =>
            row.querySelector(`[data-testid="${id}"]`)?.textContent ?? '';
          const [namespace, name] = text('flux-fleet-object-name').split('/');
          return `${cluster}/${namespace}/${text('flux-fleet-object-kind')}/${name}`;
        }),
    );
    return { keys, range };
  }
}
