import { resolvePackagePath } from '@backstage/backend-plugin-api';
import type { Knex } from './SnapshotStore';

/** Creates or updates Flux Fleet's tables (`migrations/` of this package; SQLite and PostgreSQL). */
export async function applyMigrations(knex: Knex): Promise<void> {
  await knex.migrate.latest({
    directory: resolvePackagePath('@flux-fleet/plugin-flux-fleet-backend', 'migrations'),
  });
}
