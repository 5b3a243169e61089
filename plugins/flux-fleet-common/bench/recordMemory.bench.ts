/**
 * Benchmark: heap taken by what `-common` gives the index to keep, per Flux object, for N objects (default
 * 100 000) in clusters of 20 000:
 * - the lean records alone (the value pool warmed by a first cluster, as in a running backend);
 * - the workload and namespace records beside them (one Deployment per Kustomization here);
 * - the cluster analyses (state, owner, boundary, service, findings per object).
 * Run from the repository root (needs --expose-gc to measure after full collections):
 *
 *   npx esbuild plugins/flux-fleet-common/bench/recordMemory.bench.ts --bundle --platform=node \
 *     --outfile=/tmp/record-memory.js && node --expose-gc /tmp/record-memory.js [objects]
 *
 * Raw objects are generated (through JSON.parse, as from the API) and normalised cluster by cluster, then
 * dropped, as the backend drops what a watch delivers.
 */
import { analyseCluster, ClusterAnalysis } from '../src/analysis';
import { controllerFromDeployment } from '../src/controller';
import {
  normalizeFluxObject,
  normalizeNamespace,
  normalizeWorkload,
} from '../src/normalize';
import type {
  FluxObjectRecord,
  NamespaceRecord,
  WorkloadLabels,
} from '../src/record';
import type { FluxController } from '../src/types';
import { generateCluster } from './fleetGenerator';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  process.stderr.write('run with node --expose-gc\n');
  process.exit(1);
}
const total = Number(process.argv[2] ?? 100_000);
const perCluster = 20_000;
const clusters = Math.ceil(total / perCluster);

function heapAfterGc(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

function normalizeAll(cluster: string, raws: unknown[]): FluxObjectRecord[] {
  return raws.map(raw => {
    const result = normalizeFluxObject(cluster, raw);
    if (!result.record) throw new Error(result.error);
    return result.record;
  });
}

// A first cluster warms the value pool, as the clusters read before would in a running backend.
normalizeAll('warm-up', generateCluster(perCluster, 999).raw);

const baseline = heapAfterGc();
const records: FluxObjectRecord[][] = [];
for (let c = 0; c < clusters; c++) {
  records.push(
    normalizeAll(
      `cluster-${c}`,
      generateCluster(Math.min(perCluster, total - c * perCluster), c + 1).raw,
    ),
  );
}
const count = records.reduce((n, r) => n + r.length, 0);
const withRecords = heapAfterGc();

// The same clusters again (generation is deterministic), for their controllers, namespaces and workloads.
const contexts = records.map((_, c) => {
  const cluster = `cluster-${c}`;
  const side = generateCluster(
    Math.min(perCluster, total - c * perCluster),
    c + 1,
  );
  return {
    cluster,
    controllers: side.deployments
      .map(d => controllerFromDeployment(cluster, d).controller)
      .filter((x): x is FluxController => x !== undefined),
    namespaces: new Map<string, NamespaceRecord>(
      side.namespaces
        .map(n => normalizeNamespace(cluster, n).record!)
        .map(n => [n.name, n]),
    ),
    workloads: new Map<string, WorkloadLabels>(
      side.workloads
        .map(w => normalizeWorkload(cluster, w).record!)
        .map(w => [w.id, w.labels]),
    ),
  };
});
const workloadCount = contexts.reduce((n, c) => n + c.workloads.size, 0);
const withSide = heapAfterGc();

// Held on the global object so that nothing measured can be collected early.
const kept = globalThis as { benchKeepAlive?: unknown };
kept.benchKeepAlive = { records, contexts };
const analyses: ClusterAnalysis[] = records.map((objects, i) =>
  analyseCluster({
    ...contexts[i],
    objects,
    now: Date.parse('2026-07-14T10:00:00Z'),
  }),
);
kept.benchKeepAlive = { records, contexts, analyses };
const withAnalyses = heapAfterGc();

const perObject = (bytes: number) => Math.round(bytes / count);
process.stdout.write(
  `${JSON.stringify({
    objects: count,
    clusters,
    workloads: workloadCount,
    recordBytesPerObject: perObject(withRecords - baseline),
    workloadAndNamespaceBytesPerObject: perObject(withSide - withRecords),
    analysisBytesPerObject: perObject(withAnalyses - withSide),
    allBytesPerObject: perObject(withAnalyses - baseline),
    heapUsedMiB: Math.round(withAnalyses / 1024 / 1024),
    node: process.version,
  })}\n`,
);
