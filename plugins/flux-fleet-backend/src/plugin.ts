import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import { signalsServiceRef } from '@backstage/plugin-signals-node';
import { createRouter } from './router';
import { createLimiter } from './cluster/createLimiter';
import { createClusterClients, createWatcher } from './cluster/startWatching';
import { FleetPersistence } from './persistence/FleetPersistence';
import { fleetRuntimeServiceRef } from './service/fleetIndexServiceFactory';
import { FleetSignals } from './signals/FleetSignals';
import { fluxFleetPermissions } from '@flux-fleet/plugin-flux-fleet-common';
import { fluxObjectResourceRef, fluxObjectRules } from './permissions/fluxObjectRules';
import { ReadAccess } from './permissions/ReadAccess';

/**
 * The Flux Fleet backend plugin: watches every configured cluster into the fleet index, publishes its changes as
 * Backstage signals, and serves the index under `/api/flux-fleet`.
 *
 * @public
 */
export const fluxFleetPlugin = createBackendPlugin({
  pluginId: 'flux-fleet',
  register(env) {
    env.registerInit({
      deps: {
        logger: coreServices.logger,
        lifecycle: coreServices.lifecycle,
        database: coreServices.database,
        permissions: coreServices.permissions,
        permissionsRegistry: coreServices.permissionsRegistry,
        httpAuth: coreServices.httpAuth,
        httpRouter: coreServices.httpRouter,
        runtime: fleetRuntimeServiceRef,
        catalog: catalogServiceRef,
        signals: signalsServiceRef,
      },
      async init({
        logger,
        lifecycle,
        database,
        permissions,
        permissionsRegistry,
        httpAuth,
        httpRouter,
        runtime,
        catalog,
        signals,
      }) {
        const { index, config } = runtime;
        permissionsRegistry.addResourceType({
          resourceRef: fluxObjectResourceRef,
          permissions: fluxFleetPermissions,
          rules: Object.values(fluxObjectRules),
          getResources: async keys => keys.map(key => index.object(key)),
        });
        const fleetSignals = new FleetSignals(signals, logger, index);
        const unsubscribe = index.subscribe(changes =>
          fleetSignals.onChanges(changes),
        );
        // a cluster whose configuration is wrong (missing kubeconfig file…) stops start-up here, naming the key
        const clients = createClusterClients(config);
        const limitList = createLimiter(config.watch.concurrentLists);
        const watch = (cluster: string) =>
          createWatcher(clients.get(cluster)!, config, index, logger, limitList);

        let stopWatching: () => Promise<void>;
        if (config.persistence.enabled) {
          const persistence = new FleetPersistence({
            database,
            index,
            settings: config.persistence,
            logger,
            watch,
          });
          await persistence.start();
          stopWatching = () => persistence.stop();
        } else {
          const watchers = [...clients.keys()].map(watch);
          stopWatching = async () => {
            for (const watcher of watchers) watcher.stop();
          };
        }
        lifecycle.addShutdownHook(async () => {
          await stopWatching();
          unsubscribe();
          fleetSignals.close();
        });

        httpRouter.use(
          await createRouter({
            httpAuth,
            fleetIndex: index,
            catalog,
            signals: fleetSignals,
            readAccess: new ReadAccess(permissions, permissionsRegistry),
            logger,
          }),
        );
      },
    });
  },
});
