import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import { signalsServiceRef } from '@backstage/plugin-signals-node';
import { createRouter } from './router';
import { startWatching } from './cluster/startWatching';
import { fleetRuntimeServiceRef } from './service/fleetIndexServiceFactory';
import { FleetSignals } from './signals/FleetSignals';

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
        httpAuth: coreServices.httpAuth,
        httpRouter: coreServices.httpRouter,
        runtime: fleetRuntimeServiceRef,
        catalog: catalogServiceRef,
        signals: signalsServiceRef,
      },
      async init({
        logger,
        lifecycle,
        httpAuth,
        httpRouter,
        runtime,
        catalog,
        signals,
      }) {
        const { index, config } = runtime;
        const fleetSignals = new FleetSignals(signals, logger, index);
        const unsubscribe = index.subscribe(changes =>
          fleetSignals.onChanges(changes),
        );
        // a cluster whose configuration is wrong (missing kubeconfig file…) stops start-up here, naming the key
        const watchers = startWatching(config, index, logger);
        lifecycle.addShutdownHook(() => {
          for (const watcher of watchers) watcher.stop();
          unsubscribe();
          fleetSignals.close();
        });

        httpRouter.use(
          await createRouter({
            httpAuth,
            fleetIndex: index,
            catalog,
            signals: fleetSignals,
            logger,
          }),
        );
      },
    });
  },
});
