/**
 * The app-config the benchmark adds to `app-config.yaml` to run the product (packages/backend) on the simulated
 * fleet, with the Kubernetes plugin's backend configured on the same clusters.
 */
import type { SimulatedCluster } from '../kubeconfig';

/**
 * The Flux kinds the community Flux plugin's entity cards query through the Kubernetes backend
 * (`EntityFluxDeploymentsCard`: HelmRelease and Kustomization; `EntityFluxSourcesCard`: GitRepository,
 * OCIRepository, HelmRepository). That plugin pins beta versions that Flux 2.7+ no longer serves
 * (`helm.toolkit.fluxcd.io/v2beta1`…): here each kind is at its GA version, which every simulated Flux release
 * serves except OCIRepository `v1` on Flux 2.4–2.5 (404 there, as such a configuration gets on a real fleet).
 */
export const FLUX_CUSTOM_RESOURCES = {
  deployments: [
    {
      group: 'helm.toolkit.fluxcd.io',
      apiVersion: 'v2',
      plural: 'helmreleases',
    },
    {
      group: 'kustomize.toolkit.fluxcd.io',
      apiVersion: 'v1',
      plural: 'kustomizations',
    },
  ],
  sources: [
    {
      group: 'source.toolkit.fluxcd.io',
      apiVersion: 'v1',
      plural: 'helmrepositories',
    },
    {
      group: 'source.toolkit.fluxcd.io',
      apiVersion: 'v1',
      plural: 'ocirepositories',
    },
    {
      group: 'source.toolkit.fluxcd.io',
      apiVersion: 'v1',
      plural: 'gitrepositories',
    },
  ],
};

/** Everything the benchmark's backend needs beyond `app-config.yaml`. */
export interface BenchBackendSettings {
  port: number;
  /** The static token of `backend.auth.externalAccess` (`FLUX_FLEET_API_TOKEN` in app-config.yaml). */
  apiToken: string;
  /** The simulator's kubeconfig: Flux Fleet reads each cluster through it (admin context), like `make start`. */
  kubeconfigPath: string;
  clusters: SimulatedCluster[];
  /** A catalog file with the Components whose entity pages are viewed. */
  catalogFile: string;
}

/**
 * The app-config overlay (a JSON document, which is YAML). It keeps the product as `make start` runs it, with
 * three differences, each for the measurement: the catalog holds the fleet's clusters, instances and shards but
 * not a Resource per Flux object (at fleet M that ingest keeps the catalog busy for minutes, which would load the
 * machine under every other figure; the catalog module has its own benchmark), the static token may also call the
 * Kubernetes plugin, and `kubernetes` is configured the way the Kubernetes and community Flux plugins document it,
 * reading every cluster with its read-only token (so the simulator can tell its requests from Flux Fleet's).
 */
export function benchBackendConfig(
  settings: BenchBackendSettings,
): Record<string, unknown> {
  const { port } = settings;
  return {
    app: { baseUrl: `http://localhost:${port}` },
    backend: {
      baseUrl: `http://localhost:${port}`,
      listen: { port, host: '127.0.0.1' },
      cors: { origin: `http://localhost:${port}` },
      auth: {
        externalAccess: [
          {
            type: 'static',
            options: { token: settings.apiToken, subject: 'flux-fleet-bench' },
            accessRestrictions: [
              { plugin: 'flux-fleet' },
              { plugin: 'catalog' },
              { plugin: 'kubernetes' },
            ],
          },
        ],
      },
    },
    catalog: {
      providers: { fluxFleet: { kinds: [] } },
      locations: [{ type: 'file', target: settings.catalogFile }],
    },
    fluxFleet: {
      clusters: settings.clusters.map(c => ({
        name: c.name,
        kubeconfig: { path: settings.kubeconfigPath, context: c.name },
      })),
    },
    kubernetes: {
      serviceLocatorMethod: { type: 'multiTenant' },
      clusterLocatorMethods: [
        {
          type: 'config',
          clusters: settings.clusters.map(c => ({
            name: c.name,
            url: c.server,
            authProvider: 'serviceAccount',
            serviceAccountToken: c.readOnlyToken,
            ...(c.caData ? { caData: c.caData } : { skipTLSVerify: true }),
            // as the community Flux plugin's README configures it: no metrics-server to ask
            skipMetricsLookup: true,
          })),
        },
      ],
      customResources: [
        ...FLUX_CUSTOM_RESOURCES.deployments,
        ...FLUX_CUSTOM_RESOURCES.sources,
      ],
    },
  };
}
