import { mockServices } from '@backstage/backend-test-utils';
import type { FleetConfig } from '../config/FleetConfig';
import { createListWorker } from './startWatching';

function configOf(clusters: number, listWorker: boolean | 'auto'): FleetConfig {
  return {
    clusters: Array.from({ length: clusters }, (_, i) => ({ name: `c${i}` })),
    watch: { listWorker },
  } as unknown as FleetConfig;
}

describe('createListWorker', () => {
  it.each([
    [49, 'auto' as const, false],
    [50, 'auto' as const, true],
    [100, 'auto' as const, true],
    [1, true, true],
    [100, false, false],
  ])('with %i clusters and listWorker %s reads lists on a second thread: %s', (clusters, listWorker, expected) => {
    const worker = createListWorker(configOf(clusters, listWorker), mockServices.logger.mock());
    expect(worker !== undefined).toBe(expected);
    worker?.close();
  });
});
