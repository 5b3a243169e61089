import { Locator, Page, expect } from '@playwright/test';

/** Backstage's search page (`/search`), where Flux Fleet's catalog entities show with their chips. */
export class SearchPage {
  constructor(readonly page: Page) {}

  /** Opens the search page and types a query into its search box, as a person does. */
  async search(query: string): Promise<void> {
    await this.page.goto('/search');
    const box = this.page.getByRole('textbox', { name: 'Search' });
    await expect(box).toBeVisible();
    await box.fill(query);
    await expect(this.page).toHaveURL(
      new RegExp(`[?&]query=${encodeURIComponent(query)}`),
    );
  }

  /**
   * Flux Fleet's results on the current page whose chips read all of `chips` (e.g. "Kind: flux-shard") and whose
   * title matches `title`.
   */
  fluxResults(chips: string[], title?: RegExp): Locator {
    let results = this.page.getByTestId('flux-fleet-search-result');
    for (const chip of chips) {
      results = results.filter({
        has: this.page.getByText(chip, { exact: true }),
      });
    }
    if (title) {
      results = results.filter({
        has: this.page.getByRole('link', { name: title }),
      });
    }
    return results;
  }

  /** Goes to the next page of results and waits until they are shown; false when there is none. */
  async nextPage(): Promise<boolean> {
    const next = this.page.getByRole('button', {
      name: 'Next page',
      exact: true,
    });
    if (await next.isDisabled()) return false;
    // The pager's range changes at once, the results when they arrive: wait for the first result to change.
    const first = this.page.locator('a[href^="/catalog/"]').first();
    const before = await first.textContent();
    await next.click();
    await expect(first).not.toHaveText(before ?? '');
    return true;
  }
}
