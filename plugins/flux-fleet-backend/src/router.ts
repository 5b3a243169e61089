import type {
  HttpAuthService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { NotFoundError } from '@backstage/errors';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import {
  EntityView,
  fluxObjectKey,
} from '@flux-fleet/plugin-flux-fleet-common';
import express from 'express';
import Router from 'express-promise-router';
import { EntityLinkCache } from './service/EntityLinkCache';
import type { FleetIndex } from './service/FleetIndex';
import { buildOpenApiDocument } from './schema/openApiDocument';
import {
  entityPathSchema,
  findingsQuerySchema,
  instancesQuerySchema,
  noQuerySchema,
  objectPathSchema,
  objectQuerySchema,
  parseInput,
  shardsQuerySchema,
} from './schema/requestSchemas';
import type { FleetSignals } from './signals/FleetSignals';

/** What the router needs. */
export interface RouterOptions {
  httpAuth: HttpAuthService;
  fleetIndex: FleetIndex;
  catalog: CatalogService;
  signals: FleetSignals;
  logger: LoggerService;
}

/**
 * The REST API under `/api/flux-fleet` (docs/api.md): every route requires Backstage credentials, validates its
 * input, and answers from the fleet index; errors are Backstage error types, which name the cluster and object.
 */
export async function createRouter(options: RouterOptions): Promise<express.Router> {
  const { httpAuth, fleetIndex, catalog, signals } = options;
  const links = new EntityLinkCache(catalog);
  const openApi = buildOpenApiDocument();
  const router = Router();
  router.use(express.json());

  // httpAuth.credentials throws AuthenticationError (401) when the caller sent none
  router.use(async (req, _res, next) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    next();
  });

  router.get('/openapi.json', async (_req, res) => {
    res.json(openApi);
  });

  router.get('/clusters', async (req, res) => {
    parseInput(noQuerySchema, req.query, 'query');
    res.json({ items: fleetIndex.clusters() });
  });

  router.get('/summary', async (req, res) => {
    parseInput(noQuerySchema, req.query, 'query');
    res.json(fleetIndex.summary());
  });

  router.get('/instances', async (req, res) => {
    const query = parseInput(instancesQuerySchema, req.query, 'query');
    requireCluster(fleetIndex, query.cluster);
    res.json({ items: fleetIndex.instances(query.cluster) });
  });

  router.get('/shards', async (req, res) => {
    const query = parseInput(shardsQuerySchema, req.query, 'query');
    requireCluster(fleetIndex, query.cluster);
    const items = fleetIndex
      .shards(query.cluster)
      .filter(s => !query.instance || s.instance === query.instance);
    res.json({ items });
  });

  router.get('/tenants', async (req, res) => {
    parseInput(noQuerySchema, req.query, 'query');
    res.json({ items: fleetIndex.tenants() });
  });

  router.get('/objects', async (req, res) => {
    const query = parseInput(objectQuerySchema, req.query, 'query');
    res.json(fleetIndex.objects(query));
  });

  router.get('/objects/:cluster/:namespace/:kind/:name', async (req, res) => {
    const path = parseInput(objectPathSchema, req.params, 'object path');
    requireCluster(fleetIndex, path.cluster);
    const key = fluxObjectKey(path.cluster, path.namespace, path.kind, path.name);
    const detail = fleetIndex.objectDetail(key);
    if (!detail) {
      throw new NotFoundError(
        `Cluster '${path.cluster}' has no ${path.kind} ${path.namespace}/${path.name} (as of the index; it may have been deleted)`,
      );
    }
    signals.objectViewed(key);
    res.json(detail);
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
    const objects = fleetIndex.entityObjects(entity.link);
    const clusterNames = new Set(objects.map(o => o.ref.cluster));
    const instanceKeys = new Set(
      objects
        .filter(o => o.owner.instance !== null)
        .map(o => `${o.ref.cluster}/${o.owner.instance}`),
    );
    const view: EntityView = {
      entityRef: entity.entityRef,
      link: entity.link,
      objects,
      clusters: fleetIndex
        .clusters()
        .filter(c => clusterNames.has(c.name) || !c.synced),
      instances: [...clusterNames]
        .flatMap(cluster => fleetIndex.instances(cluster))
        .filter(i => instanceKeys.has(`${i.cluster}/${i.name}`)),
    };
    signals.entityViewed(entity.entityRef, entity.link);
    res.json(view);
  });

  router.get('/findings', async (req, res) => {
    const query = parseInput(findingsQuerySchema, req.query, 'query');
    requireCluster(fleetIndex, query.cluster);
    res.json({ items: fleetIndex.findings(query) });
  });

  return router;
}

function requireCluster(index: FleetIndex, cluster: string | undefined) {
  if (cluster !== undefined && !index.clusterNames().includes(cluster)) {
    throw new NotFoundError(
      `Flux Fleet watches no cluster named '${cluster}' (it watches: ${
        index.clusterNames().join(', ') || 'none'
      })`,
    );
  }
}
