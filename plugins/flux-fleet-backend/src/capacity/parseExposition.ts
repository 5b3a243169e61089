import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import {
  LABEL_NAME,
  METRIC_NAME,
  parseSampleValue,
  SCRAPED_SERIES,
} from '@flux-fleet/plugin-flux-fleet-common';
import type { MetricSample } from '@flux-fleet/plugin-flux-fleet-common';

/** `# TYPE` lines: see {@link parseExposition} for why they are hidden from the library. */
const TYPE_LINE = /^[ \t]*#[ \t]*TYPE[ \t].*$/gm;

const SPACE = 0x20;
const TAB = 0x09;
const HASH = 0x23;
const OPEN_BRACE = 0x7b;

/** Whether a byte may stand in a metric name (`[a-zA-Z_:][a-zA-Z0-9_:]*`), as its first byte or a later one. */
function isNameByte(byte: number, first: boolean): boolean {
  return (
    (byte >= 0x61 && byte <= 0x7a) ||
    (byte >= 0x41 && byte <= 0x5a) ||
    byte === 0x5f ||
    byte === 0x3a ||
    (!first && byte >= 0x30 && byte <= 0x39)
  );
}

/** The first bytes of the series capacity reads: a well-formed name starting otherwise is dropped unread. */
const SCRAPED_FIRST_BYTES = new Set([...SCRAPED_SERIES].map(name => name.charCodeAt(0)));

/**
 * Whether a scrape keeps a line of its body (the bytes from `start` to `end`): samples of the series capacity
 * reads (SCRAPED_SERIES), and lines that are no sample of a well-named series, so that {@link parseExposition}
 * names what is wrong with them. Comments go: `# TYPE` is hidden from the library anyway, `# HELP` is never read.
 * Dropping the rest while the body streams is what makes a scrape cheap: at fleet M, parsing every line of 211
 * controllers' expositions took 40 % of the backend's CPU at rest, and its garbage took the backend from 0.8 to
 * 1.7 GiB resident in two minutes (profile of 2026-12-02; with the filter: 0.8 GiB, and 3 % of the samples). It reads
 * bytes, not text: Flux's per-object `gotk_reconcile_duration_seconds` lines, nearly all of a large controller's
 * exposition, are dropped without a string being made of them. At fleet L, decoding and cutting every line cost
 * the backend about 7 % of a core at rest (profile of 2026-12-05); read as bytes, a GET of a 17.7 MB exposition of
 * 10,000 objects over loopback took 33-35 ms instead of 56-58 ms (server and client in one process).
 */
export function isCapacityLine(bytes: Buffer, start = 0, end = bytes.length): boolean {
  let i = start;
  while (i < end && (bytes[i] === SPACE || bytes[i] === TAB)) i++;
  if (i === end || bytes[i] === HASH) return false;
  const nameStart = i;
  let wellNamed = true;
  for (; i < end; i++) {
    const byte = bytes[i];
    if (byte === OPEN_BRACE || byte === SPACE || byte === TAB) break;
    if (wellNamed && !isNameByte(byte, i === nameStart)) wellNamed = false;
  }
  if (!wellNamed || i === nameStart) return true;
  if (!SCRAPED_FIRST_BYTES.has(bytes[nameStart])) return false;
  return SCRAPED_SERIES.has(bytes.toString('latin1', nameStart, i));
}

/** Why a parsed sample is not one, or undefined. */
function whatIsWrong(
  name: string,
  labels: Record<string, string>,
  text: string | undefined,
  value: number | undefined,
): string | undefined {
  if (!METRIC_NAME.test(name)) return `'${name}' is not a metric name`;
  if (Object.keys(labels).some(l => !LABEL_NAME.test(l)))
    return `${name} has a label name that is not one`;
  if (value === undefined)
    return `the value of ${name} is '${(text ?? '').slice(
      0,
      40,
    )}', not a number`;
  return undefined;
}

/**
 * Reads a Prometheus text exposition into flat samples, or throws an `Error` whose message says what is wrong
 * with the text (the first line that is not a sample, a value that is not a number).
 *
 * The tokenising (label escapes, comments, timestamps) is parse-prometheus-text-format's. Its `# TYPE` handling is
 * not used: for a histogram or summary it folds the buckets of every label set into one map, so of
 * `controller_runtime_reconcile_time_seconds` with two `controller` labels it keeps only the last controller's
 * buckets and drops every `_sum` and `_count` (8 sample lines in, 2 buckets out). With the `# TYPE` lines hidden
 * every sample comes out as its own series, which is what the capacity figures read. It also drops a last sample
 line that has no newline after it, so one is added.
 */
export function parseExposition(text: string): MetricSample[] {
  let families;
  try {
    families = parsePrometheusTextFormat(`${text.replace(TYPE_LINE, '')}\n`);
  } catch (error) {
    throw new Error(
      `it is not the Prometheus text format (${(error as Error).message.slice(
        0,
        160,
      )})`,
    );
  }
  const samples: MetricSample[] = [];
  for (const family of families) {
    for (const metric of family.metrics) {
      const labels = metric.labels ?? {};
      const value = parseSampleValue(metric.value ?? '');
      const bad = whatIsWrong(family.name, labels, metric.value, value);
      if (bad) {
        throw new Error(
          `it is not the Prometheus text format: ${bad.slice(0, 200)}`,
        );
      }
      samples.push({ name: family.name, labels, value: value! });
    }
  }
  if (samples.length === 0) {
    // the library skips lines it reads as nameless (`{"kind":"Status"…}`): no samples is never a metrics answer
    const start = text.trim().slice(0, 60);
    throw new Error(
      start
        ? `it is not the Prometheus text format: no sample in it (it starts '${start}')`
        : 'it is empty',
    );
  }
  return samples;
}
