import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { readFleetConfig } from './readFleetConfig';

function read(data: object) {
  const logger = mockServices.logger.mock();
  const config = readFleetConfig(new ConfigReader(data, 'app-config.yaml'), logger);
  return { config, logger };
}

function problemOf(data: object): string {
  try {
    read(data);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('readFleetConfig', () => {
  it('reads every authentication form of fluxFleet.clusters', () => {
    const { config } = read({
      fluxFleet: {
        clusters: [
          {
            name: 'prod-eu-1',
            url: 'https://api.prod-eu-1:6443/',
            serviceAccountToken: 'secret',
            caData: 'LS0tLS1CRUdJTg==',
          },
          {
            name: 'dev',
            kubeconfig: { path: '/tmp/kubeconfig', context: 'dev' },
          },
          { name: 'here', inCluster: true },
          {
            name: 'certs',
            url: 'https://api.certs:6443',
            clientCert: { certFile: '/c.pem', keyData: 'a2V5' },
            skipTLSVerify: true,
          },
          { name: 'proxy', url: 'http://127.0.0.1:8001' },
        ],
      },
    });
    expect(
      config.clusters.map(c => [c.name, c.auth.type, c.url ?? null]),
    ).toEqual([
      ['prod-eu-1', 'serviceAccountToken', 'https://api.prod-eu-1:6443'],
      ['dev', 'kubeconfig', null],
      ['here', 'inCluster', null],
      ['certs', 'clientCert', 'https://api.certs:6443'],
      ['proxy', 'anonymous', 'http://127.0.0.1:8001'],
    ]);
    expect(config.clusters[1].auth).toEqual({
      type: 'kubeconfig',
      path: '/tmp/kubeconfig',
      context: 'dev',
    });
  });

  it("reads a cluster's environment, and leaves it out when not configured", () => {
    const { config } = read({
      fluxFleet: {
        clusters: [
          { name: 'eu-1', url: 'https://a', environment: ' production ' },
          { name: 'lab', url: 'https://b' },
        ],
      },
    });
    expect(config.clusters.map(c => [c.name, c.environment])).toEqual([
      ['eu-1', 'production'],
      ['lab', undefined],
    ]);
  });

  it('has defaults for every watch, analysis and persistence setting', () => {
    const { config } = read({});
    expect(config.clusters).toEqual([]);
    expect(config.watch).toMatchObject({
      pageSize: 500,
      bookmarks: true,
      watchTimeoutMs: 300_000,
      unreachableAfterMs: 15_000,
      events: true,
      listWorker: 'auto',
    });
    expect(config.analysis.debounceMs).toBe(50);
    expect(config.persistence.enabled).toBe(true);
    expect(config.heapGrowingPercentOnceSynced).toBe(50);
  });

  it('warns, naming the cluster, when TLS verification is off', () => {
    const { logger } = read({
      fluxFleet: {
        clusters: [
          {
            name: 'lab',
            url: 'https://lab:6443',
            serviceAccountToken: 't',
            skipTLSVerify: true,
          },
        ],
      },
    });
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringContaining("cluster 'lab' (fluxFleet.clusters[0].skipTLSVerify is true)"),
    );
  });

  it.each([
    [
      'a cluster without a way to reach it',
      { clusters: [{ name: 'prod' }] },
      "'fluxFleet.clusters[0]': cluster 'prod' needs 'url'",
    ],
    [
      'an environment that is no name',
      {
        clusters: [
          { name: 'a', url: 'https://a', environment: 'prod / eu' },
        ],
      },
      "'fluxFleet.clusters[0].environment': 'prod / eu' is not a usable environment for cluster 'a'",
    ],
    [
      'a duplicate name',
      {
        clusters: [
          { name: 'a', url: 'https://a', serviceAccountToken: 't' },
          { name: 'a', url: 'https://b', serviceAccountToken: 't' },
        ],
      },
      "'fluxFleet.clusters[1].name': the cluster name 'a' is already used by fluxFleet.clusters[0]",
    ],
    [
      'two ways to authenticate',
      {
        clusters: [
          {
            name: 'a',
            url: 'https://a',
            serviceAccountToken: 't',
            inCluster: true,
          },
        ],
      },
      "'fluxFleet.clusters[0]': cluster 'a' has 'serviceAccountToken' and 'inCluster'",
    ],
    [
      'a URL that is not one',
      { clusters: [{ name: 'a', url: 'api:6443', serviceAccountToken: 't' }] },
      "'fluxFleet.clusters[0].url': 'api:6443' should start with https://",
    ],
    [
      'a name with a slash',
      { clusters: [{ name: 'eu/1', url: 'https://a', serviceAccountToken: 't' }] },
      "'fluxFleet.clusters[0].name': 'eu/1' is not a usable cluster name",
    ],
    [
      'an empty token',
      { clusters: [{ name: 'a', url: 'https://a', serviceAccountToken: ' ' }] },
      "'fluxFleet.clusters[0].serviceAccountToken': is empty",
    ],
    [
      'a client certificate without its key',
      {
        clusters: [
          { name: 'a', url: 'https://a', clientCert: { certData: 'Y2VydA==' } },
        ],
      },
      "'fluxFleet.clusters[0].clientCert': give exactly one of 'keyData'",
    ],
    [
      'a PEM where base64 is expected',
      {
        clusters: [
          {
            name: 'a',
            url: 'https://a',
            serviceAccountToken: 't',
            caData: '-----BEGIN CERTIFICATE-----',
          },
        ],
      },
      "'fluxFleet.clusters[0].caData': should be the base64-encoded PEM",
    ],
    [
      'a tenant placeholder without a wildcard',
      { tenants: [{ namespace: 'payments', tenant: '{1}' }] },
      "'fluxFleet.tenants[0].tenant': '{1}' refers to {1}, but the namespace globs have no *",
    ],
    [
      'a negative timeout',
      { watch: { requestTimeoutSeconds: -1 } },
      "'fluxFleet.watch.requestTimeoutSeconds': should be a positive number of seconds, got -1",
    ],
    [
      'a heap growing percent out of range',
      { heapGrowingPercentOnceSynced: 1000 },
      "'fluxFleet.heapGrowingPercentOnceSynced': should be a whole number from 0 (leave V8's heap growing alone) to 400, got 1000",
    ],
    [
      'a page size of zero',
      { watch: { pageSize: 0 } },
      "'fluxFleet.watch.pageSize': should be a whole number from 1 to 10000, got 0",
    ],
    [
      'a list worker setting that is neither true, false nor auto',
      { watch: { listWorker: 'yes' } },
      `'fluxFleet.watch.listWorker': should be true, false or 'auto', got "yes"`,
    ],
  ])('refuses %s, naming the key', (_what, fluxFleet, message) => {
    expect(problemOf({ fluxFleet })).toContain(
      `Invalid Flux Fleet configuration at ${message}`,
    );
  });

  it("names the Backstage key of a value of the wrong type", () => {
    expect(
      problemOf({ fluxFleet: { clusters: [{ name: 7, url: 'https://a' }] } }),
    ).toContain("fluxFleet.clusters[0].name");
  });

  it('reads tenant rules with one glob or several', () => {
    const { config } = read({
      fluxFleet: {
        tenants: [
          { namespace: 'team-*', tenant: '{1}' },
          {
            namespaces: ['pay-*', 'billing'],
            tenant: 'payments',
            clusters: ['prod'],
            group: 'group:default/payments',
          },
        ],
      },
    });
    expect(config.tenants).toEqual([
      { namespaces: ['team-*'], tenant: '{1}' },
      {
        namespaces: ['pay-*', 'billing'],
        tenant: 'payments',
        clusters: ['prod'],
        group: 'group:default/payments',
      },
    ]);
  });

  describe('clusters of the Kubernetes plugin', () => {
    const kubernetes = {
      clusterLocatorMethods: [
        {
          type: 'config',
          clusters: [
            {
              name: 'shared',
              url: 'https://shared:6443',
              authProvider: 'serviceAccount',
              serviceAccountToken: 'k8s-token',
              caData: 'Q0E=',
            },
            {
              name: 'gke',
              url: 'https://gke',
              authProvider: 'google',
            },
            {
              name: 'meta',
              url: 'https://meta:6443',
              authMetadata: {
                'kubernetes.io/auth-provider': 'serviceAccount',
                serviceAccountToken: 'meta-token',
              },
            },
          ],
        },
        { type: 'catalog' },
      ],
    };

    it('are read so their users configure nothing twice', () => {
      const { config, logger } = read({ kubernetes });
      expect(config.clusters.map(c => [c.name, c.auth, c.caData])).toEqual([
        ['shared', { type: 'serviceAccountToken', token: 'k8s-token' }, 'Q0E='],
        ['meta', { type: 'serviceAccountToken', token: 'meta-token' }, undefined],
      ]);
      expect(logger.warn).toHaveBeenCalledWith(
        expect.stringContaining(
          "Kubernetes plugin cluster 'gke' (kubernetes.clusterLocatorMethods[0].clusters[1]): its authProvider is 'google'",
        ),
      );
    });

    it('give way to a cluster of the same name in fluxFleet.clusters', () => {
      const { config } = read({
        kubernetes,
        fluxFleet: {
          clusters: [
            { name: 'shared', url: 'https://own:6443', serviceAccountToken: 'own' },
          ],
        },
      });
      expect(config.clusters.map(c => [c.name, c.url])).toEqual([
        ['shared', 'https://own:6443'],
        ['meta', 'https://meta:6443'],
      ]);
    });

    it('are ignored when readKubernetesPluginClusters is false', () => {
      const { config } = read({
        kubernetes,
        fluxFleet: { readKubernetesPluginClusters: false },
      });
      expect(config.clusters).toEqual([]);
    });
  });
});
