import { benchBackendConfig } from './backendConfig';

const clusters = [
  {
    name: 'prod-1',
    server: 'https://127.0.0.1:4001',
    caData: 'Q0E=',
    adminToken: 'admin-1',
    readOnlyToken: 'ro-1',
  },
  {
    name: 'dev-2',
    server: 'http://127.0.0.1:4002',
    adminToken: 'admin-2',
    readOnlyToken: 'ro-2',
  },
];

describe('benchBackendConfig', () => {
  const config = benchBackendConfig({
    port: 7047,
    apiToken: 'secret',
    kubeconfigPath: '/tmp/kubeconfig',
    clusters,
    catalogFile: '/tmp/components.yaml',
  }) as any;

  it('gives Flux Fleet the admin contexts of the kubeconfig and the Kubernetes plugin the read-only tokens', () => {
    expect(config.fluxFleet.clusters).toEqual([
      {
        name: 'prod-1',
        kubeconfig: { path: '/tmp/kubeconfig', context: 'prod-1' },
      },
      {
        name: 'dev-2',
        kubeconfig: { path: '/tmp/kubeconfig', context: 'dev-2' },
      },
    ]);
    const located = config.kubernetes.clusterLocatorMethods[0].clusters;
    expect(
      located.map((c: any) => [c.name, c.url, c.serviceAccountToken]),
    ).toEqual([
      ['prod-1', 'https://127.0.0.1:4001', 'ro-1'],
      ['dev-2', 'http://127.0.0.1:4002', 'ro-2'],
    ]);
    expect(JSON.stringify(config.kubernetes)).not.toContain('admin-');
  });

  it('verifies TLS with the simulator CA, and skips verification only for plain HTTP clusters', () => {
    const [https, http] = config.kubernetes.clusterLocatorMethods[0].clusters;
    expect(https).toMatchObject({ caData: 'Q0E=' });
    expect(https.skipTLSVerify).toBeUndefined();
    expect(http).toMatchObject({ skipTLSVerify: true });
  });

  it('asks the Kubernetes plugin for the Flux kinds of the community Flux cards, at GA versions', () => {
    expect(
      config.kubernetes.customResources.map(
        (r: any) => `${r.plural}.${r.group}/${r.apiVersion}`,
      ),
    ).toEqual([
      'helmreleases.helm.toolkit.fluxcd.io/v2',
      'kustomizations.kustomize.toolkit.fluxcd.io/v1',
      'helmrepositories.source.toolkit.fluxcd.io/v1',
      'ocirepositories.source.toolkit.fluxcd.io/v1',
      'gitrepositories.source.toolkit.fluxcd.io/v1',
    ]);
  });

  it('lets the static token call the three plugins the benchmark measures', () => {
    expect(config.backend.auth.externalAccess).toEqual([
      expect.objectContaining({
        options: { token: 'secret', subject: 'flux-fleet-bench' },
        accessRestrictions: [
          { plugin: 'flux-fleet' },
          { plugin: 'catalog' },
          { plugin: 'kubernetes' },
        ],
      }),
    ]);
  });
});
