// @ts-check

/**
 * Snapshots of each cluster's index (so a restarted backend answers at once, and replicas that do not watch a
 * cluster serve the same data as the one that does) and the leases that give each cluster one watching replica.
 * Times are milliseconds since the epoch, so SQLite and PostgreSQL compare them the same way.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('flux_fleet_snapshots', table => {
    table.comment('The last snapshot of each cluster, written by the replica that watches it');
    table.string('cluster', 255).primary().notNullable();
    table.bigInteger('version').notNullable().comment('Incremented on every write');
    table.string('holder', 255).notNullable().comment('The replica that wrote it');
    table.bigInteger('written_at').notNullable();
    table.text('health').notNullable().comment('ClusterHealth as JSON');
    table.binary('data').notNullable().comment('Gzipped JSON of the cluster store');
  });
  await knex.schema.createTable('flux_fleet_leases', table => {
    table.comment('Which replica watches each cluster, until when');
    table.string('cluster', 255).primary().notNullable();
    table.string('holder', 255).notNullable();
    table.bigInteger('expires_at').notNullable();
    table.bigInteger('acquired_at').notNullable();
  });
};

/**
 * @param {import('knex').Knex} knex
 */
exports.down = async function down(knex) {
  await knex.schema.dropTable('flux_fleet_leases');
  await knex.schema.dropTable('flux_fleet_snapshots');
};
