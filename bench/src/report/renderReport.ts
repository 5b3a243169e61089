/**
 * The results as Markdown: the `## Benchmarks` section of the README (the same text is printed at the end of a
 * run). Figures a part did not produce are shown as `–`.
 */
import type { PageKind, PageViewSeries } from '../product/pageViews';
import { PAGE_REQUESTS } from '../product/pageViews';
import type { CapacityCost } from '../product/capacityCost';
import type { BenchResults } from './results';

const DASH = '–';

function ms(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return DASH;
  if (value >= 120_000) {
    return `${Math.floor(value / 60_000)} min ${Math.round(
      (value % 60_000) / 1000,
    )} s`;
  }
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 1_000) return `${(value / 1000).toFixed(2)} s`;
  if (value >= 100) return `${Math.round(value)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  return `${value.toFixed(2)} ms`;
}

function count(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value)
    ? DASH
    : Math.round(value).toLocaleString('en-US');
}

/** A size given in bytes, in MiB or GiB. */
function mebibytes(value: number): string {
  return value >= 2 ** 30
    ? `${(value / 2 ** 30).toFixed(2)} GiB`
    : `${(value / 2 ** 20).toFixed(1)} MiB`;
}

function bytes(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return DASH;
  return value >= 1024
    ? `${(value / 1024).toFixed(1)} KiB`
    : `${Math.round(value)} B`;
}

/**
 * RSS per object over the process before the sync. Below zero where the index is small (fleet S): the collection the
 * plugin runs once the first sync is done gives back more of what the process held before than the index adds.
 */
function rssPerObject(value: number | undefined): string {
  if (value !== undefined && value < 0) return 'below the start (the collection after the sync)';
  // in bytes: its target is 1 KiB, and 1,069 B printed as "1.0 KiB" read as met
  return value === undefined || !Number.isFinite(value) ? DASH : `${Math.round(value).toLocaleString('en-US')} B`;
}

function times(value: number | undefined): string {
  return value === undefined ? DASH : `${value}×`;
}

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (i === 0 ? '---' : '--:')).join(' | ')} |`,
    ...rows.map(r => `| ${r.join(' | ')} |`),
  ].join('\n');
}

function machineLine(results: BenchResults): string {
  const m = results.machine;
  const other =
    m.otherWorkCores === undefined
      ? ''
      : `; other work used ${m.otherWorkCores} of the ${
          m.cores
        } cores on average during the run${
          m.noisy ? ' (noisy: treat the figures as upper bounds)' : ''
        }`;
  return `${m.cores} cores (${m.cpuModel}), ${m.memoryGiB} GiB, Node ${
    m.node
  }; \`uptime\` before: \`${m.uptimeBefore}\`, after: \`${
    m.uptimeAfter ?? DASH
  }\`${other}.`;
}

function ingestSection(results: BenchResults): string {
  if (results.ingest.length === 0) return '';
  const sizes = results.ingest;
  const header = [
    'Ingest (index benchmark; baseline on a simulator of the same fleet)',
    ...sizes.map(i => `fleet ${i.size}`),
  ];
  const row = (label: string, cell: (i: (typeof sizes)[number]) => string) => [
    label,
    ...sizes.map(cell),
  ];
  return [
    table(header, [
      row(
        'clusters, Flux objects',
        i => `${i.clusters}, ${count(i.fluxObjects)}`,
      ),
      row('start to fully synced', i => ms(i.index.syncMs)),
      row(
        'baseline: `JSON.parse` of the same list bodies',
        i =>
          `${ms(i.baseline.parseMs)} (${count(
            i.baseline.pages,
          )} pages, ${mebibytes(i.baseline.bytes)})`,
      ),
      row('**sync / parse**', i => `**${times(i.ratios.syncToParse)}**`),
      row(
        'baseline: the same lists fetched, nothing parsed',
        i =>
          i.lists
            ? `${ms(i.lists.listsMs)} (${i.lists.concurrentLists} lists at a time, as the index)`
            : DASH,
      ),
      row('sync / (fetch + parse)', i => times(i.ratios.syncToListsAndParse)),
      row('RSS per indexed object', i => rssPerObject(i.index.rssBytesPerObject)),
      row(
        'heap per object: index / parsed lists',
        i =>
          `${bytes(i.index.heapBytesPerObject)} / ${bytes(
            i.baseline.parsedHeapBytesPerFluxObject,
          )} (**${times(i.ratios.heapToParsed)}**)`,
      ),
    ]),
  ].join('\n');
}

