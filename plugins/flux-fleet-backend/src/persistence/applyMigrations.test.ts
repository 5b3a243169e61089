import { resolvePackagePath } from '@backstage/backend-plugin-api';
import knexFactory from 'knex';
import { applyMigrations } from './applyMigrations';

const directory = resolvePackagePath('@flux-fleet/plugin-flux-fleet-backend', 'migrations');

describe('applyMigrations', () => {
  const open = () => knexFactory({ client: 'better-sqlite3', connection: ':memory:', useNullAsDefault: true });

  it('creates every table in a new database, and leaves an up-to-date one as it is', async () => {
    const knex = open();
    try {
      await applyMigrations(knex);
      for (const table of ['flux_fleet_snapshots', 'flux_fleet_leases', 'flux_fleet_deltas', 'flux_fleet_capacity']) {
        expect(await knex.schema.hasTable(table)).toBe(true);
      }
      const before = await knex('knex_migrations').select('name', 'migration_time');
      await applyMigrations(knex);
      expect(await knex('knex_migrations').select('name', 'migration_time')).toEqual(before);
    } finally {
      await knex.destroy();
    }
  });

  it('applies the migrations a database has not had yet', async () => {
    const knex = open();
    try {
      // a database of a version that had only the first migration
      await knex.migrate.up({ directory });
      expect(await knex.schema.hasTable('flux_fleet_deltas')).toBe(false);
      await applyMigrations(knex);
      expect(await knex.schema.hasTable('flux_fleet_deltas')).toBe(true);
    } finally {
      await knex.destroy();
    }
  });
});
