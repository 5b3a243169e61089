import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import type { EntityReadDecision } from '../permissions/ReadAccess';
import { EntityLinkCache } from './EntityLinkCache';

const checkout = (kubernetesId: string) => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'checkout',
    namespace: 'default',
    annotations: { 'backstage.io/kubernetes-id': kubernetesId },
  },
  spec: {},
});
const ref = { kind: 'component', namespace: 'default', name: 'checkout' };

function setup(decision: EntityReadDecision) {
  let clock = 1_000_000;
  let entity: ReturnType<typeof checkout> | undefined = checkout('checkout');
  const catalog = { getEntityByRef: jest.fn(async () => entity) };
  const changes: Array<[string, string | undefined]> = [];
  const logger = mockServices.logger.mock();
  const cache = new EntityLinkCache({
    catalog: catalog as any,
    auth: mockServices.auth(),
    access: { entitiesFor: async () => decision },
    logger,
    onChange: (entityRef, link) => changes.push([entityRef, link?.kubernetesId]),
    now: () => clock,
  });
  return {
    cache,
    catalog,
    changes,
    logger,
    advance: (ms: number) => {
      clock += ms;
    },
    setEntity: (next: ReturnType<typeof checkout> | undefined) => {
      entity = next;
    },
  };
}

const alice = mockCredentials.user('user:default/alice');
const bob = mockCredentials.user('user:default/bob');
const settle = () => new Promise(resolve => setImmediate(resolve));

describe('EntityLinkCache', () => {
  it('asks the catalog once for every caller the catalog would show every entity to', async () => {
    const { cache, catalog } = setup('all');
    const [a, b] = await Promise.all([cache.linkOf(ref, alice), cache.linkOf(ref, bob)]);
    expect(a).toEqual({
      entityRef: 'component:default/checkout',
      link: expect.objectContaining({ kubernetesId: 'checkout' }),
    });
    expect(b).toEqual(a);
    expect(catalog.getEntityByRef).toHaveBeenCalledTimes(1);
  });

  it('tells a caller denied catalog.entity.read that the entity does not exist, without asking the catalog', async () => {
    const { cache, catalog } = setup('none');
    expect(await cache.linkOf(ref, alice)).toBeUndefined();
    expect(catalog.getEntityByRef).not.toHaveBeenCalled();
  });

  it("keeps answers read with a conditional caller's own credentials for that caller alone", async () => {
    const { cache, catalog } = setup('conditional');
    await cache.linkOf(ref, alice);
    await cache.linkOf(ref, alice);
    await cache.linkOf(ref, bob);
    expect(catalog.getEntityByRef).toHaveBeenCalledTimes(2);
    expect(catalog.getEntityByRef.mock.calls.map((c: any[]) => c[1].credentials)).toEqual([alice, bob]);
  });

  it('serves an old answer at once, reads it again behind, and says when the link changed', async () => {
    const { cache, catalog, changes, advance, setEntity } = setup('all');
    await cache.linkOf(ref, alice);
    advance(5_000);
    await cache.linkOf(ref, alice);
    expect(catalog.getEntityByRef).toHaveBeenCalledTimes(1);

    setEntity(checkout('checkout-v2'));
    advance(60_000);
    // stale: the old link is served while the catalog is read again
    expect((await cache.linkOf(ref, alice))?.link.kubernetesId).toBe('checkout');
    await settle();
    expect(changes).toEqual([['component:default/checkout', 'checkout-v2']]);
    expect((await cache.linkOf(ref, alice))?.link.kubernetesId).toBe('checkout-v2');

    setEntity(undefined);
    advance(60_000);
    await cache.linkOf(ref, alice);
    await settle();
    expect(changes[1]).toEqual(['component:default/checkout', undefined]);
    expect(await cache.linkOf(ref, alice)).toBeUndefined();
  });

  it('keeps the last answer when the catalog cannot be read again, and says so in the log', async () => {
    const { cache, catalog, logger, advance } = setup('all');
    await cache.linkOf(ref, alice);
    catalog.getEntityByRef.mockRejectedValueOnce(new Error('catalog is down'));
    advance(65_000);
    await cache.linkOf(ref, alice);
    await settle();
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('catalog is down'));
    expect((await cache.linkOf(ref, alice))?.entityRef).toBe('component:default/checkout');
  });

  it('reads the catalog again once an answer is too old to serve', async () => {
    const { cache, catalog, advance, setEntity } = setup('all');
    await cache.linkOf(ref, alice);
    setEntity(checkout('moved'));
    advance(11 * 60_000);
    expect((await cache.linkOf(ref, alice))?.link.kubernetesId).toBe('moved');
    expect(catalog.getEntityByRef).toHaveBeenCalledTimes(2);
  });
});
