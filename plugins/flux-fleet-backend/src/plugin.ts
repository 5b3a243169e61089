import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import { signalsServiceRef } from '@backstage/plugin-signals-node';
import { actionsRegistryServiceRef } from '@backstage/backend-plugin-api/alpha';
import { registerFluxFleetActions } from './mcp/registerFluxFleetActions';
import { createRouter } from './router';
import { createLimiter, openingWhen } from './watch/createLimiter';
import { createClusterClients, createListWorker, createWatcher } from './watch/startWatching';
import { FleetPersistence } from './persistence/FleetPersistence';
import { fleetRuntimeServiceRef } from './index/fleetIndexServiceFactory';
import { FleetSignals } from './signals/FleetSignals';
import { fluxFleetPermissions } from '@flux-fleet/plugin-flux-fleet-common';
import { fluxObjectResourceRef, fluxObjectRules } from './permissions/fluxObjectRules';
import { ReadAccess } from './permissions/ReadAccess';
import { ActionAccess } from './permissions/ActionAccess';
import { ObjectOwnership } from './permissions/ObjectOwnership';
import { ClusterWriter } from './actions/ClusterWriter';
import { FluxActions } from './actions/FluxActions';
import { WriteAccess } from './actions/WriteAccess';
import { CapacityCollector } from './capacity/CapacityCollector';
import { CapacityAnswers } from './api/CapacityAnswers';
import { createVerdictWatch } from './api/capacityVerdictSignals';

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
        rootLifecycle: coreServices.rootLifecycle,
        database: coreServices.database,
        permissions: coreServices.permissions,
        permissionsRegistry: coreServices.permissionsRegistry,
        httpAuth: coreServices.httpAuth,
        scheduler: coreServices.scheduler,
        httpRouter: coreServices.httpRouter,
        auth: coreServices.auth,
        auditor: coreServices.auditor,
        runtime: fleetRuntimeServiceRef,
        catalog: catalogServiceRef,
        signals: signalsServiceRef,
        actionsRegistry: actionsRegistryServiceRef,
        discovery: coreServices.discovery,
      },
      async init({
        logger,
        lifecycle,
        rootLifecycle,
        database,
        permissions,
        permissionsRegistry,
        httpAuth,
        scheduler,
        httpRouter,
        auth,
        auditor,
        runtime,
        catalog,
        signals,
        actionsRegistry,
        discovery,
      }) {
        const { index, clusters: fleetClusters, config } = runtime;
        const ownership = new ObjectOwnership(catalog, auth, index, logger);
        permissionsRegistry.addResourceType({
          resourceRef: fluxObjectResourceRef,
          permissions: fluxFleetPermissions,
          rules: Object.values(fluxObjectRules),
          // the permission framework applies a policy's conditions to these (the frontend's usePermission)
          getResources: async keys => {
            await ownership.refresh();
            return keys.map(key => {
              const object = index.object(key);
              return (
                object && {
                  ...object,
                  ownedBy: ownership.ownersOf({
                    key,
                    service: object.service,
                    tenant: object.boundary.tenant,
                  }),
                }
              );
            });
          },
        });
        const fleetSignals = new FleetSignals(signals, logger, index);
        const unsubscribe = index.subscribe(changes =>
          fleetSignals.onChanges(changes),
        );
        // a cluster whose configuration is wrong (missing kubeconfig file…) stops start-up here, naming the key
        const clients = createClusterClients(config);
        // actions write with the credentials the watches read with
        const writers = new Map(
          [...clients.values()].map(client => [
            client.cluster,
            new ClusterWriter(client.cluster, client.kubeConfig, config.watch.requestTimeoutMs),
          ]),
        );
        const writeAccess = new WriteAccess(writers, logger);
        writeAccess.start();
        const actions = new FluxActions({
          index,
          writers,
          writeAccess,
          onActing: key => fleetSignals.objectViewed(key),
        });
        // controller metrics for the capacity figures; after each round a changed verdict is signalled
        let onCollected = () => {};
        // with persistence, each cluster is collected by the replica watching it, which hands the figures over
        let persistence: FleetPersistence | undefined;
        const capacity = new CapacityCollector({
          settings: config.capacity,
          directory: index,
          clients,
          logger,
          onCollected: () => {
            onCollected();
            void persistence?.publishCapacity();
          },
          collects: cluster => persistence?.watches(cluster) ?? true,
          listed: cluster => index.clusterStatus(cluster) !== 'syncing',
          firstSync: () => index.firstSyncProgress(),
          firstSyncOver: index.ready(),
        });
        const capacityAnswers = new CapacityAnswers(index, capacity);
        // the shard-over-capacity finding uses measured utilisation where there is some
        fleetClusters.useMeasuredUtilisation(cluster => capacityAnswers.measuredUtilisation(cluster));
        const watchVerdicts = createVerdictWatch(
          {
            clusterNames: () => index.clusterNames(),
            reportOf: cluster => capacityAnswers.report({ cluster }),
          },
          changed => fleetSignals.capacityChanged(changed),
        );
        onCollected = () => {
          watchVerdicts().catch(error =>
            logger.warn(`Flux Fleet could not compare capacity verdicts: ${error}`),
          );
        };
        await capacity.start(scheduler);
        // Mounted before the snapshots are restored: requests wait until this init ends (Backstage's lifecycle
        // gate), and the restart's critical path is shorter by the router's creation (0.1-0.2 s at start).
        httpRouter.use(
          await createRouter({
            httpAuth,
            auth,
            lifecycle,
            fleetIndex: index,
            catalog,
            signals: fleetSignals,
            readAccess: new ReadAccess(permissions, permissionsRegistry),
            logger,
            auditor,
            ownership,
            actionAccess: new ActionAccess(permissions, permissionsRegistry),
            actions,
            writeAccess,
            capacity: capacityAnswers,
          }),
        );
        // The lists wait until every plugin of the backend has started (readiness): read alongside the others'
        // start on the same thread, they held all of Backstage back at fleet L (ready 31.0 and 37.6 s after start in
        // the two `make bench --size L` runs of 2026-12-08, the app plugin's start alone 27 s). Discovery and the
        // restored snapshots do not wait; the watches follow their lists.
        const backendStarted = new Promise<void>(resolve => rootLifecycle.addStartupHook(resolve));
        const limitList = openingWhen(backendStarted, createLimiter(config.watch.concurrentLists));
        const listWorker = createListWorker(config, logger);
        const watch = (cluster: string) =>
          createWatcher(clients.get(cluster)!, config, fleetClusters, logger, limitList, listWorker);

        let stopWatching: () => Promise<void>;
        if (config.persistence.enabled) {
          const started = new FleetPersistence({
            database,
            clusters: fleetClusters,
            settings: config.persistence,
            logger,
            watch,
            ...(config.capacity.enabled && {
              capacity: { source: capacity, imported: () => onCollected() },
            }),
          });
          await started.start();
          persistence = started;
          stopWatching = () => started.stop();
        } else {
          const watchers = [...clients.keys()].map(watch);
          stopWatching = async () => {
            for (const watcher of watchers) watcher.stop();
          };
        }
        lifecycle.addShutdownHook(async () => {
          // signals first: the signals service is already shutting down, and the last snapshot write below takes
          // seconds at fleet M while the watches still deliver (each publish warned 'Service is shutting down')
          unsubscribe();
          fleetSignals.close();
          capacity.stop();
          writeAccess.stop();
          await stopWatching();
          listWorker?.close();
        });

        // the same answers as actions for assistants (MCP) and scripts, through the REST API above
        registerFluxFleetActions({ actionsRegistry, auth, discovery });
      },
    });
  },
});
