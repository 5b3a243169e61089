import { ConfigReader } from '@backstage/config';
import { readProviderConfigs } from './FluxFleetEntityProviderConfig';

const read = (fluxFleet: unknown) =>
  readProviderConfigs(
    new ConfigReader(
      fluxFleet === undefined ? {} : { catalog: { providers: { fluxFleet } } },
    ),
  );

describe('readProviderConfigs', () => {
  it('gives one provider with the defaults when nothing is configured', () => {
    expect(read(undefined)).toEqual([
      {
        id: 'default',
        clusters: undefined,
        kinds: ['HelmRelease', 'Kustomization'],
        defaultOwner: 'group:default/platform',
        tenantOwners: {},
        tenantOwnerPattern: undefined,
        removeAfterOutageMs: undefined,
        createMissingComponents: false,
        debounceMs: 2000,
        schedule: { frequency: { minutes: 30 }, timeout: { minutes: 10 } },
      },
    ]);
  });

  it('reads the options of one provider', () => {
    const [config] = read({
      clusters: ['prod-us-1', 'prod-eu-1'],
      kinds: ['OCIRepository', 'Kustomization', 'Kustomization'],
      defaultOwner: 'user:default/jane',
      tenantOwners: { payments: 'payments-team', shop: 'group:retail/shop' },
      tenantOwnerPattern: 'group:default/team-{tenant}',
      removeAfterOutage: { hours: 6 },
      createMissingComponents: true,
      debounce: 'PT5S',
      schedule: { frequency: 'PT15M', timeout: { minutes: 3 } },
    });
    expect(config).toEqual({
      id: 'default',
      clusters: ['prod-eu-1', 'prod-us-1'],
      kinds: ['Kustomization', 'OCIRepository'],
      defaultOwner: 'user:default/jane',
      tenantOwners: {
        payments: 'group:default/payments-team',
        shop: 'group:retail/shop',
      },
      tenantOwnerPattern: 'group:default/team-{tenant}',
      removeAfterOutageMs: 6 * 3600_000,
      createMissingComponents: true,
      debounceMs: 5000,
      schedule: expect.objectContaining({ timeout: { minutes: 3 } }),
    });
  });

  it('reads a map of provider ids, in id order', () => {
    const configs = read({
      us: { clusters: ['prod-us-1'] },
      eu: { clusters: ['prod-eu-1'], defaultOwner: 'platform-eu' },
    });
    expect(configs.map(c => [c.id, c.clusters, c.defaultOwner])).toEqual([
      ['eu', ['prod-eu-1'], 'group:default/platform-eu'],
      ['us', ['prod-us-1'], 'group:default/platform'],
    ]);
  });

  it('asks every one of several providers to list its clusters, each cluster once', () => {
    expect(() => read({ eu: { clusters: ['prod-eu-1'] }, rest: { defaultOwner: 'platform' } })).toThrow(
      'catalog.providers.fluxFleet has several providers, so each must list its clusters; catalog.providers.fluxFleet.rest.clusters is missing',
    );
    expect(() =>
      read({ eu: { clusters: ['prod-eu-1', 'prod-eu-2'] }, shared: { clusters: ['prod-eu-2'] } }),
    ).toThrow(
      'Cluster prod-eu-2 is listed by two providers, catalog.providers.fluxFleet.eu and catalog.providers.fluxFleet.shared',
    );
  });

  it('names the key and the Flux kinds it knows when a kind is not one', () => {
    expect(() => read({ eu: { clusters: ['prod-eu-1'], kinds: ['Kustomisation', 'HelmRelease'] } })).toThrow(
      /catalog\.providers\.fluxFleet\.eu\.kinds names kinds that are not Flux kinds: Kustomisation\..*Kustomization/,
    );
  });

  it('refuses an owner that is not an entity reference', () => {
    expect(() => read({ defaultOwner: 'group:default/' })).toThrow(
      /catalog\.providers\.fluxFleet\.defaultOwner must be an entity reference/,
    );
    expect(() => read({ tenantOwners: { shop: 'a:b:c/d' } })).toThrow(
      /catalog\.providers\.fluxFleet\.tenantOwners\.shop must be an entity reference/,
    );
  });

  it('refuses a tenant owner pattern without {tenant}', () => {
    expect(() => read({ tenantOwnerPattern: 'group:default/payments' })).toThrow(
      "catalog.providers.fluxFleet.tenantOwnerPattern must contain {tenant}, e.g. group:default/{tenant}; got 'group:default/payments'",
    );
  });

  it('refuses a duration it cannot read, naming the key', () => {
    expect(() => read({ removeAfterOutage: 'six hours' })).toThrow(
      /catalog\.providers\.fluxFleet\.removeAfterOutage must be a duration/,
    );
    expect(() => read({ eu: { clusters: ['prod-eu-1'], schedule: { frequency: 'often' } } })).toThrow(
      /catalog\.providers\.fluxFleet\.eu\.schedule is not a valid schedule/,
    );
  });
});
