import type {
  AuditorService,
  AuthService,
  HttpAuthService,
  LifecycleService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { InputError, NotFoundError } from '@backstage/errors';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import {
  ANNOTATIONS,
  checkEntityLabelSelector,
  EntityView,
  FleetObject,
  fluxObjectKey,
} from '@flux-fleet/plugin-flux-fleet-common';
import express from 'express';
import Router from 'express-promise-router';
import { EntityLinkCache } from './api/EntityLinkCache';
import type { FleetIndexService, IndexedObjectFacts } from '@flux-fleet/plugin-flux-fleet-node';
import { buildEntityView, entityViewJson } from './api/entityView';
import { buildOpenApiDocument } from './schema/openApiDocument';
import {
  entityPathSchema,
  entityQuerySchema,
  MAX_ENTITY_OBJECTS,
  findingsQuerySchema,
  instancesQuerySchema,
  malformedQuerySchema,
  noQuerySchema,
  objectPathSchema,
  objectQuerySchema,
  parseInput,
  shardsQuerySchema,
} from './schema/requestSchemas';
import type { FleetSignals } from './signals/FleetSignals';
import { fieldOf, FluxObjectField } from './permissions/fluxObjectRules';
import type { ReadAccess, ReadFilter } from './permissions/ReadAccess';
import { addActionRoutes } from './actions/actionRoutes';
import type { FluxActions } from './actions/FluxActions';
import type { WriteAccess } from './actions/WriteAccess';
import type { ActionAccess } from './permissions/ActionAccess';
import type { ObjectOwnership } from './permissions/ObjectOwnership';
import type { CapacityAnswers } from './api/CapacityAnswers';
import { addCapacityRoutes } from './api/capacityRoutes';
import { sendJson, sendValue } from './api/sendJson';

/** What the router needs. */
export interface RouterOptions {
  httpAuth: HttpAuthService;
  auth: AuthService;
  /** Stops the entity link cache's timer at shutdown. */
  lifecycle?: LifecycleService;
  fleetIndex: FleetIndexService;
  catalog: CatalogService;
  signals: FleetSignals;
  readAccess: ReadAccess;
  logger: LoggerService;
  auditor: AuditorService;
  /** Who owns each object, for the `IS_OWNED_BY` rule. */
  ownership: ObjectOwnership;
  actionAccess: ActionAccess;
  actions: FluxActions;
  writeAccess: WriteAccess;
  /** The answers of the capacity routes (the index joined with the collector's measurements). */
  capacity: CapacityAnswers;
}

/** A read filter over indexed objects. */
function indexedFilter(filter: ReadFilter | undefined, ownership: ObjectOwnership) {
  if (!filter) return undefined;
  return (o: IndexedObjectFacts) =>
    filter((field: FluxObjectField) => {
      switch (field) {
        case 'cluster':
          return o.cluster;
        case 'namespace':
          return o.namespace;
        case 'tenant':
          return o.boundary.tenant;
        case 'owner':
          return ownership.ownersOf({ key: o.key, service: o.service, tenant: o.boundary.tenant });
        default:
          return o.service;
      }
    });
}

/**
 * The REST API under `/api/flux-fleet` (docs/api.md): every route requires Backstage credentials, validates its
 * input, and answers from the fleet index; errors are Backstage error types, which name the cluster and object.
 * Routes that return Flux objects (objects, an object, an entity's objects, findings) leave out what the
 * caller may not read (`flux-fleet.object.read`); the aggregate routes (clusters, summary, instances, shards,
 * tenants) show counts and structure to every signed-in caller.
 */
export async function createRouter(options: RouterOptions): Promise<express.Router> {
  const { httpAuth, auth, fleetIndex, catalog, signals, readAccess, ownership, writeAccess, logger } =
    options;
  /** What the caller may read of Flux objects (`flux-fleet.object.read`); undefined: everything. */
  const readFilter = async (req: express.Request) => {
    const filter = await readAccess.filterFor(await httpAuth.credentials(req));
    // a policy may condition reads on ownership: know the owners before filtering
    if (filter) await ownership.refresh();
    return filter;
  };
  const readable = (filter: ReadFilter | undefined, o: FleetObject) =>
    !filter ||
    filter(field =>
      fieldOf(o, field, () =>
        ownership.ownersOf({ key: o.key, service: o.service, tenant: o.boundary.tenant }),
      ),
    );
  /** Cluster health with whether its credentials may write. */
  const clusters = () => fleetIndex.clusters().map(c => writeAccess.withReadOnly(c));
  const links = new EntityLinkCache({
    catalog,
    auth,
    access: readAccess,
    logger,
    onChange: (entityRef, link) => signals.entityLinkChanged(entityRef, link),
  });
  options.lifecycle?.addShutdownHook(() => links.close());
  // built on its first request: 30 ms of the plugin's start, on a restart's critical path (issue 11)
  let openApi: object | undefined;
  const router = Router();
  router.use(express.json());

  // httpAuth.credentials throws AuthenticationError (401) when the caller sent none
  router.use(async (req, _res, next) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    next();
  });

  router.get('/openapi.json', async (_req, res) => {
    // static: express's ETag lets clients cache it
    openApi ??= buildOpenApiDocument();
    res.json(openApi);
  });

  router.get('/clusters', async (req, res) => {
    parseInput(noQuerySchema, req.query, 'query');
    sendValue(req, res, { items: clusters() });
  });

  router.get('/summary', async (req, res) => {
    parseInput(noQuerySchema, req.query, 'query');
    sendValue(req, res, fleetIndex.summary());
  });

  router.get('/instances', async (req, res) => {
    const query = parseInput(instancesQuerySchema, req.query, 'query');
    requireCluster(fleetIndex, query.cluster);
    sendValue(req, res, { items: fleetIndex.instances(query.cluster) });
  });

  router.get('/shards', async (req, res) => {
    const query = parseInput(shardsQuerySchema, req.query, 'query');
    requireCluster(fleetIndex, query.cluster);
    const items = fleetIndex
      .shards(query.cluster)
      .filter(s => !query.instance || s.instance === query.instance);
    sendValue(req, res, { items });
  });

  router.get('/tenants', async (req, res) => {
    parseInput(noQuerySchema, req.query, 'query');
    sendValue(req, res, { items: fleetIndex.tenants() });
  });

  router.get('/objects', async (req, res) => {
    const query = parseInput(objectQuerySchema, req.query, 'query');
    const filter = indexedFilter(await readFilter(req), ownership);
    sendJson(req, res, fleetIndex.objectsJson?.(query, filter) ?? JSON.stringify(fleetIndex.objects(query, filter)));
  });

  router.get('/objects/:cluster/:namespace/:kind/:name', async (req, res) => {
    const path = parseInput(objectPathSchema, req.params, 'object path');
    requireCluster(fleetIndex, path.cluster);
    const key = fluxObjectKey(path.cluster, path.namespace, path.kind, path.name);
    const filter = await readFilter(req);
    const detail = fleetIndex.objectDetail(key);
    // an object the caller may not read is answered as one that does not exist
    if (!detail || !readable(filter, detail)) {
      throw new NotFoundError(
        `Cluster '${path.cluster}' has no ${path.kind} ${path.namespace}/${path.name} (as of the index; it may have been deleted)`,
      );
    }
    signals.objectViewed(key);
    sendValue(req, res, detail);
  });

  // A catalog entity's Flux objects across clusters, answered from the index (rules §6).
  router.get('/entity/:kind/:namespace/:name', async (req, res) => {
    const path = parseInput(entityPathSchema, req.params, 'entity path');
    const credentials = await httpAuth.credentials(req);
    const entity = await links.linkOf(path, credentials);
    if (!entity) {
      throw new NotFoundError(
        `The catalog has no entity ${path.kind}:${path.namespace}/${path.name}`,
      );
    }
    const query = parseInput(entityQuerySchema, req.query, 'query');
    const selector = entity.link.labelSelector;
    const selectorProblem = selector === undefined ? undefined : checkEntityLabelSelector(selector).error;
    if (selectorProblem !== undefined) {
      // never the whole fleet, nor silently nothing: the entity's page shows this message
      throw new InputError(
        `Entity ${entity.entityRef}: annotation ${ANNOTATIONS.kubernetesLabelSelector}: ${selectorProblem}`,
      );
    }
    const filter = await readFilter(req);
    const limit = query.limit ?? MAX_ENTITY_OBJECTS;
    const fleet = { clusters: clusters(), instances: (cluster: string) => fleetIndex.instances(cluster) };
    if (fleetIndex.entityObjectsJson) {
      const found = fleetIndex.entityObjectsJson(entity.link, limit, indexedFilter(filter, ownership));
      signals.entityViewed(entity.entityRef, entity.link);
      sendJson(req, res, entityViewJson(entity, found, fleet));
      return;
    }
    const all = fleetIndex.entityObjects(entity.link).filter(o => readable(filter, o));
    const view: EntityView = {
      ...buildEntityView(entity, all.slice(0, limit), fleet),
      totalCount: all.length,
    };
    signals.entityViewed(entity.entityRef, entity.link);
    sendValue(req, res, view);
  });

  // Objects malformed as read (skipped, or read with problems); a restricted reader sees the read ones it may read.
  router.get('/malformed', async (req, res) => {
    const query = parseInput(malformedQuerySchema, req.query, 'query');
    requireCluster(fleetIndex, query.cluster);
    const filter = await readFilter(req);
    const items = (fleetIndex.malformed?.(query.cluster) ?? []).filter(m => {
      if (!filter) return true;
      const o = m.key === undefined ? undefined : fleetIndex.object(m.key);
      return o !== undefined && readable(filter, o);
    });
    sendValue(req, res, { items });
  });

  router.get('/versions', async (req, res) => {
    parseInput(noQuerySchema, req.query, 'query');
    sendValue(req, res, fleetIndex.versions());
  });

  router.get('/findings', async (req, res) => {
    const query = parseInput(findingsQuerySchema, req.query, 'query');
    requireCluster(fleetIndex, query.cluster);
    const filter = await readFilter(req);
    const items = fleetIndex.findings(query).filter(f => {
      if (!filter || !f.object) return true;
      const o = fleetIndex.object(
        fluxObjectKey(f.object.cluster, f.object.namespace, f.object.kind, f.object.name),
      );
      return o !== undefined && readable(filter, o);
    });
    sendValue(req, res, { items });
  });

  addCapacityRoutes(router, options.capacity, sendValue);

  addActionRoutes(router, {
    httpAuth,
    auditor: options.auditor,
    readAccess,
    actionAccess: options.actionAccess,
    ownership,
    actions: options.actions,
    object: key => fleetIndex.object(key),
    clusterNames: () => fleetIndex.clusterNames(),
  });

  return router;
}

function requireCluster(index: FleetIndexService, cluster: string | undefined) {
  if (cluster !== undefined && !index.clusterNames().includes(cluster)) {
    throw new NotFoundError(
      `Flux Fleet watches no cluster named '${cluster}' (it watches: ${
        index.clusterNames().join(', ') || 'none'
      })`,
    );
  }
}