function seriesRow(
  s: PageViewSeries,
  ratioToOurs: number | undefined,
): string[] {
  const info = PAGE_REQUESTS[s.kind];
  const perView = s.clusterRequestsPerView;
  const failed =
    s.failed > 0
      ? ` (${s.failed} of ${s.views} failed${
          s.timedOut ? `, ${s.timedOut} timed out` : ''
        })`
      : '';
  return [
    `${info.plugin}: \`${info.request}\``,
    `${ms(s.latencyMs.p50)}${failed}`,
    ms(s.latencyMs.p99),
    `${s.fluxObjectsPerView}${
      s.clusterErrorsPerView ? ` (${s.clusterErrorsPerView} errors)` : ''
    }`,
    count(perView),
    s.kind === 'fluxFleet' ? '0 (no polling: signals)' : count(perView * 6),
    s.kind === 'fluxFleet' ? '1×' : `**${times(ratioToOurs)}**`,
  ];
}

function productSections(results: BenchResults): string[] {
  const p = results.product;
  if (!p) return [];
  const sections: string[] = [];
  const fleet = `fleet ${p.size}: ${p.clusters} clusters, ${count(
    p.fluxObjects,
  )} Flux objects, churn ${p.churnPerSecondPerCluster} changes/s per cluster`;
  if (p.backend) {
    sections.push(
      `**The product** (packages/backend in development mode as \`make start\` runs it, with the V8 flags of the backend README${
        p.backend.extraNodeFlags ? ` and \`${p.backend.extraNodeFlags.join(' ')}\` after them` : ''
      }, without the file watcher; ${fleet}): ${
        p.backend.syncedSinceStartMs !== undefined
          ? `every cluster synced **${ms(p.backend.syncedSinceStartMs)}** after start (ready ${ms(
              p.backend.readyMs,
            )} after start)`
          : `ready ${ms(p.backend.readyMs)} after start, every cluster synced ${ms(p.backend.syncedMs)} later`
      }${
        p.backend.settledMs !== undefined
          ? `, settled ${ms(p.backend.settledMs)} after that (${
              p.backend.settledCores
            } cores over 5 s; the measurements below start then)`
          : ''
      }; backend RSS ${count(p.backend.rssMiBSynced)} MiB synced, ${count(
        p.backend.rssMiBAtEnd,
      )} MiB at the end.`,
    );
  }
  if (p.api) {
    sections.push(
      table(
        [
          `API under load (${p.api.connections} connections, ${p.api.seconds} s per route)`,
          'p50',
          'p99',
          'requests/s',
          'p50 / baseline',
        ],
        p.api.routes.map(r => [
          `${r.name}: \`${r.example}\`${
            r.paths > 1 ? ` (${r.paths} paths)` : ''
          }${
            r.non2xx + r.errors > 0
              ? ` — ${r.non2xx} non-2xx, ${r.errors} errors`
              : ''
          }`,
          ms(r.latencyMs.p50),
          ms(r.latencyMs.p99),
          count(r.requestsPerSecond),
          times(p.api!.p50ToBaseline[r.name]),
        ]),
      ),
    );
  }
  if (p.freshness) {
    const f = p.freshness;
    const missed =
      f.missed.entity + f.missed.object > 0
        ? ` (missed within ${ms(f.timeoutMs)}: entity ${
            f.missed.entity
          }, object ${f.missed.object})`
        : '';
    sections.push(
      table(
        [
          `Freshness: change through the simulator's API → signal at a subscribed websocket client (${f.changes} changes, under churn)`,
          'p50',
          'p99',
        ],
        [
          [
            'entity channel (an open entity page)',
            ms(f.entityChannelMs.p50),
            ms(f.entityChannelMs.p99),
          ],
          ...(f.entityPageMs
            ? [
                [
                  'an open entity page holds the change (its signal, then the view it asks again at once)',
                  ms(f.entityPageMs.p50),
                  ms(f.entityPageMs.p99),
                ],
              ]
            : []),
          [
            `object channel (an open object detail)${missed}`,
            ms(f.objectChannelMs.p50),
            ms(f.objectChannelMs.p99),
          ],
          ...(f.livenessMs
            ? [
                [
                  `the backend's liveness endpoint meanwhile, every 100 ms (max ${ms(
                    f.livenessMs.max,
                  )}; a tail here too means the whole backend paused)`,
                  ms(f.livenessMs.p50),
                  ms(f.livenessMs.p99),
                ],
              ]
            : []),
          ...(f.simulatorAnswerMs
            ? [
                [
                  `the simulator's answer to the change (it writes the watch events first)${
                    f.simulatorEventLoop
                      ? `; its thread meanwhile: busy ${Math.round(
                          f.simulatorEventLoop.utilization * 100,
                        )} %, timers late p99 ${ms(
                          f.simulatorEventLoop.delayMs.p99,
                        )}, max ${ms(f.simulatorEventLoop.delayMs.max)}`
                      : ''
                  }`,
                  ms(f.simulatorAnswerMs.p50),
                  ms(f.simulatorAnswerMs.p99),
                ],
              ]
            : []),
          ...(f.entityChannelAfterAnswerMs
            ? [
                [
                  "from the simulator's answer to the entity channel's signal (the backend's share, and the network's)",
                  ms(f.entityChannelAfterAnswerMs.p50),
                  ms(f.entityChannelAfterAnswerMs.p99),
                ],
              ]
            : []),
        ],
      ),
    );
  }
  if (p.pageViews) {
    const ratios = p.pageViews.p50ToFluxFleet;
    const rows = p.pageViews.series.map(s =>
      seriesRow(s, ratios[s.kind as PageKind]),
    );
    const ours = p.pageViews.series.find(s => s.kind === 'fluxFleet');
    sections.push(
      [
        table(
          [
            `Side by side: entity page views, same backend and ${
              p.clusters
            } clusters (${viewCounts(p.pageViews.series)}, one after another)`,
            'p50',
            'p99',
            'Flux objects shown',
            'cluster requests per view',
            'per open page per minute (10 s refresh)',
            'p50 / Flux Fleet',
          ],
          rows,
        ),
        ours?.background
          ? `\n\nFlux Fleet's own cluster requests do not depend on page views: ${count(
              ours.clusterRequests,
            )} during its views against ${
              ours.background.expectedDuringViews
            } expected from its background rate (${
              ours.background.requestsPerSecond
            }/s over ${p.clusters} clusters: relists and discovery; opening watches, version probes, write checks and capacity collection are not counted).`
          : '',
      ].join(''),
    );
  }
  if (p.faults && p.faults.length > 0) {
    const kinds = p.faults[0].series.map(s => s.kind);
    sections.push(
      table(
        [
          'One cluster misbehaving: entity page p50 (p99)',
          ...kinds.map(k => PAGE_REQUESTS[k].plugin),
        ],
        p.faults.map(f => [
          `${f.fault === 'slow' ? 'slow' : 'hanging'} cluster ${f.cluster} (\`${
            f.setting
          }\`, ${f.series[0]?.views ?? 0} views${
            f.fault === 'hang' ? ' at once' : ''
          })`,
          ...f.series.map(s => {
            const failed = unanswered(s, results.options.pageTimeoutMs);
            return `${ms(s.latencyMs.p50)} (${ms(s.latencyMs.p99)})${failed}`;
          }),
        ]),
      ),
    );
  }
  if (p.capacity) sections.push(capacitySection(p.capacity));
  return sections;
}

