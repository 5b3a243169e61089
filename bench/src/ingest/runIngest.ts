/** The ingest part: per fleet size, the index's sync time and memory against plain `JSON.parse` of the same lists. */
import type { FleetSize } from '../options';
import { startSimulator } from '../simulator';
import { ratio, round2 } from '../stats';
import { measureParseBaseline, type ParseBaseline } from './parseBaseline';
import { runIndexBenchmark } from './runIndexBenchmark';

/** The figures of one fleet size. */
export interface IngestResult {
  size: FleetSize;
  clusters: number;
  fluxObjects: number;
  index: {
    syncMs: number;
    rssBytesPerObject: number;
    heapBytesPerObject: number;
  };
  baseline: ParseBaseline & { parsedHeapBytesPerFluxObject: number };
  ratios: {
    /** Sync time over parse time: what the index does beyond parsing costs this many parses. */
    syncToParse?: number;
    /** Index heap per object over the parsed lists' heap per Flux object (below 1: leaner than raw JSON). */
    heapToParsed?: number;
  };
  /** Everything the index benchmark printed (its own entity-view and change-to-signal figures among them). */
  indexBenchmark: Record<string, unknown>;
}

/** The index benchmark and the simulator it starts use seed 1; the baseline reads the same fleet. */
const INDEX_BENCHMARK_SEED = 1;

/** Measures one size: the index benchmark first, then the baseline on a fresh simulator of the same fleet. */
export async function measureIngest(options: {
  root: string;
  dir: string;
  size: FleetSize;
  loadSeconds: number;
  log(line: string): void;
}): Promise<IngestResult> {
  const { size, log } = options;
  log(`ingest ${size}: the index benchmark (its own simulator and index)`);
  const index = await runIndexBenchmark(options);
  log(
    `ingest ${size}: ${index.fluxObjects} Flux objects synced in ${index.syncMs} ms, ${index.rssBytesPerObject} B RSS per object; now the baseline`,
  );
  const sim = await startSimulator({
    label: 'baseline',
    root: options.root,
    dir: options.dir,
    size,
    seed: INDEX_BENCHMARK_SEED,
    churn: 0,
    tls: false,
  });
  let baseline: ParseBaseline;
  try {
    baseline = await measureParseBaseline(sim.clusters);
  } finally {
    await sim.stop();
  }
  const parsedHeapBytesPerFluxObject = Math.round(
    baseline.parsedHeapBytes / index.fluxObjects,
  );
  log(
    `ingest ${size}: JSON.parse of ${baseline.pages} list pages (${round2(
      baseline.bytes / 2 ** 20,
    )} MiB) takes ${baseline.parseMs} ms`,
  );
  return {
    size,
    clusters: index.clusters,
    fluxObjects: index.fluxObjects,
    index: {
      syncMs: index.syncMs,
      rssBytesPerObject: index.rssBytesPerObject,
      heapBytesPerObject: index.heapBytesPerObject,
    },
    baseline: { ...baseline, parsedHeapBytesPerFluxObject },
    ratios: {
      syncToParse: ratio(index.syncMs, baseline.parseMs),
      heapToParsed: ratio(
        index.heapBytesPerObject,
        parsedHeapBytesPerFluxObject,
      ),
    },
    indexBenchmark: index.raw,
  };
}
