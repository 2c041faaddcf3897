/**
 * Classifies stored values as Dates. Hot path: called for every string and number of every
 * scanned item, so cheap character checks run before any regex or allocation.
 */

/**
 * Anchored ISO-8601 as dynamoose (Date#toISOString) and most code write it: a date, or a
 * date-time with seconds optional, fractional seconds optional, and a Z or ±hh[:]mm offset.
 * A local time without a zone is not an instant, so it is not counted.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d|60)(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d))?$/;

export const IsoKind = { none: 0, date: 1, dateTime: 2 } as const;
export type IsoKind = (typeof IsoKind)[keyof typeof IsoKind];

export function classifyIso(s: string): IsoKind {
  const n = s.length;
  // Shortest "2024-01-05" (10), longest with nanoseconds and an offset (35).
  if (n < 10 || n > 35 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return IsoKind.none;
  const c = s.charCodeAt(0);
  if (c < 48 || c > 57) return IsoKind.none;
  const m = ISO.exec(s);
  if (!m) return IsoKind.none;
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(Number(m[1]), month)) return IsoKind.none;
  return n === 10 ? IsoKind.date : IsoKind.dateTime;
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
 * a number is one or the other; whether it *is* a time depends on its path (see isTimeName).
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

const CAMEL = /[a-z0-9](?:At|Date|Time|Timestamp|On)$/;
const SNAKE = /(?:^|[_-])(?:at|date|time|timestamp|ts|on)$/i;
const WHOLE = /^(?:date|time|timestamp|ts|created|updated|modified|deleted|expires|expiry|ttl|when)$/i;

/** createdAt, updated_at, birthDate, startTime, createdOn, timestamp, ttl, … */
export function isTimeName(name: string): boolean {
  return CAMEL.test(name) || SNAKE.test(name) || WHOLE.test(name);
}
