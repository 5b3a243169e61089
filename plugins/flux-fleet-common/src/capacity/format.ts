/**
 * How capacity figures read in sentences (rules §12): percentages with a space ("23 %"), counts with thousands
 * separators, headroom rounded down to two significant figures ("about 6,000"), durations in s, m or h.
 */

/** A whole number with comma thousands separators, independent of the runtime's locale. */
export function formatCount(n: number): string {
  const whole = Math.trunc(n);
  const sign = whole < 0 ? '-' : '';
  return sign + String(Math.abs(whole)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * A ratio as a whole percentage: 0.234 → "23 %". A share above 0 that rounds to 0 reads "under 1 %" (not "0 %",
 * which would say the controller does nothing).
 */
export function formatPercent(ratio: number): string {
  if (ratio > 0 && ratio < 0.005) return 'under 1 %';
  return `${Math.round(ratio * 100)} %`;
}

/**
 * A count rounded down to a figure people read: exact below 20, else down to two significant figures
 * (6,234 → 6,200; 187 → 180), so that "room for about" never promises more than there is.
 */
export function roundDownReadable(n: number): number {
  const whole = Math.max(0, Math.floor(n));
  if (whole < 20) return whole;
  const step = 10 ** (Math.floor(Math.log10(whole)) - 1);
  return Math.floor(whole / step) * step;
}

/** The headroom as it reads: "about 6,200", "3", "none". */
export function formatHeadroom(n: number): string {
  const readable = roundDownReadable(n);
  if (readable === 0) return 'none';
  return readable < 20
    ? formatCount(readable)
    : `about ${formatCount(readable)}`;
}

/** A duration in seconds as it reads: "850 ms", "40 s", "6 m", "1.5 h"; "under 1 ms" above 0 but below it. */
export function formatSeconds(seconds: number): string {
  if (seconds <= 0) return '0 s';
  if (seconds < 0.0005) return 'under 1 ms';
  if (seconds < 0.9995) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 90) return `${trim(seconds)} s`;
  if (seconds < 90 * 60) return `${trim(seconds / 60)} m`;
  return `${trim(seconds / 3600)} h`;
}

/** A number with at most one decimal, trailing `.0` dropped. */
export function trim(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
}

/** Bytes as KiB, MiB or GiB: "640 KiB", "512 MiB", "1.5 GiB". */
export function formatBytes(bytes: number): string {
  const mib = bytes / 2 ** 20;
  if (mib < 1)
    return bytes <= 0
      ? '0 MiB'
      : `${Math.max(1, Math.round(bytes / 2 ** 10))} KiB`;
  return mib < 1024 ? `${trim(mib)} MiB` : `${trim(mib / 1024)} GiB`;
}

/** A count of a kind in words: "1 Kustomization", "2,400 Kustomizations", "3 GitRepositories". */
export function formatKindCount(n: number, kind: string): string {
  if (n === 1) return `1 ${kind}`;
  const plural = /[^aeiou]y$/.test(kind)
    ? `${kind.slice(0, -1)}ies`
    : `${kind}s`;
  return `${formatCount(n)} ${plural}`;
}

/** The objects of a mix in words: the kind when there is one, else "objects". */
export function formatMix(
  objectCount: number,
  countsByKind: Readonly<Record<string, number>>,
): string {
  const kinds = Object.keys(countsByKind).filter(k => countsByKind[k] > 0);
  if (kinds.length === 1) return formatKindCount(objectCount, kinds[0]);
  return objectCount === 1 ? '1 object' : `${formatCount(objectCount)} objects`;
}

/**
 * CPU cores as they read: "1 core", "2.5 cores"; below one core in millicores as Kubernetes writes CPU ("40
 * millicores", "under 1 millicore"), so that a small figure never reads "0 cores".
 */
export function formatCores(cores: number): string {
  if (cores <= 0) return 'no CPU';
  if (cores < 0.0005) return 'under 1 millicore';
  if (cores < 0.95) {
    const milli = Math.round(cores * 1000);
    return milli === 1 ? '1 millicore' : `${milli} millicores`;
  }
  const text = trim(cores);
  return text === '1' ? '1 core' : `${text} cores`;
}

/** A rate a second with at most one decimal; above 0 but below 0.05 it reads "under 0.1". */
export function formatRate(perSecond: number): string {
  if (perSecond > 0 && perSecond < 0.05) return 'under 0.1';
  return trim(perSecond);
}
