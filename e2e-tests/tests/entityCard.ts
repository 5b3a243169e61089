import { Locator, Page, expect } from '@playwright/test';
import { objectKey, TruthObject } from './groundTruth';

/** The Flux card on a catalog entity's overview page, as a person reads it. */
export class EntityCard {
  constructor(readonly page: Page) {}

  /**
   * Opens the overview of a catalog entity, waits until the card has loaded its deploy answer, then opens the
   * per-cluster details (instance, shard, boundary: one click away) unless `details` is false.
   */
  async open(entityPath: string, details = true): Promise<void> {
    await this.page.goto(`/catalog/${entityPath}`);
    await expect(this.page.getByTestId('flux-fleet-card')).toBeVisible();
    await expect(this.page.getByTestId('flux-fleet-loading')).toHaveCount(0);
    await expect(this.deployLines().first()).toBeVisible();
    if (details) {
      await this.page.getByTestId('flux-fleet-details-toggle').click();
      await expect(this.rows().first()).toBeVisible();
    }
  }

  /** The deploy answer's line of every cluster. */
  deployLines(): Locator {
    return this.page.getByTestId(/^flux-fleet-deploy-line-/);
  }

  /** The clusters the deploy answer has a line for. */
  async deployClusters(): Promise<string[]> {
    const ids = await this.deployLines().evaluateAll(lines =>
      lines.map(l => l.getAttribute('data-testid') ?? ''),
    );
    return ids.map(id => id.replace(/^flux-fleet-deploy-line-/, ''));
  }

  /** Every cluster row of the card. */
  rows(): Locator {
    return this.page.getByTestId(/^flux-fleet-row-/);
  }

  /** The row of one cluster. */
  row(cluster: string): Locator {
    return this.page.getByTestId(`flux-fleet-row-${cluster}`);
  }

  /** One Flux object in its cluster's row. */
  object(o: Pick<TruthObject, 'cluster' | 'namespace' | 'kind' | 'name'>) {
    return this.row(o.cluster).getByTestId(`flux-fleet-object-${objectKey(o)}`);
  }

  /** The clusters the card has rows for, in its order. */
  async clusters(): Promise<string[]> {
    const ids = await this.rows().evaluateAll(rows =>
      rows.map(r => r.getAttribute('data-testid') ?? ''),
    );
    return ids.map(id => id.replace(/^flux-fleet-row-/, ''));
  }

  /** What the card says about one object: instance, shard, state and boundary, as text. */
  async read(o: TruthObject): Promise<{
    instance: string;
    shard: string;
    state: string;
    boundary: string;
  }> {
    const object = this.object(o);
    const text = async (testId: string) =>
      ((await object.getByTestId(testId).first().textContent()) ?? '').trim();
    return {
      instance: await text('flux-fleet-instance'),
      shard: await text('flux-fleet-shard'),
      state: await text('flux-fleet-state'),
      boundary: await text('flux-fleet-boundary'),
    };
  }
}
