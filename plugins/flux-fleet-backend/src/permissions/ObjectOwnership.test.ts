import { mockServices } from '@backstage/backend-test-utils';
import type { TenantSummary } from '@flux-fleet/plugin-flux-fleet-common';
import { ObjectOwnership, OwnershipIndex } from './ObjectOwnership';

const component = (name: string, owner: unknown, annotations: Record<string, string> = {}, namespace = 'default') => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name, namespace, annotations },
  spec: { owner },
});

function setup(entities: unknown[], options: { tenants?: Partial<TenantSummary>[]; failing?: boolean } = {}) {
  const catalog = {
    getEntities: jest.fn(async () => {
      if (options.failing) throw new Error('catalog is down');
      return { items: entities };
    }),
  };
  const index: OwnershipIndex = {
    tenants: () => (options.tenants ?? []) as TenantSummary[],
    linkTarget: key =>
      key === 'c/apps/Kustomization/web'
        ? { labels: { 'app.kubernetes.io/part-of': 'shop' }, service: null }
        : undefined,
  };
  const logger = mockServices.logger.mock();
  const ownership = new ObjectOwnership(catalog as any, mockServices.auth(), index, logger, 60_000);
  return { ownership, catalog, logger };
}

describe('ObjectOwnership', () => {
  it("names the owners of the object's service's Components, as full lower-case refs", async () => {
    const { ownership } = setup([
      component('checkout-web', 'group:default/Platform', { 'backstage.io/kubernetes-id': 'checkout' }),
      // linked by name when it has no kubernetes-id; a short owner is a group in the entity's namespace
      component('checkout', 'payments', {}, 'shop'),
      component('search', 'group:default/search'),
      component('no-owner', undefined),
    ]);
    await ownership.refresh();
    expect(ownership.ownersOf({ key: 'c/apps/Kustomization/checkout', service: 'checkout', tenant: null })).toEqual([
      'group:default/platform',
      'group:shop/payments',
    ]);
    expect(ownership.ownersOf({ key: 'c/apps/Kustomization/x', service: 'unknown', tenant: null })).toEqual([]);
    expect(ownership.ownersOf({ key: 'c/apps/Kustomization/x', service: null, tenant: null })).toEqual([]);
  });

  it("adds the owners of Components whose label selector matches, and the tenant's group", async () => {
    const { ownership } = setup(
      [
        component('shop', 'group:default/shop-team', {
          'backstage.io/kubernetes-label-selector': 'app.kubernetes.io/part-of=shop',
        }),
      ],
      { tenants: [{ name: 'payments', group: 'group:default/payments' }, { name: 'search' }] },
    );
    await ownership.refresh();
    expect(ownership.ownersOf({ key: 'c/apps/Kustomization/web', service: null, tenant: 'payments' })).toEqual([
      'group:default/payments',
      'group:default/shop-team',
    ]);
    expect(ownership.ownersOf({ key: 'c/apps/Kustomization/api', service: null, tenant: 'search' })).toEqual([]);
  });

  it('asks the catalog once per TTL, and keeps the last answer when the catalog fails', async () => {
    const { ownership, catalog, logger } = setup([component('checkout', 'group:default/platform')]);
    await Promise.all([ownership.refresh(), ownership.refresh()]);
    await ownership.refresh();
    expect(catalog.getEntities).toHaveBeenCalledTimes(1);

    const failing = setup([], { failing: true });
    await failing.ownership.refresh();
    expect(failing.ownership.ownersOf({ key: 'k', service: 'checkout', tenant: null })).toEqual([]);
    expect(failing.logger.warn).toHaveBeenCalledWith(expect.stringContaining('catalog is down'));
    expect(logger.warn).not.toHaveBeenCalled();
  });
});