/** "50 views each", or "50 views of Flux Fleet's page, 10 of each other" when Flux Fleet's got more. */
export function viewCounts(series: ReadonlyArray<{ kind: string; views: number }>): string {
  const ours = series.find(s => s.kind === 'fluxFleet')?.views ?? 0;
  const others = [...new Set(series.filter(s => s.kind !== 'fluxFleet').map(s => s.views))];
  if (others.length === 0 || (others.length === 1 && others[0] === ours)) return `${ours} views each`;
  return `${ours} views of Flux Fleet's page, ${others.join(' or ')} of each other`;
}

/** The rounds a capacity window spans: whole rounds, or (results before, or rounds overrunning) rounds ended in it. */
function roundsOf(c: CapacityCost): string {
  if (c.wholeRounds) return `${c.rounds} whole round${c.rounds === 1 ? '' : 's'} (from the end of one to the end of the last)`;
  return `${c.rounds} rounds ended within it`;
}

/** What collecting capacity figures cost the backend and the clusters (issue 12). */
function capacitySection(c: CapacityCost): string {
  return table(
    [
      `Capacity collection: ${c.windowSeconds} s, ${roundsOf(c)} at the default 60 s interval, pod proxy`,
      'figure',
    ],
    [
      [
        'controllers measured from their metrics',
        `${count(c.measuredControllers)} of ${count(c.controllers)}`,
      ],
      ['controller pods scraped per minute', count(c.scrapesPerMinute)],
      ['pod proxy requests per minute', count(c.podProxyRequestsPerMinute)],
      // absent from the results of runs before the simulator counted them
      ...(c.metricsMBPerMinute === undefined
        ? []
        : [['metrics the clusters answered those requests, per minute', `${count(c.metricsMBPerMinute)} MB`]]),
      [
        'every cluster request of the backend per minute (watches, probes and controller lookups included)',
        count(c.clusterRequestsPerMinute),
      ],
      [
        'backend CPU over the window (collection, watches, churn, everything)',
        `${c.backendCores} cores`,
      ],
    ],
  );
}

