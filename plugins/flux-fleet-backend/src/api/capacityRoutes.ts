import type express from 'express';
import {
  capacityHistoryQuerySchema,
  capacityPlanQuerySchema,
  capacityQuerySchema,
  parseInput,
} from '../schema/requestSchemas';
import type { CapacityAnswers } from './CapacityAnswers';

/**
 * The capacity routes (docs/api.md, rules §12, §13): aggregate answers about controllers and instances, shown to
 * every signed-in caller like the other aggregate routes (instances, shards). The plan names objects (it must,
 * to label them); it is for the platform team that reads the fleet page.
 */
export function addCapacityRoutes(
  router: express.Router,
  answers: CapacityAnswers,
  send: (req: express.Request, res: express.Response, body: unknown) => void,
): void {
  router.get('/capacity', async (req, res) => {
    const query = parseInput(capacityQuerySchema, req.query, 'query');
    send(req, res, await answers.report(query));
  });

  router.get('/capacity/plan', async (req, res) => {
    const query = parseInput(capacityPlanQuerySchema, req.query, 'query');
    send(req, res, await answers.plan(query.cluster, query.instance, query.shards));
  });

  router.get('/capacity/history', async (req, res) => {
    const query = parseInput(capacityHistoryQuerySchema, req.query, 'query');
    send(req, res, answers.history(query.cluster, query.instance));
  });
}
