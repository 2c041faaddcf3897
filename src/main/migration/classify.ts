/**
 * Classifies stored values as Dates. Hot path: called for every string and number of every
 * scanned item, so cheap character checks run before any regex or allocation.
 */

/**
 * Anchored ISO-8601 as dynamoose (Date#toISOString) and most code write it: a date, or a
 * date-time with seconds optional, fractional seconds (1–9 digits) optional, and a Z or
 * ±hh[:]mm offset. A local time without a zone is not an instant, so it is not counted.
 * Hand-written instead of a regex: it runs on every string of every item, and a regex match
 * allocates; this allocates nothing.
 */
export const IsoKind = { none: 0, date: 1, dateTime: 2 } as const;
export type IsoKind = (typeof IsoKind)[keyof typeof IsoKind];

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

/** Two digits at i as a number, or -1. */
function two(s: string, i: number): number {
  const a = digit(s, i);
  const b = digit(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

export function classifyIso(s: string): IsoKind {
  const n = s.length;
  // Shortest "2024-01-05" (10), longest with nanoseconds and an offset (35).
  if (n < 10 || n > 35 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return 0;
  const y1 = two(s, 0);
  const y2 = two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  if (y1 < 0 || y2 < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(y1 * 100 + y2, month)) return 0;
  if (n === 10) return 1;
  if (s.charCodeAt(10) !== 84 /* T */ || s.charCodeAt(13) !== 58 /* : */) return 0;
  const hour = two(s, 11);
  const minute = two(s, 14);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return 0;
  let i = 16;
  if (s.charCodeAt(i) === 58) {
    const second = two(s, i + 1);
    if (second < 0 || second > 60) return 0;
    i += 3;
    if (s.charCodeAt(i) === 46 /* . */) {
      const start = ++i;
      while (i < n && digit(s, i) >= 0) i++;
      if (i === start || i - start > 9) return 0;
    }
  }
  const zone = s.charCodeAt(i);
  if (zone === 90 /* Z */) return i === n - 1 ? 2 : 0;
  if (zone !== 43 && zone !== 45) return 0;
  const offsetHour = two(s, i + 1);
  const colon = s.charCodeAt(i + 3) === 58 ? 1 : 0;
  const offsetMinute = two(s, i + 3 + colon);
  if (offsetHour < 0 || offsetHour > 23 || offsetMinute < 0 || offsetMinute > 59) return 0;
  return i + 5 + colon === n ? 2 : 0;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export const EpochKind = { none: 0, seconds: 1, millis: 2 } as const;
export type EpochKind = (typeof EpochKind)[keyof typeof EpochKind];

/**
 * Epoch seconds are 9–10 integer digits (1973-03 … 2286-11, a fraction allowed), epoch
 * milliseconds 11–13 digits with no fraction (1970-04 … 2286-11). The ranges do not overlap, so
 * a number is one or the other; whether it *is* a time depends on its name (shared/schema/time-names.ts).
 */
export function classifyEpoch(n: string): EpochKind {
  const len = n.length;
  if (len > 24) return EpochKind.none;
  const c = n.charCodeAt(0);
  if (c < 49 || c > 57) return EpochKind.none; // negative, leading zero or ".5"
  let intDigits = 0;
  for (; intDigits < len; intDigits++) {
    const d = n.charCodeAt(intDigits);
    if (d < 48 || d > 57) break;
  }
  if (intDigits < len) {
    if (n.charCodeAt(intDigits) !== 46) return classifyExponent(n); // e/E notation
    for (let i = intDigits + 1; i < len; i++) {
      const d = n.charCodeAt(i);
      if (d === 101 || d === 69) return classifyExponent(n);
      if (d < 48 || d > 57) return EpochKind.none;
    }
    return intDigits === 9 || intDigits === 10 ? EpochKind.seconds : EpochKind.none;
  }
  if (intDigits === 9 || intDigits === 10) return EpochKind.seconds;
  if (intDigits >= 11 && intDigits <= 13) return EpochKind.millis;
  return EpochKind.none;
}

function classifyExponent(n: string): EpochKind {
  const v = Number(n);
  if (!Number.isFinite(v) || v < 1e8 || v >= 1e13) return EpochKind.none;
  if (v < 1e10) return EpochKind.seconds;
  return Number.isInteger(v) ? EpochKind.millis : EpochKind.none;
}
