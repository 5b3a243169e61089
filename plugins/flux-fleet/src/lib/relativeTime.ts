const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 24 * 60 * 60 * 1000],
  ['hour', 60 * 60 * 1000],
  ['minute', 60 * 1000],
  ['second', 1000],
];

const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/**
 * A time as people say it relative to now ("3 minutes ago", "in 2 hours"); the time itself when it is not a time,
 * so a malformed value is shown rather than hidden.
 */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) {
    return iso;
  }
  const delta = at - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(delta) >= ms || unit === 'second') {
      return format.format(Math.round(delta / ms), unit);
    }
  }
  return iso;
}

/** How long ago a time was, as a duration ("12 minutes"), for ages such as "stale for 12 minutes". */
export function ageOf(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) {
    return `since ${iso}`;
  }
  const delta = Math.max(0, now - at);
  for (const [unit, ms] of UNITS) {
    if (delta >= ms || unit === 'second') {
      const count = Math.floor(delta / ms);
      return `${count} ${unit}${count === 1 ? '' : 's'}`;
    }
  }
  return `since ${iso}`;
}
