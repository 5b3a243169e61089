/**
 * A time in the form conditions use (`2026-07-14T09:13:10Z`) as seconds since the epoch plus one (0: none, or
 * not in that form); {@link unpackTime} gives the text back identical. A number in a typed column instead of a
 * string per condition.
 *
 * Both are written digit by digit rather than through `Date` (`Date.parse`, then `toISOString` to check the round
 * trip): in a CPU profile of fleet M's first sync (107k objects, 2026-12-03) the `Date` forms were 435 ms of 15.3 s
 * of the index's CPU, every record being packed once and built back for each analysis. On 200,000 times these
 * pack in 46-78 ms against 345-488 ms and unpack in 55-59 ms against 211-275 ms (`packedTime.test.ts` holds them
 * to the `Date` forms).
 */

const ZERO = 0x30;

/** Days in a month (1-12) of a year of the proleptic Gregorian calendar. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The number of `count` digits at `at`, or -1 when one is not a digit. */
function digits(text: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const d = text.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

export function packTime(text: string | undefined): number {
  if (text === undefined || text.length !== 20) return 0;
  if (
    text.charCodeAt(4) !== 0x2d || // -
    text.charCodeAt(7) !== 0x2d ||
    text.charCodeAt(10) !== 0x54 || // T
    text.charCodeAt(13) !== 0x3a || // :
    text.charCodeAt(16) !== 0x3a ||
    text.charCodeAt(19) !== 0x5a // Z
  ) {
    return 0;
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return 0;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return 0;
  const packed = Date.UTC(year, month - 1, day, hour, minute, second) / 1000 + 1;
  // seconds that fit the column
  return packed < 2 ** 32 ? packed : 0;
}

/** The two digits of 0-99, as character codes. */
function pushTwo(codes: number[], n: number) {
  codes.push(ZERO + Math.floor(n / 10), ZERO + (n % 10));
}

/** `2026-07-14T09:13:10Z` from seconds since the epoch plus one. */
export function unpackTime(packed: number): string {
  const seconds = packed - 1;
  const days = Math.floor(seconds / 86_400);
  let rest = seconds - days * 86_400;
  const hour = Math.floor(rest / 3_600);
  rest -= hour * 3_600;
  const minute = Math.floor(rest / 60);
  const second = rest - minute * 60;
  // civil date from days since 1970-01-01 (H. Hinnant's days_from_civil inverse; eras of 400 years)
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1_460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const codes: number[] = [];
  pushTwo(codes, Math.floor(year / 100));
  pushTwo(codes, year % 100);
  codes.push(0x2d);
  pushTwo(codes, month);
  codes.push(0x2d);
  pushTwo(codes, day);
  codes.push(0x54);
  pushTwo(codes, hour);
  codes.push(0x3a);
  pushTwo(codes, minute);
  codes.push(0x3a);
  pushTwo(codes, second);
  codes.push(0x5a);
  // one flat string (a concatenation would be a tree of parts, larger wherever a time is kept)
  return String.fromCharCode(...codes);
}
