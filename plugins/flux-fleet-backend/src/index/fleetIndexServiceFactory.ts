import {
  coreServices,
  createServiceFactory,
  createServiceRef,
} from '@backstage/backend-plugin-api';
import { fleetIndexServiceRef } from '@flux-fleet/plugin-flux-fleet-node';
import type { FleetConfig } from '../config/FleetConfig';
import { readFleetConfig } from '../config/readFleetConfig';
import { growHeapOnceSynced } from './heapGrowth';
import { FleetClusters } from './FleetClusters';
import { FleetIndex } from './FleetIndex';

/**
 * The fleet index with the configuration it was built from, for the plugin that fills it: `clusters`, the
 * writable side the watchers and persistence feed, and `index`, the read-only facade over it.
 */
export interface FleetRuntime {
  config: FleetConfig;
  clusters: FleetClusters;
  index: FleetIndex;
}

/**
 * The writable fleet index, shared (root scope) between the Flux Fleet plugin, which fills it, and
 * {@link fleetIndexServiceFactory}, which hands other plugins its read-only side. Internal to this package.
 */
export const fleetRuntimeServiceRef = createServiceRef<FleetRuntime>({
  id: 'flux-fleet.runtime',
  scope: 'root',
  defaultFactory: async service =>
    createServiceFactory({
      service,
      deps: {
        config: coreServices.rootConfig,
        logger: coreServices.rootLogger,
        lifecycle: coreServices.rootLifecycle,
      },
      factory({ config, logger, lifecycle }) {
        const pluginLogger = logger.child({ plugin: 'flux-fleet' });
        // bad configuration stops start-up here, with a message naming the key
        const fleetConfig = readFleetConfig(config, pluginLogger);
        const clusters = new FleetClusters({
          clusters: fleetConfig.clusters.map(c => c.name),
          tenants: fleetConfig.tenants,
          analysis: fleetConfig.analysis,
          eventsPerObject: fleetConfig.watch.eventsPerObject,
          logger: pluginLogger,
          environments: new Map(
            fleetConfig.clusters.flatMap(c => (c.environment ? [[c.name, c.environment] as const] : [])),
          ),
        });
        const heapGrowth = growHeapOnceSynced({
          percent: fleetConfig.heapGrowingPercentOnceSynced,
          ready: clusters.ready(),
          logger: pluginLogger,
        });
        lifecycle.addShutdownHook(() => {
          heapGrowth.stop();
          clusters.close();
        });
        return { config: fleetConfig, clusters, index: new FleetIndex(clusters, fleetConfig.tenants) };
      },
    }),
});

/**
 * Provides `fleetIndexServiceRef`: the fleet-wide index of Flux objects, read by the Flux Fleet API and by other
 * plugins such as the catalog module. Installed with the plugin by the package's default export.
 */
export const fleetIndexServiceFactory = createServiceFactory({
  service: fleetIndexServiceRef,
  deps: { runtime: fleetRuntimeServiceRef },
  factory({ runtime }) {
    return runtime.index;
  },
});
