import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import type { EntityReadDecision } from '../permissions/ReadAccess';
import { EntityLinkCache } from './EntityLinkCache';

const component = (name: string, kubernetesId: string) => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name,
    namespace: 'default',
    annotations: { 'backstage.io/kubernetes-id': kubernetesId },
  },
  spec: {},
});
type Component = ReturnType<typeof component>;
const refOf = (name: string) => ({ kind: 'component', namespace: 'default', name });
const checkout = refOf('checkout');
const payments = refOf('payments');

function setup(decision: EntityReadDecision) {
  let clock = 1_000_000;
  const entities = new Map<string, Component | undefined>([
    ['checkout', component('checkout', 'checkout')],
    ['payments', component('payments', 'payments')],
  ]);
  const catalog = {
    getEntityByRef: jest.fn(async (ref: { name: string }) => entities.get(ref.name)),
    getEntitiesByRefs: jest.fn(async (request: { entityRefs: string[] }) => ({
      items: request.entityRefs.map(r => entities.get(r.slice(r.indexOf('/') + 1))),
    })),
  };
  const changes: Array<[string, string | undefined]> = [];
  const logger = mockServices.logger.mock();
  const cache = new EntityLinkCache({
    catalog: catalog as any,
    auth: mockServices.auth(),
    access: { entitiesFor: async () => decision },
    logger,
    onChange: (entityRef, link) => changes.push([entityRef, link?.kubernetesId]),
    now: () => clock,
    timer: false,
  });
  return {
    cache,
    catalog,
    changes,
    logger,
    advance: (ms: number) => {
      clock += ms;
    },
    setEntity: (name: string, next: Component | undefined) => {
      entities.set(name, next);
    },
  };
}

const alice = mockCredentials.user('user:default/alice');
const bob = mockCredentials.user('user:default/bob');
const settle = () => new Promise(resolve => setImmediate(resolve));

