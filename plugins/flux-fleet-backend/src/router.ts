import { HttpAuthService } from '@backstage/backend-plugin-api';
import { stringifyEntityRef } from '@backstage/catalog-model';
import { NotFoundError } from '@backstage/errors';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { ANNOTATIONS, EntityView } from '@flux-fleet/plugin-flux-fleet-common';
import { FleetIndexService } from '@flux-fleet/plugin-flux-fleet-node';
import express from 'express';
import Router from 'express-promise-router';

/** The REST API under `/api/flux-fleet`; every route requires Backstage credentials. */
export async function createRouter(options: {
  httpAuth: HttpAuthService;
  fleetIndex: FleetIndexService;
  catalog: CatalogService;
}): Promise<express.Router> {
  const { httpAuth, fleetIndex, catalog } = options;
  const router = Router();
  router.use(express.json());

  // httpAuth.credentials throws AuthenticationError (401) when the caller sent none
  router.use(async (req, _res, next) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    next();
  });

  router.get('/clusters', async (_req, res) => {
    res.json({ items: fleetIndex.clusters() });
  });

  // A catalog entity's Flux objects across clusters, answered from the index (rules §6).
  router.get('/entity/:kind/:namespace/:name', async (req, res) => {
    const credentials = await httpAuth.credentials(req);
    const { kind, namespace, name } = req.params;
    const entity = await catalog.getEntityByRef(
      { kind, namespace, name },
      { credentials },
    );
    if (!entity) {
      throw new NotFoundError(`No catalog entity ${kind}:${namespace}/${name}`);
    }
    const annotations = entity.metadata.annotations ?? {};
    const labelSelector = annotations[ANNOTATIONS.kubernetesLabelSelector];
    const link = labelSelector
      ? { labelSelector }
      : {
          kubernetesId:
            annotations[ANNOTATIONS.kubernetesId] ?? entity.metadata.name,
        };
    const objects = fleetIndex.entityObjects(link);
    const clusterNames = new Set(objects.map(o => o.ref.cluster));
    const view: EntityView = {
      entityRef: stringifyEntityRef(entity),
      link,
      objects,
      clusters: fleetIndex
        .clusters()
        .filter(c => clusterNames.has(c.name) || !c.synced),
    };
    res.json(view);
  });

  return router;
}
