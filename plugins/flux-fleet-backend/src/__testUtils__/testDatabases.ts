import { TestDatabases, type TestDatabaseId } from '@backstage/backend-test-utils';

/**
 * The databases the persistence tests run on: SQLite always, and PostgreSQL (`FLUX_FLEET_TEST_POSTGRES_ID`,
 * default `POSTGRES_15`) when a connection string for it is set. `make test` starts PostgreSQL and sets
 * `FLUX_FLEET_REQUIRE_POSTGRES=1`: then a missing PostgreSQL fails the tests instead of quietly testing SQLite
 * only.
 */
export function createTestDatabases(): { databases: TestDatabases; ids: TestDatabaseId[] } {
  const postgres = (process.env.FLUX_FLEET_TEST_POSTGRES_ID ?? 'POSTGRES_15') as TestDatabaseId;
  // no Docker: PostgreSQL is the one a connection string names (as the comment above says), never a container
  const databases = TestDatabases.create({ ids: ['SQLITE_3', postgres], disableDocker: true });
  if (process.env.FLUX_FLEET_REQUIRE_POSTGRES === '1' && !databases.supports(postgres)) {
    throw new Error(
      `FLUX_FLEET_REQUIRE_POSTGRES=1 but ${postgres} is not available: set BACKSTAGE_TEST_DATABASE_${postgres.replace(
        '_',
        '',
      )}_CONNECTION_STRING (make test does), or unset FLUX_FLEET_REQUIRE_POSTGRES to test on SQLite only`,
    );
  }
  return { databases, ids: databases.eachSupportedId().map(([id]) => id) };
}
