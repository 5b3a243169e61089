import type { Distribution } from '../stats';
import { renderBenchSection, renderReport, viewCounts } from './renderReport';
import type { BenchResults } from './results';

const dist = (p50: number, p99 = p50 * 2): Distribution => ({
  count: 20,
  p50,
  p90: p99,
  p99,
  max: p99,
  mean: p50,
});

function results(overrides: Partial<BenchResults> = {}): BenchResults {
  return {
    date: '2026-11-30T20:00:00.000Z',
    command: '--size M',
    options: { pageTimeoutMs: 15_000 } as BenchResults['options'],
    machine: {
      cores: 2,
      cpuModel: 'EPYC',
      memoryGiB: 24,
      node: 'v24.22.3',
      platform: 'linux',
      uptimeBefore: 'load average: 0.50',
      uptimeAfter: 'load average: 1.90',
      otherWorkCores: 0.1,
      noisy: false,
    },
    durationSeconds: 300,
    ingest: [
      {
        size: 'M',
        clusters: 20,
        fluxObjects: 107_000,
        index: {
          syncMs: 9_100,
          rssBytesPerObject: 2_100,
          heapBytesPerObject: 1_500,
        },
        baseline: {
          pages: 400,
          bytes: 300 * 2 ** 20,
          items: 200_000,
          parseMs: 1_900,
          parsedHeapBytes: 1,
          parsedHeapBytesPerFluxObject: 3_000,
        },
        lists: { listsMs: 1_250, passes: 3, concurrentLists: 12, pageSize: 500 },
        ratios: { syncToParse: 4.79, syncToListsAndParse: 2.89, heapToParsed: 0.5 },
        indexBenchmark: {},
      },
    ],
    product: {
      size: 'M',
      seed: 1,
      clusters: 20,
      fluxObjects: 107_000,
      churnPerSecondPerCluster: 5,
      services: 100,
      pageViews: {
        series: [
          {
            kind: 'fluxFleet',
            views: 20,
            latencyMs: dist(2.5),
            failed: 0,
            timedOut: 0,
            statuses: { 200: 20 },
            fluxObjectsPerView: 4,
            clusterRequests: 21,
            clusterRequestsPerView: 0,
            background: { requestsPerSecond: 2, expectedDuringViews: 21.4 },
          },
          {
            kind: 'kubernetesTab',
            views: 20,
            latencyMs: dist(900),
            failed: 0,
            timedOut: 0,
            statuses: { 200: 20 },
            fluxObjectsPerView: 3,
            clusterErrorsPerView: 12,
            clusterRequests: 7_200,
            clusterRequestsPerView: 360,
          },
        ],
        p50ToFluxFleet: { kubernetesTab: 360 },
      },
      faults: [
        {
          fault: 'hang',
          cluster: 'prod-eu-west-1',
          setting: 'hang',
          series: [
            {
              kind: 'fluxFleet',
              views: 5,
              latencyMs: dist(3),
              failed: 0,
              timedOut: 0,
              statuses: { 200: 5 },
              fluxObjectsPerView: 4,
              clusterRequests: 0,
              clusterRequestsPerView: 0,
            },
            {
              kind: 'kubernetesTab',
              views: 5,
              latencyMs: dist(15_000),
              failed: 5,
              timedOut: 5,
              statuses: { 0: 5 },
              fluxObjectsPerView: 0,
              clusterRequests: 1_800,
              clusterRequestsPerView: 360,
            },
          ],
        },
      ],
      capacity: {
        windowSeconds: 121,
        wholeRounds: true,
        controllers: 211,
        measuredControllers: 211,
        rounds: 2,
        scrapesPerMinute: 193,
        podProxyRequestsPerMinute: 195,
        metricsMBPerMinute: 1_380,
        clusterRequestsPerMinute: 260,
        backendCores: 0.41,
      },
      failures: [],
    },
    failures: [],
    ...overrides,
  };
}

