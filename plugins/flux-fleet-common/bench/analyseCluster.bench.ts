/**
 * Benchmark: how long `normalizeFluxObject` and `analyseCluster` take for one cluster of N objects (default
 * 20 000). Run from the repository root:
 *
 *   node -r sucrase/register plugins/flux-fleet-common/bench/analyseCluster.bench.ts [objects] [runs]
 *
 * Prints the median and fastest of several runs after a warm-up, in wall time and in CPU time of this process
 * (on a machine shared with other work, CPU time is the steadier of the two).
 */
import { analyseCluster } from '../src/analysis';
import { controllerFromDeployment } from '../src/controller';
import {
  normalizeFluxObject,
  normalizeNamespace,
  normalizeWorkload,
} from '../src/normalize';
import type { FluxController } from '../src/types';
import { generateCluster } from './fleetGenerator';

const objects = Number(process.argv[2] ?? 20_000);
const runs = Number(process.argv[3] ?? 15);
const cluster = 'bench';
const generated = generateCluster(objects);

function time<T>(f: () => T): [T, number, number] {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const result = f();
  const used = process.cpuUsage(cpu);
  return [
    result,
    Number(process.hrtime.bigint() - start) / 1e6,
    (used.user + used.system) / 1000,
  ];
}

const [records, normalizeMs] = time(() =>
  generated.raw.map(raw => {
    const result = normalizeFluxObject(cluster, raw);
    if (!result.record) throw new Error(result.error);
    return result.record;
  }),
);
const controllers = generated.deployments
  .map(d => controllerFromDeployment(cluster, d).controller)
  .filter((c): c is FluxController => c !== undefined);
const namespaces = new Map(
  generated.namespaces
    .map(n => normalizeNamespace(cluster, n).record!)
    .map(n => [n.name, n]),
);
const workloads = new Map(
  generated.workloads
    .map(w => normalizeWorkload(cluster, w).record!)
    .map(w => [w.id, w.labels]),
);
const input = {
  cluster,
  controllers,
  objects: records,
  namespaces,
  workloads,
  now: Date.parse('2026-07-14T10:00:00Z'),
};

for (let i = 0; i < 3; i++) analyseCluster(input); // warm-up
const timings: number[] = [];
const cpuTimings: number[] = [];
let findings = 0;
for (let i = 0; i < runs; i++) {
  const [analysis, ms, cpuMs] = time(() => analyseCluster(input));
  timings.push(ms);
  cpuTimings.push(cpuMs);
  findings = analysis.findings.length;
}
const round = (ms: number) => Math.round(ms * 10) / 10;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
process.stdout.write(
  `${JSON.stringify({
    objects: records.length,
    controllers: controllers.length,
    findings,
    normalizeAllMs: Math.round(normalizeMs),
    normalizePerObjectUs: Math.round((normalizeMs * 1000) / records.length),
    analyseClusterMedianMs: round(median(timings)),
    analyseClusterFastestMs: round(Math.min(...timings)),
    analyseClusterMedianCpuMs: round(median(cpuTimings)),
    analyseClusterFastestCpuMs: round(Math.min(...cpuTimings)),
    loadAverage: require('node:os').loadavg()[0],
    runs,
    node: process.version,
  })}\n`,
);
