/** Summaries of measured values: percentiles by nearest rank, and ratios as printed. */

/** The distribution of a set of measurements (milliseconds unless said otherwise). */
export interface Distribution {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Rounds to two decimals (figures are printed, not computed with). */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The value below which `p` percent of the sorted values fall (nearest rank); NaN for no values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** Count, p50, p90, p99, max and mean of the values. */
export function distribution(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    count: sorted.length,
    p50: round2(percentile(sorted, 50)),
    p90: round2(percentile(sorted, 90)),
    p99: round2(percentile(sorted, 99)),
    max: round2(sorted[sorted.length - 1] ?? NaN),
    mean: round2(sorted.length ? sum / sorted.length : NaN),
  };
}

/** `value / baseline`, rounded to one decimal when at least 10 and to two below; undefined when not measurable. */
export function ratio(value: number, baseline: number): number | undefined {
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline <= 0) {
    return undefined;
  }
  const r = value / baseline;
  return r >= 10 ? Math.round(r * 10) / 10 : round2(r);
}

/** Milliseconds elapsed since a `process.hrtime.bigint()` reading. */
export function msSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}
