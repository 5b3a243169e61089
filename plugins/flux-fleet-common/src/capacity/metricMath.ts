/**
 * The arithmetic Prometheus does on counters and histograms (`rate`, `increase`, `histogram_quantile`), for
 * figures computed from two scrapes of a controller instead of a Prometheus server (rules §12). Pure: no I/O.
 */

/**
 * How much a counter grew between two readings. A counter that went down was reset (its process restarted), so,
 * as Prometheus' `rate` does, the new value is taken as the growth since the restart. Undefined when either
 * reading is not a finite number (NaN, ±Inf): such a counter says nothing about the window.
 */
export function counterIncrease(
  previous: number,
  current: number,
): number | undefined {
  if (!Number.isFinite(previous) || !Number.isFinite(current)) return undefined;
  return current < previous ? current : current - previous;
}

/** True when the counter went down between the readings: the process restarted in the window. */
export function counterWasReset(previous: number, current: number): boolean {
  return (
    Number.isFinite(previous) && Number.isFinite(current) && current < previous
  );
}

/** Per second over `seconds`; undefined for a window that is not positive or a value that is missing. */
export function perSecond(
  value: number | undefined,
  seconds: number,
): number | undefined {
  if (value === undefined || !(seconds > 0)) return undefined;
  return value / seconds;
}

/** One cumulative bucket of a histogram: how many observations were at most `le`. */
export interface HistogramBucket {
  /** Upper bound, `Infinity` for the `+Inf` bucket. */
  le: number;
  count: number;
}

/**
 * The φ-quantile of a histogram's cumulative buckets (usually their increase over a window), as Prometheus'
 * `histogram_quantile` computes it: find the bucket the rank falls into and interpolate linearly inside it
 * (the lowest bucket starts at 0 when its bound is positive). Undefined when there is nothing to say: no `+Inf`
 * bucket, no observations, φ outside [0, 1], or a count that is not a finite number. A rank that falls into the
 * `+Inf` bucket answers the largest finite bound, as Prometheus does (every such observation is at least that).
 * Counts that decrease from one bucket to the next (a scrape taken mid-update) are raised to the running
 * maximum, as Prometheus does.
 */
export function histogramQuantile(
  phi: number,
  buckets: readonly HistogramBucket[],
): number | undefined {
  if (!(phi >= 0 && phi <= 1)) return undefined;
  if (buckets.some(b => Number.isNaN(b.le) || !Number.isFinite(b.count))) {
    return undefined;
  }
  const sorted = [...buckets].sort((a, b) => a.le - b.le);
  if (sorted.length < 2 || sorted[sorted.length - 1].le !== Infinity) {
    return undefined;
  }
  let running = 0;
  const cumulative = sorted.map(b => {
    running = Math.max(running, b.count);
    return { le: b.le, count: running };
  });
  const total = cumulative[cumulative.length - 1].count;
  if (!(total > 0)) return undefined;
  const rank = phi * total;
  let i = cumulative.findIndex(b => b.count >= rank);
  // phi = 0 with empty lowest buckets: the first bucket that holds anything
  if (rank === 0) i = cumulative.findIndex(b => b.count > 0);
  const bucket = cumulative[i];
  if (bucket.le === Infinity) return cumulative[cumulative.length - 2].le;
  if (i === 0 && bucket.le <= 0) return bucket.le;
  const lowerBound = i === 0 ? 0 : cumulative[i - 1].le;
  const below = i === 0 ? 0 : cumulative[i - 1].count;
  return (
    lowerBound +
    (bucket.le - lowerBound) * ((rank - below) / (bucket.count - below))
  );
}

/** Adds bucket counts of the same bounds (Prometheus' `sum by (le)`). */
export function sumBuckets(
  histograms: ReadonlyArray<readonly HistogramBucket[]>,
): HistogramBucket[] {
  const byBound = new Map<number, number>();
  for (const buckets of histograms) {
    for (const b of buckets)
      byBound.set(b.le, (byBound.get(b.le) ?? 0) + b.count);
  }
  return [...byBound.entries()]
    .map(([le, count]) => ({ le, count }))
    .sort((a, b) => a.le - b.le);
}

/**
 * The increase of each bucket between two readings of one histogram series. When the `+Inf` bucket (the count of
 * every observation) went down the histogram was reset, and the current buckets are the increase, as for a
 * counter. A bound present in only one reading (the buckets were reconfigured) is left out. Undefined when either
 * reading has a count that is not finite.
 */
export function bucketIncreases(
  previous: readonly HistogramBucket[],
  current: readonly HistogramBucket[],
): HistogramBucket[] | undefined {
  if ([...previous, ...current].some(b => !Number.isFinite(b.count)))
    return undefined;
  const before = new Map(previous.map(b => [b.le, b.count]));
  const totalBefore = before.get(Infinity);
  const totalNow = current.find(b => b.le === Infinity)?.count;
  const reset =
    totalBefore !== undefined &&
    totalNow !== undefined &&
    totalNow < totalBefore;
  if (reset) return current.map(b => ({ ...b }));
  return current
    .filter(b => before.has(b.le))
    .map(b => ({ le: b.le, count: Math.max(0, b.count - before.get(b.le)!) }));
}
