import { resolvePackagePath } from '@backstage/backend-plugin-api';
import { readdirSync } from 'node:fs';
import type { Knex } from './SnapshotStore';

/** Creates or updates Flux Fleet's tables (`migrations/` of this package; SQLite and PostgreSQL). */
export async function applyMigrations(knex: Knex): Promise<void> {
  const directory = resolvePackagePath('@flux-fleet/plugin-flux-fleet-backend', 'migrations');
  // On a restart there is nothing to do, and knex's `migrate.latest` still takes its lock and loads every migration
  // file first: 0.35-0.57 s of the plugin's start, while the API waits for the restored snapshots behind it (issue
  // 11: restored data within 1 s of the listener opening). One select says whether every file has run.
  if (await allApplied(knex, directory)) return;
  await knex.migrate.latest({ directory });
}

async function allApplied(knex: Knex, directory: string): Promise<boolean> {
  // synchronous on purpose: a directory of a few files takes well under a millisecond, while an async readdir
  // waited 170-220 ms for libuv's thread pool behind the other plugins' start-up I/O (measured at a restart)
  const files = readdirSync(directory).filter(f => f.endsWith('.js'));
  try {
    const done = new Set((await knex('knex_migrations').select('name')).map((r: { name: string }) => r.name));
    return files.every(f => done.has(f));
  } catch {
    // no migrations table yet: a new database
    return false;
  }
}
