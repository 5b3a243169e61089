import { mockServices } from '@backstage/backend-test-utils';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import { ConfigReader } from '@backstage/config';
import {
  CatalogService,
  EntityProviderMutation,
} from '@backstage/plugin-catalog-node';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { FluxFleetEntityProvider } from '../providers/FluxFleetEntityProvider';
import { InMemoryFleetIndex } from './InMemoryFleetIndex';

/** A logger whose calls tests can read; its children log into it. */
export function recordingLogger() {
  const logger = {
    error: jest.fn(),
    warn: jest.fn(),
    info: jest.fn(),
    debug: jest.fn(),
    child: jest.fn(),
  };
  logger.child.mockReturnValue(logger);
  return logger;
}

/** A delta mutation reduced to what tests compare: location keys, and refs added and removed. */
export interface MutationSummary {
  locationKeys: Array<string | undefined>;
  added: string[];
  removed: string[];
}

/** Starts one provider over an in-memory index, with a fake connection and a task runner the test drives. */
export async function startProvider(options: {
  index: InMemoryFleetIndex;
  /** `catalog.providers.fluxFleet`. */
  config?: object;
  /** A catalog to read back from; by default one that holds `catalogEntities` and what the provider emits. */
  catalog?: CatalogService;
  catalogEntities?: Entity[];
  now?: () => number;
}) {
  // The catalog as the provider's mutations leave it, so that reading it back answers like the real one.
  const held = new Map<string, Entity>(
    (options.catalogEntities ?? []).map(e => [stringifyEntityRef(e), e]),
  );
  const connection = {
    applyMutation: jest.fn<Promise<void>, [EntityProviderMutation]>(
      async mutation => {
        if (mutation.type !== 'delta') return;
        for (const { entity } of mutation.added) {
          held.set(stringifyEntityRef(entity), entity);
        }
        for (const removed of mutation.removed) {
          held.delete(
            'entityRef' in removed
              ? removed.entityRef
              : stringifyEntityRef(removed.entity),
          );
        }
      },
    ),
    refresh: jest.fn(async () => {}),
  };
  const catalog: CatalogService =
    options.catalog ??
    ({
      queryEntities: (...args: Parameters<CatalogService['queryEntities']>) =>
        catalogServiceMock({ entities: [...held.values()] }).queryEntities(
          ...args,
        ),
    } as Partial<CatalogService> as CatalogService);
  const schedule = { run: jest.fn(async (_task: { id: string; fn: () => Promise<void> }) => {}) };
  const logger = recordingLogger();
  const [provider] = FluxFleetEntityProvider.fromConfig(
    new ConfigReader({
      catalog: { providers: { fluxFleet: options.config ?? {} } },
    }),
    {
      fleetIndex: options.index,
      catalog,
      auth: mockServices.auth(),
      logger: logger as any,
      schedule,
      now: options.now,
    },
  );
  await provider.connect(connection);
  const task = schedule.run.mock.calls[0][0];

  return {
    provider,
    connection,
    logger,
    task,
    /** Runs the scheduled safety refresh as the scheduler would. */
    runScheduledRefresh: () => task.fn(),
    /** The entities the catalog holds now (by default catalog only). */
    catalogEntities: () => [...held.values()],
    /** Every mutation so far, in order. */
    mutations: () => connection.applyMutation.mock.calls.map(([m]) => m),
    /** Every mutation so far, summarised. */
    summaries: () =>
      connection.applyMutation.mock.calls.map(([m]) => summarize(m)),
    /** The entities added by the mutations so far. */
    addedEntities: () =>
      connection.applyMutation.mock.calls.flatMap(([m]) =>
        m.type === 'delta' ? m.added.map(d => d.entity) : [],
      ),
  };
}

/** Summarises a mutation. */
export function summarize(mutation: EntityProviderMutation): MutationSummary {
  if (mutation.type !== 'delta') {
    throw new Error('the provider must only send delta mutations');
  }
  const keys = new Set<string | undefined>([
    ...mutation.added.map(d => d.locationKey),
    ...mutation.removed.map(r => r.locationKey),
  ]);
  return {
    locationKeys: [...keys],
    added: mutation.added.map(d => stringifyEntityRef(d.entity)),
    removed: mutation.removed.map(r =>
      'entityRef' in r ? r.entityRef : stringifyEntityRef(r.entity),
    ),
  };
}
