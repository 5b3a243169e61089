/**
 * Go durations (`time.ParseDuration`), the format of Flux's `spec.interval`, `spec.timeout` and
 * `status.history[].lastReconciledDuration`: a sequence of decimal numbers with units, e.g. `10m`, `1h30m`,
 * `3m6.2s`, `250ms`.
 */

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/**
 * Parses a Go duration into milliseconds; undefined when the text is not a Go duration. A bare `0` is zero, as
 * in Go; any other number needs a unit.
 */
export function parseGoDuration(text: string): number | undefined {
  let rest = text.trim();
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') {
    return 0;
  }
  if (rest === '') {
    return undefined;
  }
  PART.lastIndex = 0;
  let total = 0;
  while (PART.lastIndex < rest.length) {
    const match = PART.exec(rest);
    if (!match) {
      return undefined;
    }
    total += Number(match[1]) * UNIT_MS[match[2]];
  }
  return sign * total;
}

/** A short human form of a duration in milliseconds: `850ms`, `42s`, `3m6s`, `2h5m`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) {
    return String(ms);
  }
  const negative = ms < 0;
  let rest = Math.abs(ms);
  let text: string;
  if (rest < 1000) {
    text = `${Math.round(rest)}ms`;
  } else if (rest < 60_000) {
    text = `${Math.round(rest / 100) / 10}s`;
  } else {
    rest = Math.round(rest / 1000);
    const h = Math.floor(rest / 3600);
    const m = Math.floor((rest % 3600) / 60);
    const s = rest % 60;
    text = h > 0 ? `${h}h${m ? `${m}m` : ''}` : `${m}m${s ? `${s}s` : ''}`;
  }
  return negative ? `-${text}` : text;
}