describe('renderReport', () => {
  const report = renderReport(results());

  it('says when, on what and how loaded the machine was', () => {
    expect(report).toMatch(/^## Benchmarks\n/);
    expect(report).toContain(
      '`make bench ARGS="--size M"` on 2026-11-30, 300 s.',
    );
    expect(report).toContain('2 cores (EPYC), 24 GiB, Node v24.22.3');
    expect(report).toContain('other work used 0.1 of the 2 cores');
    expect(report).not.toContain('noisy');
  });

  it('prints ingest against its parse baseline as ratios', () => {
    expect(report).toContain('| start to fully synced | 9.10 s |');
    expect(report).toContain(
      '| baseline: `JSON.parse` of the same list bodies | 1.90 s (400 pages, 300.0 MiB) |',
    );
    expect(report).toContain('| **sync / parse** | **4.79×** |');
    expect(report).toContain('1.5 KiB / 2.9 KiB (**0.5×**)');
  });

  it('prints the fetch of the same lists, nothing parsed, as the floor under the sync', () => {
    expect(report).toContain(
      '| baseline: the same lists fetched, nothing parsed | 1.25 s (12 lists at a time, as the index) |',
    );
    expect(report).toContain('| sync / (fetch + parse) | 2.89× |');
    expect(report).toContain('(**2.89×** their fetch and parse together)');
    // results written before the lists baseline existed
    const [m] = results().ingest;
    const older = renderReport(results({ ingest: [{ ...m, lists: undefined, ratios: { ...m.ratios, syncToListsAndParse: undefined } }] }));
    expect(older).toContain('| baseline: the same lists fetched, nothing parsed | – |');
  });

  it('says when the process held less after the sync than before it, rather than a negative size', () => {
    // in bytes, so that a figure just over its 1 KiB target does not print as "1.0 KiB"
    expect(report).toContain('| RSS per indexed object | 2,100 B |');
    const base = results();
    const small = renderReport({
      ...base,
      ingest: [{ ...base.ingest[0], index: { ...base.ingest[0].index, rssBytesPerObject: -7_342 } }],
    });
    expect(small).toContain('| RSS per indexed object | below the start (the collection after the sync) |');
    expect(small).not.toContain('-7342');
  });

  it('puts the Kubernetes plugin beside Flux Fleet with requests per view and per open minute', () => {
    expect(report).toContain(
      '| Kubernetes plugin, entity tab: `POST /api/kubernetes/services/:name` | 900 ms | 1.80 s | 3 (12 errors) | 360 | 2,160 | **360×** |',
    );
    expect(report).toContain(
      '| 2.50 ms | 5.00 ms | 4 | 0 | 0 (no polling: signals) | 1× |',
    );
    expect(report).toContain(
      '21 during its views against 21.4 expected from its background rate',
    );
  });

  it('says what collecting capacity figures costs', () => {
    expect(report).toContain(
      'Capacity collection: 121 s, 2 whole rounds (from the end of one to the end of the last) at the default 60 s interval',
    );
    expect(report).toContain('| controllers measured from their metrics | 211 of 211 |');
    expect(report).toContain('| pod proxy requests per minute | 195 |');
    expect(report).toContain('| metrics the clusters answered those requests, per minute | 1,380 MB |');
    expect(report).toContain('| backend CPU over the window (collection, watches, churn, everything) | 0.41 cores |');
  });

  it('says when a capacity window did not span whole rounds (results of runs before it did)', () => {
    const product = { ...results().product!, capacity: { ...results().product!.capacity!, wholeRounds: undefined } };
    expect(renderReport(results({ product }))).toContain('Capacity collection: 121 s, 2 rounds ended within it');
  });

  it("counts the product's sync from the backend's start; older results say what they measured", () => {
    const product = results().product!;
    const backend = { readyMs: 37_600, syncedMs: 58_000, syncedSinceStartMs: 95_700, rssMiBSynced: 2_784 };
    expect(renderReport(results({ product: { ...product, backend } }))).toContain(
      'every cluster synced **95.7 s** after start (ready 37.6 s after start)',
    );
    const { syncedSinceStartMs: _, ...older } = backend;
    expect(renderReport(results({ product: { ...product, backend: older } }))).toContain(
      'ready 37.6 s after start, every cluster synced 58.0 s later',
    );
  });

  it('names node flags added to the backend, and says nothing of them when there were none', () => {
    const product = results().product!;
    const backend = { readyMs: 11_000, syncedMs: 124_000, rssMiBSynced: 2_784 };
    const plain = renderReport(results({ product: { ...product, backend } }));
    expect(plain).toContain('with the V8 flags of the backend README, without the file watcher');
    const flagged = renderReport(
      results({ product: { ...product, backend: { ...backend, extraNodeFlags: ['--heap-growing-percent=0'] } } }),
    );
    expect(flagged).toContain('with the V8 flags of the backend README and `--heap-growing-percent=0` after them,');
  });

  it('shows pages left unanswered by a hanging cluster', () => {
    expect(report).toContain('15.0 s (30.0 s); 5 of 5 unanswered after 15.0 s');
  });

  it('sums the ratios up before the tables', () => {
    const headline = report.slice(0, report.indexOf('| Ingest'));
    expect(headline).toContain(
      "against Flux Fleet's p50 and its **0** cluster requests per view: the Kubernetes plugin's entity tab **360×** and **360**",
    );
    expect(headline).toContain('one hanging cluster: Flux Fleet');
    expect(headline).toContain(
      "the Kubernetes plugin's entity tab left pages unanswered after 15.0 s",
    );
    expect(headline).toContain(
      'synced in **4.79×** the time of a plain `JSON.parse` of the same lists',
    );
  });

  it('puts the liveness probe beside the signals, and leaves it out of results that have none', () => {
    const freshness = {
      changes: 200,
      entityChannelMs: dist(15, 1_600),
      objectChannelMs: dist(14, 1_600),
      missed: { entity: 0, object: 0 },
      timeoutMs: 10_000,
    };
    const withProbe = renderReport(
      results({
        product: {
          ...results().product!,
          freshness: { ...freshness, livenessMs: dist(2, 1_500) },
        },
      }),
    );
    expect(withProbe).toContain(
      '| entity channel (an open entity page) | 15.0 ms | 1.60 s |',
    );
    expect(withProbe).toContain(
      'every 100 ms (max 1.50 s; a tail here too means the whole backend paused) | 2.00 ms | 1.50 s |',
    );
    const older = renderReport(
      results({ product: { ...results().product!, freshness } }),
    );
    expect(older).toContain('| entity channel (an open entity page)');
    expect(older).not.toContain('liveness');
    expect(older).not.toContain('holds the change');
  });

  it("splits a change's time at the simulator's answer, with the simulator's thread beside it", () => {
    const freshness = {
      changes: 200,
      entityChannelMs: dist(430, 5_200),
      objectChannelMs: dist(360, 5_200),
      missed: { entity: 0, object: 0 },
      timeoutMs: 10_000,
      simulatorAnswerMs: dist(400, 5_100),
      entityChannelAfterAnswerMs: dist(12, 90),
      simulatorEventLoop: {
        sinceMs: 300_000,
        utilization: 0.934,
        delayMs: { p50: 10.2, p99: 2_400, max: 5_300 },
      },
    };
    const rendered = renderReport(results({ product: { ...results().product!, freshness } }));
    expect(rendered).toContain(
      "| the simulator's answer to the change (it writes the watch events first); its thread meanwhile: busy 93 %, timers late p99 2.40 s, max 5.30 s | 400 ms | 5.10 s |",
    );
    expect(rendered).toContain(
      "| from the simulator's answer to the entity channel's signal (the backend's share, and the network's) | 12.0 ms | 90.0 ms |",
    );
    const older = renderReport(
      results({
        product: {
          ...results().product!,
          freshness: { ...freshness, simulatorAnswerMs: undefined, entityChannelAfterAnswerMs: undefined },
        },
      }),
    );
    expect(older).not.toContain("the simulator's answer");
  });

  it("says how soon an open entity page holds a change, its refreshed view included, when it was measured", () => {
    const freshness = {
      changes: 200,
      entityChannelMs: dist(15, 160),
      entityPageMs: dist(21, 190),
      objectChannelMs: dist(14, 60),
      missed: { entity: 0, object: 0 },
      timeoutMs: 10_000,
    };
    const rendered = renderReport(results({ product: { ...results().product!, freshness } }));
    expect(rendered).toContain(
      '| an open entity page holds the change (its signal, then the view it asks again at once) | 21.0 ms | 190 ms |',
    );
    expect(rendered).toContain(
      'a change in a cluster reaches an open entity page in 21.0 ms (p50), 190 ms (p99), its refreshed view included',
    );
  });

  it('gives long syncs in minutes and large list bodies in GiB', () => {
    const [m] = results().ingest;
    const large = renderReport(
      results({
        ingest: [
          {
            ...m,
            size: 'L',
            index: { ...m.index, syncMs: 133_297 },
            baseline: { ...m.baseline, bytes: 2.57 * 2 ** 30 },
          },
        ],
      }),
    );
    expect(large).toContain('| start to fully synced | 2 min 13 s |');
    expect(large).toContain('(400 pages, 2.57 GiB)');
  });

  it('leaves out parts that did not run and lists the failed ones', () => {
    const failed = renderReport(
      results({
        product: undefined,
        failures: [{ part: 'product M', message: 'backend exited\nlog…' }],
      }),
    );
    expect(failed).not.toContain('Side by side');
    expect(failed).toContain('**Failed parts:** product M: backend exited');
  });

  it('puts the run at L under its own heading after the default run, each naming its raw file', () => {
    const large = results({
      command: '--size L',
      options: {
        pageTimeoutMs: 15_000,
        productSize: 'L',
        resultsFile: 'bench/results/latest-L.json',
      } as BenchResults['options'],
    });
    const section = renderBenchSection(results(), large);
    expect(section.match(/^## Benchmarks$/gm)).toHaveLength(1);
    const l = section.indexOf('### Fleet L');
    expect(l).toBeGreaterThan(0);
    expect(section.slice(0, l)).toContain('bench/results/latest.json');
    expect(section.slice(l)).toContain('bench/results/latest-L.json');
    expect(section.slice(l)).toContain('make bench ARGS="--size L"');
    expect(renderBenchSection(undefined, large)).toMatch(/^## Benchmarks\n\nNo default run on record/);
    expect(renderBenchSection(results(), undefined)).not.toContain('### Fleet L');
  });
});

describe('viewCounts', () => {
  it.each([
    [[50, 50, 50], '50 views each'],
    [[50, 10, 10], "50 views of Flux Fleet's page, 10 of each other"],
    [[50], '50 views each'],
  ])('%j → %s', (counts, text) => {
    const kinds = ['fluxFleet', 'kubernetesTab', 'fluxCards'];
    expect(viewCounts(counts.map((views, i) => ({ kind: kinds[i], views })))).toBe(text);
  });
});