/** The ratios in a few lines, before the tables. */
function headline(results: BenchResults): string {
  const lines: string[] = [];
  const p = results.product;
  const series = (kind: PageKind) =>
    p?.pageViews?.series.find(s => s.kind === kind);
  const ours = series('fluxFleet');
  const tab = series('kubernetesTab');
  const cards = series('fluxCards');
  const theirs = [tab, cards].filter(
    (x): x is PageViewSeries => x !== undefined,
  );
  if (p?.pageViews && ours && theirs.length > 0) {
    const ratios = p.pageViews.p50ToFluxFleet;
    lines.push(
      `entity page at ${p.size} (${
        p.clusters
      } clusters), against Flux Fleet's p50 and its **${count(
        ours.clusterRequestsPerView,
      )}** cluster requests per view: ${theirs
        .map(
          s =>
            `${PAGE_REQUESTS[s.kind].short} **${times(
              ratios[s.kind],
            )}** and **${count(s.clusterRequestsPerView)}**`,
        )
        .join('; ')}`,
    );
  }
  const hang = p?.faults?.find(f => f.fault === 'hang');
  if (hang) {
    const [first, ...others] = hang.series;
    const stuck = others
      .filter(s => s.timedOut > 0)
      .map(s => PAGE_REQUESTS[s.kind].short);
    lines.push(
      `one hanging cluster: Flux Fleet's page p50 ${ms(first?.latencyMs.p50)}${
        stuck.length > 0
          ? `; ${stuck.join(' and ')} left pages unanswered after ${ms(
              results.options.pageTimeoutMs,
            )}`
          : ''
      }`,
    );
  }
  for (const i of results.ingest) {
    lines.push(
      `ingest ${i.size} (${count(
        i.fluxObjects,
      )} Flux objects): synced in **${times(
        i.ratios.syncToParse,
      )}** the time of a plain \`JSON.parse\` of the same lists (**${times(
        i.ratios.syncToListsAndParse,
      )}** their fetch and parse together), holding **${times(
        i.ratios.heapToParsed,
      )}** their parsed heap`,
    );
  }
  if (p?.api) {
    const entity = p.api.routes.find(r => r.name === 'entity view');
    if (entity) {
      lines.push(
        `entity view under load: p50 ${ms(entity.latencyMs.p50)}, **${times(
          p.api.p50ToBaseline[entity.name],
        )}** the catalog's own entity lookup on the same backend`,
      );
    }
  }
  if (p?.freshness) {
    const page = p.freshness.entityPageMs ?? p.freshness.entityChannelMs;
    lines.push(
      `a change in a cluster reaches an open entity page in ${ms(
        page.p50,
      )} (p50), ${ms(page.p99)} (p99)${
        p.freshness.entityPageMs ? ', its refreshed view included' : ''
      }; the Kubernetes plugin refreshes every 10 s`,
    );
  }
  return lines.length > 0 ? lines.map(l => `- ${l}`).join('\n') : '';
}

