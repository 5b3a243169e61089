/**
 * The ingest part: per fleet size, the index's sync time and memory against plain `JSON.parse` of the same lists,
 * and against fetching them alone.
 */
import type { FleetSize } from '../options';
import { startSimulator } from '../simulator';
import { ratio, round2 } from '../stats';
import {
  measureListsBaseline,
  measureParseBaseline,
  type ListsBaseline,
  type ParseBaseline,
} from './parseBaseline';
import {
  runIndexBenchmark,
  type IndexBenchmarkFigures,
} from './runIndexBenchmark';

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
  /** The same lists fetched with the index's settings, nothing parsed (results of before 2026-12-07 lack it). */
  lists?: ListsBaseline;
  ratios: {
    /** Sync time over parse time: what the index does beyond parsing costs this many parses. */
    syncToParse?: number;
    /**
     * Sync time over the lists' fetch plus their parse: what any index that reads these lists costs at least
     * (one thread fetching and parsing), so what the index does beyond that.
     */
    syncToListsAndParse?: number;
    /** Index heap per object over the parsed lists' heap per Flux object (below 1: leaner than raw JSON). */
    heapToParsed?: number;
  };
  /** Everything the index benchmark printed (its own entity-view and change-to-signal figures among them). */
  indexBenchmark: Record<string, unknown>;
}

/** The index benchmark reads seed 1's fleet (its figures are comparable across runs). */
const INDEX_BENCHMARK_SEED = 1;
/** Status changes per second per cluster while the index benchmark runs (its own default). */
const INDEX_BENCHMARK_CHURN = 10;

/**
 * Measures one size on one simulator: the index benchmark first, then the parse baseline on the same fleet (a
 * second simulator of L took 140 s to start).
 */
export async function measureIngest(options: {
  root: string;
  dir: string;
  size: FleetSize;
  loadSeconds: number;
  log(line: string): void;
}): Promise<IngestResult> {
  const { size, log } = options;
  log(`ingest ${size}: starting the simulated fleet (seed ${INDEX_BENCHMARK_SEED})`);
  const sim = await startSimulator({
    label: 'ingest',
    root: options.root,
    dir: options.dir,
    size,
    seed: INDEX_BENCHMARK_SEED,
    churn: INDEX_BENCHMARK_CHURN,
    tls: false,
  });
  let index: IndexBenchmarkFigures;
  let baseline: ParseBaseline;
  let lists: ListsBaseline;
  try {
    log(
      `ingest ${size}: simulator ready in ${sim.readyMs} ms; the index benchmark (an index of its own on this fleet)`,
    );
    index = await runIndexBenchmark({
      ...options,
      kubeconfigPath: sim.kubeconfigPath,
      churn: INDEX_BENCHMARK_CHURN,
    });
    log(
      `ingest ${size}: ${index.fluxObjects} Flux objects synced in ${index.syncMs} ms, ${index.rssBytesPerObject} B RSS per object; now the baseline`,
    );
    baseline = await measureParseBaseline(sim.clusters);
    // three passes at M take a few seconds; at L one pass is 20-22 s (make bench --size L, 2026-12-07), so L reads
    // the lists once
    lists = await measureListsBaseline(sim.clusters, {
      concurrentLists: index.concurrentLists,
      pageSize: index.pageSize,
      passes: size === 'L' ? 1 : 3,
    });
  } finally {
    await sim.stop();
  }
  const parsedHeapBytesPerFluxObject = Math.round(
    baseline.parsedHeapBytes / index.fluxObjects,
  );
  log(
    `ingest ${size}: JSON.parse of ${baseline.pages} list pages (${round2(
      baseline.bytes / 2 ** 20,
    )} MiB) takes ${baseline.parseMs} ms; fetching them, ${index.concurrentLists} lists at a time, ${
      lists.listsMs
    } ms`,
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
    lists,
    ratios: {
      syncToParse: ratio(index.syncMs, baseline.parseMs),
      syncToListsAndParse: ratio(index.syncMs, lists.listsMs + baseline.parseMs),
      heapToParsed: ratio(
        index.heapBytesPerObject,
        parsedHeapBytesPerFluxObject,
      ),
    },
    indexBenchmark: index.raw,
  };
}
