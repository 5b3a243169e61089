import { ResponseError } from '@backstage/errors';
import { FluxFleetClient } from './FluxFleetClient';
import { objectQueryParams } from './objectQueryParams';

const ref = {
  cluster: 'prod-eu-1',
  namespace: 'team-payments',
  kind: 'HelmRelease' as const,
  name: 'payments api',
};

function client(respond: (url: string, init?: RequestInit) => Response) {
  const fetch = jest.fn(async (url: string, init?: RequestInit) =>
    respond(url, init),
  );
  return {
    fetch,
    client: new FluxFleetClient({
      discoveryApi: {
        getBaseUrl: async (pluginId: string) =>
          `http://backstage.test/api/${pluginId}`,
      },
      fetchApi: { fetch: fetch as any },
    }),
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    statusText: status === 200 ? 'OK' : 'Forbidden',
    headers: { 'Content-Type': 'application/json' },
  });

describe('FluxFleetClient', () => {
  it('reads a page of objects with the filters and the cursor in the query string', async () => {
    const { client: api, fetch } = client(() =>
      json({ items: [], totalCount: 0 }),
    );
    await api.getObjects({
      cluster: ['prod-eu-1', 'prod-us-1'],
      state: ['failed'],
      q: 'payments',
      limit: 100,
      cursor: 'opaque+cursor/=',
      shard: [],
    });
    expect(fetch).toHaveBeenCalledWith(
      'http://backstage.test/api/flux-fleet/objects?cluster=prod-eu-1%2Cprod-us-1&cursor=opaque%2Bcursor%2F%3D&limit=100&q=payments&state=failed',
      undefined,
    );
  });

  it('addresses an object by its escaped cluster/namespace/kind/name', async () => {
    const { client: api, fetch } = client(() => json({}));
    await api.getObject(ref);
    expect(fetch.mock.calls[0][0]).toBe(
      'http://backstage.test/api/flux-fleet/objects/prod-eu-1/team-payments/HelmRelease/payments%20api',
    );
  });

  it('posts actions, with force only when asked', async () => {
    const { client: api, fetch } = client(() =>
      json({ key: 'k', action: 'reconcile', handled: 'pending', message: '' }),
    );
    await api.reconcile(ref, { force: true });
    await api.reconcile(ref);
    await api.suspend(ref);
    await api.resume(ref);
    expect(
      fetch.mock.calls.map(([url, init]) => [
        url.replace('http://backstage.test/api/flux-fleet', ''),
        init?.method,
        init?.body,
      ]),
    ).toEqual([
      [
        '/objects/prod-eu-1/team-payments/HelmRelease/payments%20api/reconcile',
        'POST',
        '{"force":true}',
      ],
      [
        '/objects/prod-eu-1/team-payments/HelmRelease/payments%20api/reconcile',
        'POST',
        '{}',
      ],
      [
        '/objects/prod-eu-1/team-payments/HelmRelease/payments%20api/suspend',
        'POST',
        '{}',
      ],
      [
        '/objects/prod-eu-1/team-payments/HelmRelease/payments%20api/resume',
        'POST',
        '{}',
      ],
    ]);
  });

  it('reads the lists of the fleet page from their routes', async () => {
    const { client: api, fetch } = client(() => json({ items: [] }));
    await api.getClusters();
    await api.getInstances({ cluster: 'prod-eu-1' });
    await api.getShards({ cluster: 'prod-eu-1', instance: 'flux-system' });
    await api.getTenants();
    await api.getFindings({ type: ['orphan', 'contested'] });
    await api.getEntityView({
      kind: 'Component',
      namespace: 'default',
      name: 'payments',
    });
    expect(
      fetch.mock.calls.map(([url]) =>
        url.replace('http://backstage.test/api/flux-fleet', ''),
      ),
    ).toEqual([
      '/clusters',
      '/instances?cluster=prod-eu-1',
      '/shards?cluster=prod-eu-1&instance=flux-system',
      '/tenants',
      '/findings?type=orphan%2Ccontested',
      '/entity/Component/default/payments',
    ]);
  });

  it("throws a ResponseError carrying the backend's own message", async () => {
    const { client: api } = client(() =>
      json(
        {
          error: {
            name: 'NotAllowedError',
            message: 'the credentials for cluster prod-eu-1 are read-only',
          },
          response: { statusCode: 403 },
        },
        403,
      ),
    );
    const error = await api.suspend(ref).catch(e => e);
    expect(ResponseError.is(error)).toBe(true);
    expect(error.statusCode).toBe(403);
    expect(error.cause.message).toBe(
      'the credentials for cluster prod-eu-1 are read-only',
    );
  });
});

describe('objectQueryParams', () => {
  it('gives the same query string for the same query, whatever the order of its fields', () => {
    expect(
      objectQueryParams({ state: ['failed'], cluster: ['a'] }).toString(),
    ).toBe(objectQueryParams({ cluster: ['a'], state: ['failed'] }).toString());
  });

  it('leaves out empty filters', () => {
    expect(
      objectQueryParams({ cluster: [], q: '', cursor: undefined }).toString(),
    ).toBe('');
  });
});