/** What a series left unanswered, as a suffix. */
function unanswered(s: PageViewSeries, timeoutMs: number): string {
  if (s.timedOut > 0)
    return `; ${s.timedOut} of ${s.views} unanswered after ${ms(timeoutMs)}`;
  if (s.failed > 0) return `; ${s.failed} failed`;
  return '';
}

/**
 * One run's report: the `## Benchmarks` section, or with `subsection` a part of it under that heading (without the
 * section's pointers to the bench README and the options, said once above it).
 */
export function renderReport(
  results: BenchResults,
  subsection?: string,
): string {
  // every run records its file; the fallback is for results whose options were not all written (fixtures)
  const rawFile = results.options.resultsFile ?? 'bench/results/latest.json';
  const intro = [
    subsection ?? '## Benchmarks',
    '',
    `\`make bench${
      results.command ? ` ARGS="${results.command}"` : ''
    }\` on ${results.date.slice(0, 10)}, ${
      results.durationSeconds
    } s. ${machineLine(results)}`,
    `Every ratio is against a baseline measured in the same run. Raw figures: [\`${rawFile}\`](${rawFile}).`,
    ...(subsection === undefined
      ? [
          'How each figure is measured, and what flatters whom: [`bench/README.md`](bench/README.md). Options: `--size S|M|L` (default M; L: the product at 100 clusters with the ingest of L alone, figures below), `--with-l` (ingest of fleet L too), `--quick` (smoke run on S).',
        ]
      : []),
  ].join('\n');
  const failures =
    results.failures.length > 0
      ? `**Failed parts:** ${results.failures
          .map(f => `${f.part}: ${f.message.split('\n')[0]}`)
          .join('; ')}`
      : '';
  const parts = [
    intro,
    headline(results),
    ingestSection(results),
    ...productSections(results),
    failures,
  ];
  return `${parts.filter(Boolean).join('\n\n')}\n`;
}

/**
 * The README's `## Benchmarks` section: the default run's report, then the run at L (`--size L`) under its own
 * heading, each from its own results file; either may be missing.
 */
export function renderBenchSection(
  main: BenchResults | undefined,
  large: BenchResults | undefined,
): string {
  const parts: string[] = [];
  if (main) parts.push(renderReport(main));
  else parts.push('## Benchmarks\n\nNo default run on record: `make bench`.\n');
  if (large) {
    parts.push(
      renderReport(
        large,
        `### Fleet L: ${
          large.product?.clusters ?? 100
        } clusters, about a million Flux objects`,
      ),
    );
  }
  return parts.join('\n');
}