describe('EntityLinkCache', () => {
  it('asks the catalog once for every caller the catalog would show every entity to', async () => {
    const { cache, catalog } = setup('all');
    const [a, b] = await Promise.all([cache.linkOf(checkout, alice), cache.linkOf(checkout, bob)]);
    expect(a).toEqual({
      entityRef: 'component:default/checkout',
      link: expect.objectContaining({ kubernetesId: 'checkout' }),
    });
    expect(b).toEqual(a);
    expect(catalog.getEntityByRef).toHaveBeenCalledTimes(1);
  });

  it('tells a caller denied catalog.entity.read that the entity does not exist, without asking the catalog', async () => {
    const { cache, catalog } = setup('none');
    expect(await cache.linkOf(checkout, alice)).toBeUndefined();
    expect(catalog.getEntityByRef).not.toHaveBeenCalled();
  });

  it("keeps answers read with a conditional caller's own credentials for that caller alone", async () => {
    const { cache, catalog } = setup('conditional');
    await cache.linkOf(checkout, alice);
    await cache.linkOf(checkout, alice);
    await cache.linkOf(checkout, bob);
    expect(catalog.getEntityByRef).toHaveBeenCalledTimes(2);
    expect(catalog.getEntityByRef.mock.calls.map((c: any[]) => c[1].credentials)).toEqual([alice, bob]);
  });

  it('reads shared answers again together in one request, never on a view, and says which links changed', async () => {
    const { cache, catalog, changes, advance, setEntity } = setup('all');
    await cache.linkOf(checkout, alice);
    await cache.linkOf(payments, alice);
    setEntity('checkout', component('checkout', 'checkout-v2'));
    advance(61_000);
    // an old shared answer is served as it is: the view costs no catalog request
    expect((await cache.linkOf(checkout, alice))?.link.kubernetesId).toBe('checkout');
    expect(catalog.getEntityByRef).toHaveBeenCalledTimes(2);

    await cache.refreshShared();
    expect(catalog.getEntitiesByRefs).toHaveBeenCalledTimes(1);
    expect(catalog.getEntitiesByRefs.mock.calls[0][0].entityRefs.sort()).toEqual([
      'component:default/checkout',
      'component:default/payments',
    ]);
    expect(changes).toEqual([['component:default/checkout', 'checkout-v2']]);
    expect((await cache.linkOf(checkout, alice))?.link.kubernetesId).toBe('checkout-v2');

    // fresh answers are not read again
    await cache.refreshShared();
    expect(catalog.getEntitiesByRefs).toHaveBeenCalledTimes(1);

    setEntity('payments', undefined);
    advance(61_000);
    await cache.refreshShared();
    expect(changes[1]).toEqual(['component:default/payments', undefined]);
    expect(await cache.linkOf(payments, alice)).toBeUndefined();
    expect(catalog.getEntityByRef).toHaveBeenCalledTimes(2);
  });

  it('keeps the last shared answers when the catalog cannot be read again, and says so in the log', async () => {
    const { cache, catalog, logger, advance } = setup('all');
    await cache.linkOf(checkout, alice);
    catalog.getEntitiesByRefs.mockRejectedValueOnce(new Error('catalog is down'));
    advance(61_000);
    await cache.refreshShared();
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('catalog is down'));
    expect((await cache.linkOf(checkout, alice))?.entityRef).toBe('component:default/checkout');
  });

  it('stops reading entities nobody asked for lately, and reads one again when it is asked for', async () => {
    const { cache, catalog, advance } = setup('all');
    await cache.linkOf(checkout, alice);
    advance(11 * 60_000);
    await cache.refreshShared();
    expect(catalog.getEntitiesByRefs).not.toHaveBeenCalled();
    await cache.linkOf(checkout, alice);
    expect(catalog.getEntityByRef).toHaveBeenCalledTimes(2);
  });

  it("serves a conditional caller's old answer once more while it is read again, and says when the link changed", async () => {
    const { cache, catalog, changes, advance, setEntity } = setup('conditional');
    await cache.linkOf(checkout, alice);
    advance(5_000);
    await cache.linkOf(checkout, alice);
    expect(catalog.getEntityByRef).toHaveBeenCalledTimes(1);

    setEntity('checkout', component('checkout', 'checkout-v2'));
    advance(60_000);
    expect((await cache.linkOf(checkout, alice))?.link.kubernetesId).toBe('checkout');
    await settle();
    expect(changes).toEqual([['component:default/checkout', 'checkout-v2']]);
    expect((await cache.linkOf(checkout, alice))?.link.kubernetesId).toBe('checkout-v2');
  });

  it.each(['all', 'conditional'] as const)(
    'keeps "not in the catalog" only seconds, so an entity the catalog adds later is found on the next view (%s)',
    async decision => {
      const { cache, catalog, advance, setEntity } = setup(decision);
      setEntity('checkout', undefined);
      expect(await cache.linkOf(checkout, alice)).toBeUndefined();
      setEntity('checkout', component('checkout', 'checkout'));
      advance(2_000);
      // a page asking again at once costs the catalog nothing
      expect(await cache.linkOf(checkout, alice)).toBeUndefined();
      expect(catalog.getEntityByRef).toHaveBeenCalledTimes(1);
      advance(4_000);
      expect((await cache.linkOf(checkout, alice))?.entityRef).toBe('component:default/checkout');
      expect(catalog.getEntityByRef).toHaveBeenCalledTimes(2);
      // found answers are kept as before
      advance(10_000);
      await cache.linkOf(checkout, alice);
      expect(catalog.getEntityByRef).toHaveBeenCalledTimes(2);
    },
  );

  it('reads the catalog again once an answer is too old to serve', async () => {
    const { cache, catalog, advance, setEntity } = setup('conditional');
    await cache.linkOf(checkout, alice);
    setEntity('checkout', component('checkout', 'moved'));
    advance(11 * 60_000);
    expect((await cache.linkOf(checkout, alice))?.link.kubernetesId).toBe('moved');
    expect(catalog.getEntityByRef).toHaveBeenCalledTimes(2);
  });
});
