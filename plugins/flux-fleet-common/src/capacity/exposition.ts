/**
 * The samples of one scrape of a Prometheus metrics endpoint (the text exposition format), as the capacity
 * derivations read them: flat name + labels + value, histograms as their `_bucket`, `_sum` and `_count` series.
 * Tokenising the text is the backend's job (a library); this file holds the model and the pure readers of it.
 */

/** One sample line: `name{labels} value`. */
export interface MetricSample {
  name: string;
  labels: Readonly<Record<string, string>>;
  /** May be NaN or ±Infinity, as the exposition format allows; readers decide what that means. */
  value: number;
}

/** One scrape of one pod. */
export interface PodScrape {
  pod: string;
  /** When the scrape's answer arrived, in milliseconds since the epoch. */
  at: number;
  samples: readonly MetricSample[];
}

/**
 * Reads a sample value as the exposition format writes it: a Go float (`1.5`, `1e-3`), `NaN`, `+Inf`, `-Inf`.
 * Undefined when the text is none of these (a garbage line).
 */
export function parseSampleValue(text: string): number | undefined {
  const t = text.trim();
  switch (t) {
    case 'NaN':
      return NaN;
    case '+Inf':
    case 'Inf':
      return Infinity;
    case '-Inf':
      return -Infinity;
    default:
  }
  // Number('') is 0 and Number('0x10') is 16: neither is a sample value
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return undefined;
  return Number(t);
}

/** Metric and label names of the exposition format. */
export const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
export const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Identifies a series within one scrape: its name and its labels, in label-name order. */
export function seriesKey(
  sample: Pick<MetricSample, 'name' | 'labels'>,
): string {
  const labels = Object.keys(sample.labels)
    .sort()
    .map(k => `${k}=${JSON.stringify(sample.labels[k])}`)
    .join(',');
  return `${sample.name}{${labels}}`;
}

/** A series as Prometheus writes it, for messages: `workqueue_depth{controller="kustomization"}`. */
export function seriesText(
  sample: Pick<MetricSample, 'name' | 'labels'>,
): string {
  const labels = Object.entries(sample.labels)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(',');
  return labels ? `${sample.name}{${labels}}` : sample.name;
}

/** The samples of one metric name whose labels include every label of `match`. */
export function samplesOf(
  samples: readonly MetricSample[],
  name: string,
  match: Readonly<Record<string, string>> = {},
): MetricSample[] {
  const wanted = Object.entries(match);
  return samples.filter(
    s => s.name === name && wanted.every(([k, v]) => s.labels[k] === v),
  );
}
