/**
 * The schema of `GET /versions`, the fleet view of Flux versions (rules §10), kept apart from the other response
 * schemas. Written against the `-common` type it describes.
 */
import {
  FLUX_KINDS,
  FluxKind,
  type FleetVersionView,
} from '@flux-fleet/plugin-flux-fleet-common';
import { z } from 'zod/v4';
import { apiSchemas } from './responseSchemas';

const blocker = z
  .object({
    crd: z.string().describe('e.g. kustomizations.kustomize.toolkit.fluxcd.io'),
    kind: z.enum(FLUX_KINDS as unknown as [FluxKind, ...FluxKind[]]),
    version: z.string().describe('the stored version the next minor removes'),
    removedIn: z.number().int().describe('the Flux 2 minor that removes it'),
  })
  .register(apiSchemas, { id: 'UpgradeBlocker' });

const row = z
  .object({
    cluster: z.string(),
    instance: z.string(),
    version: z.string().optional(),
    source: z
      .enum(['flux-operator', 'version-label', 'controller-images'])
      .optional(),
    mixed: z.boolean(),
    minorsBehind: z.number().int().optional(),
    releasesBehind: z.number().int().optional(),
    nextMinor: z.string().optional(),
    blockers: z.array(blocker),
  })
  .register(apiSchemas, { id: 'InstanceVersionRow' });

export const fleetVersionViewSchema = z
  .object({
    latest: z.string().describe('the newest Flux release Flux Fleet knows'),
    instances: z.array(row),
    clustersByVersion: z.record(z.string(), z.array(z.string())),
  })
  .register(apiSchemas, {
    id: 'FleetVersionView',
  }) satisfies z.ZodType<FleetVersionView>;
