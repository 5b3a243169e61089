import { generateFleet } from './src/fleetSim';
import { resolveOptions } from './src/options';
import { SimulatedCluster } from './src/sim/simulatedCluster';
import { controllerTruth } from './src/truth/groundTruth';
const size = (process.env.SIZE ?? 'S') as 'S' | 'M';
for (const seed of (process.env.SEEDS ?? '1,7').split(',').map(Number)) {
  const fleet = generateFleet(resolveOptions({ size, seed }));
  for (const g of fleet) {
    const c = new SimulatedCluster(g, { minDelayMs: 0, maxDelayMs: 0 });
    for (const l of c.metrics.loads()) {
      const t = controllerTruth(g.name, l);
      const flag = (t.utilisation > 0.65 && t.utilisation < 0.75) || (t.utilisation > 0.9 && t.utilisation < 1.0) ? 'EDGE' : '';
      if (process.env.ALL || t.verdict !== 'ok' || flag) console.log(size, seed, t.cluster, t.namespace, t.deployment, t.concurrent, t.objectCount, t.arrivalsPerSecond.toFixed(3), t.meanServiceSeconds.toFixed(2), t.utilisation.toFixed(3), t.verdict, flag, (l.cpuCores / (l.cpuLimitCores ?? 1)).toFixed(2), (l.memoryBytes / (l.memoryLimitBytes ?? 1)).toFixed(2));
    }
    c.close();
  }
}
