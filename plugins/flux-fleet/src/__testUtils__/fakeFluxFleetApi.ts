import {
  ActionResult,
  FleetObject,
  FluxObjectRef,
} from '@flux-fleet/plugin-flux-fleet-common';
import { FluxFleetApi } from '../api';
import { objectKey } from '../lib/objectKey';
import { clusters, entityView, instances, objectDetail } from './fixtures';

/** A {@link FluxFleetApi} whose every method is a jest mock with a realistic default answer. */
export type FakeFluxFleetApi = { [K in keyof FluxFleetApi]: jest.Mock };

/** A fake API answering from the fixtures; pass overrides for the answers a test is about. */
export function fakeFluxFleetApi(
  overrides: Partial<FakeFluxFleetApi> = {},
): FakeFluxFleetApi {
  const objects = (): FleetObject[] => entityView().objects;
  const find = (ref: FluxObjectRef) =>
    objects().find(o => o.key === objectKey(ref));
  const accepted = (
    ref: FluxObjectRef,
    action: ActionResult['action'],
  ): ActionResult => ({
    key: objectKey(ref),
    action,
    requestedAt: '2026-07-14T10:20:00.000000001Z',
    handled: 'pending',
    message: `${action} requested`,
  });
  return {
    getEntityView: jest.fn(async () => entityView()),
    getClusters: jest.fn(async () => clusters),
    getSummary: jest.fn(async () => {
      throw new Error('getSummary not faked in this test');
    }),
    getInstances: jest.fn(async (filter?: { cluster?: string }) =>
      instances.filter(i => !filter?.cluster || i.cluster === filter.cluster),
    ),
    getShards: jest.fn(async () => []),
    getTenants: jest.fn(async () => []),
    getObjects: jest.fn(async () => ({ items: objects(), totalCount: 4 })),
    getObject: jest.fn(async (ref: FluxObjectRef) => {
      const object = find(ref);
      if (!object) {
        throw new Error(`no ${objectKey(ref)}`);
      }
      return objectDetail(object);
    }),
    getFindings: jest.fn(async () => []),
    getMalformed: jest.fn(async () => []),
    getVersions: jest.fn(async () => ({
      latest: 'v2.9.4',
      instances: [],
      clustersByVersion: {},
    })),
    getCapacity: jest.fn(async () => ({ items: [], generatedAt: '2026-07-14T10:20:00Z' })),
    getCapacityPlan: jest.fn(async () => {
      throw new Error('getCapacityPlan not faked in this test');
    }),
    getCapacityHistory: jest.fn(async (q: { cluster: string; instance: string }) => ({ ...q, controllers: [] })),
    reconcile: jest.fn(async (ref: FluxObjectRef) =>
      accepted(ref, 'reconcile'),
    ),
    suspend: jest.fn(async (ref: FluxObjectRef) => ({
      ...accepted(ref, 'suspend'),
      handled: 'yes',
    })),
    resume: jest.fn(async (ref: FluxObjectRef) => ({
      ...accepted(ref, 'resume'),
      handled: 'yes',
    })),
    ...overrides,
  };
}
