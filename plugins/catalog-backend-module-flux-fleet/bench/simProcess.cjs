/*
 * Child process of the catalog ingest benchmark: serves a simulated fleet in its own process (so the simulator does
 * not share the benchmark's event loop), writes its ground truth to a file, and prints one JSON line with the
 * clusters. Exits when its parent closes stdin. Usage: node simProcess.cjs <size> <seed> <truth file>
 */
require('@backstage/cli/config/nodeTransform.cjs');
const { writeFileSync } = require('node:fs');
const { startFleetSim } = require('@flux-fleet/fleet-sim');

const [size = 'M', seed = '1', truthFile] = process.argv.slice(2);
startFleetSim({ size, seed: Number(seed), port: 0, churnPerSecond: 0 }).then(
  sim => {
    writeFileSync(truthFile, JSON.stringify(sim.truth()));
    process.stdout.write(`${JSON.stringify({ clusters: sim.clusters })}\n`);
    process.stdin.resume();
    process.stdin.on('end', () => sim.close().then(() => process.exit(0)));
  },
  error => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
