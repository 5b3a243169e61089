// @ts-check

/**
 * What replicas tell each other between snapshots (issue 11): the changes of each cluster as its watching replica
 * derived them (a delta per batch, numbered per cluster, announced with PostgreSQL NOTIFY), the replicas alive (so
 * leases are spread), and the capacity figures the replica holding a cluster's lease measured. Each snapshot says
 * which delta it includes, so a replica that missed some catches up from the snapshot and the deltas after it.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('flux_fleet_deltas', table => {
    table.comment('Changes of a cluster since its snapshot, written by the replica that watches it');
    table.string('cluster', 255).notNullable();
    table.bigInteger('seq').notNullable().comment('1, 2, … per cluster, across holders');
    table.string('holder', 255).notNullable();
    table.bigInteger('written_at').notNullable();
    table.binary('data').notNullable().comment('Gzipped JSON of the changed records');
    table.primary(['cluster', 'seq']);
  });
  await knex.schema.alterTable('flux_fleet_snapshots', table => {
    table.bigInteger('delta_seq').notNullable().defaultTo(0).comment('The last delta this snapshot includes');
  });
  await knex.schema.createTable('flux_fleet_replicas', table => {
    table.comment('The replicas alive, renewed with their leases');
    table.string('replica', 255).primary().notNullable();
    table.bigInteger('expires_at').notNullable();
  });
  await knex.schema.createTable('flux_fleet_capacity', table => {
    table.comment('The capacity readings of a cluster, written by the replica that collects them');
    table.string('cluster', 255).primary().notNullable();
    table.string('holder', 255).notNullable();
    table.bigInteger('written_at').notNullable();
    table.text('data').notNullable().comment('Readings and history as JSON');
  });
};

/**
 * @param {import('knex').Knex} knex
 */
exports.down = async function down(knex) {
  await knex.schema.dropTable('flux_fleet_capacity');
  await knex.schema.dropTable('flux_fleet_replicas');
  await knex.schema.alterTable('flux_fleet_snapshots', table => {
    table.dropColumn('delta_seq');
  });
  await knex.schema.dropTable('flux_fleet_deltas');
};
