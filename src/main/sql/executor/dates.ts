import { Decimal, decimalToString } from '../values/decimal';
import type { Value } from '../values/value';

/**
 * Date helpers over the two ways DynamoDB items store time: ISO-8601 strings and epoch
 * milliseconds (numbers). Everything is UTC; a string without an offset is read as UTC, not as
 * the local time of whoever runs the query, so results do not depend on the machine.
 */
const ISO =
  /^(\d{4})-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * The instant an item's time value names, or null when it names none. An impossible calendar
 * date or clock time (2024-02-30, month 13, 25:00, an offset past ±23:59) does not convert,
 * like a CAST that fails (docs/SQL.md), instead of rolling over into the next month as
 * Date.UTC would. 24:00:00 is the next day's midnight, as in ISO 8601, DuckDB and PostgreSQL.
 * Every date function reads its arguments here.
 */
export function toEpochMs(v: Value): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v instanceof Decimal) return Number(decimalToString(v));
  if (typeof v !== 'string') return null;
  const text = v.trim();
  if (/^-?\d{1,16}$/.test(text)) return Number(text);
  const m = ISO.exec(text);
  if (!m) return null;
  const part = (i: number, absent: number) => (m[i] === undefined ? absent : Number(m[i]));
  const [year, month, day] = [part(1, 0), part(2, 0), part(3, 1)];
  const [hour, minute, second] = [part(4, 0), part(5, 0), part(6, 0)];
  const [fraction = '', zone = 'Z'] = [m[7], m[8]];
  const ms = fraction === '' ? 0 : Math.floor(Number(`0.${fraction}`) * 1000);
  const endOfDay = hour === 24 && minute === 0 && second === 0 && ms === 0;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if ((hour > 23 && !endOfDay) || minute > 59 || second > 59) return null;
  let time = utcMs(year, month - 1, day) + hour * 3_600_000 + minute * 60_000 + second * 1000 + ms;
  if (zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const [offsetHours, offsetMinutes] = [Number(digits.slice(0, 2)), Number(digits.slice(2, 4) || '0')];
    if (offsetHours > 23 || offsetMinutes > 59) return null;
    time -= sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  }
  return Number.isFinite(time) ? time : null;
}

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

/** Date.UTC without its two-digit-year rule (Date.UTC(24, 0, 1) is 1924, not the year 24). */
function utcMs(year: number, monthIndex: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return date.getTime();
}

export function toIso(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return null;
  return new Date(ms).toISOString();
}

const UNITS = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'] as const;
export type DateUnit = (typeof UNITS)[number];

export function dateUnit(v: Value): DateUnit | null {
  if (typeof v !== 'string') return null;
  const unit = v.toLowerCase().replace(/s$/, '');
  return (UNITS as readonly string[]).includes(unit) ? (unit as DateUnit) : null;
}

export function truncate(ms: number, unit: DateUnit): number {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const mo = d.getUTCMonth();
  switch (unit) {
    case 'year':
      return Date.UTC(y, 0, 1);
    case 'quarter':
      return Date.UTC(y, mo - (mo % 3), 1);
    case 'month':
      return Date.UTC(y, mo, 1);
    case 'week': {
      // ISO weeks start on Monday.
      const day = Date.UTC(y, mo, d.getUTCDate());
      return day - ((d.getUTCDay() + 6) % 7) * 86_400_000;
    }
    case 'day':
      return Date.UTC(y, mo, d.getUTCDate());
    case 'hour':
      return ms - (((ms % 3_600_000) + 3_600_000) % 3_600_000);
    case 'minute':
      return ms - (((ms % 60_000) + 60_000) % 60_000);
    case 'second':
      return ms - (((ms % 1000) + 1000) % 1000);
  }
}

const FIXED: Partial<Record<DateUnit, number>> = {
  week: 604_800_000,
  day: 86_400_000,
  hour: 3_600_000,
  minute: 60_000,
  second: 1000,
};

export function addUnits(ms: number, unit: DateUnit, amount: number): number {
  const fixed = FIXED[unit];
  if (fixed) return ms + amount * fixed;
  const months = unit === 'year' ? amount * 12 : unit === 'quarter' ? amount * 3 : amount;
  const d = new Date(ms);
  const target = d.getUTCMonth() + months;
  const y = d.getUTCFullYear() + Math.floor(target / 12);
  const mo = ((target % 12) + 12) % 12;
  // Clamp the day: Jan 31 + 1 month is Feb 28/29, not Mar 3.
  const lastDay = new Date(Date.UTC(y, mo + 1, 0)).getUTCDate();
  return Date.UTC(
    y,
    mo,
    Math.min(d.getUTCDate(), lastDay),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

export function diffUnits(from: number, to: number, unit: DateUnit): number {
  const fixed = FIXED[unit];
  if (fixed) return Math.trunc((to - from) / fixed);
  const a = new Date(from);
  const b = new Date(to);
  let months = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
  // Whole months only, consistent with DATE_ADD: n months have passed when DATE_ADD('month', n,
  // from) <= to, so Jan 15 → Feb 14 is 0 months and Jan 31 → Feb 29 is 1 (DATE_ADD clamps).
  if (months > 0 && addUnits(from, 'month', months) > to) months -= 1;
  if (months < 0 && addUnits(from, 'month', months) < to) months += 1;
  if (unit === 'year') return Math.trunc(months / 12);
  if (unit === 'quarter') return Math.trunc(months / 3);
  return months;
}

export function datePart(ms: number, part: string): number | null {
  const d = new Date(ms);
  switch (part.toLowerCase()) {
    case 'year':
      return d.getUTCFullYear();
    case 'quarter':
      return Math.floor(d.getUTCMonth() / 3) + 1;
    case 'month':
      return d.getUTCMonth() + 1;
    case 'day':
      return d.getUTCDate();
    case 'dow':
      return d.getUTCDay();
    case 'doy':
      return Math.floor((ms - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
    case 'hour':
      return d.getUTCHours();
    case 'minute':
      return d.getUTCMinutes();
    case 'second':
      return d.getUTCSeconds();
    case 'millisecond':
    case 'milliseconds':
      return d.getUTCSeconds() * 1000 + d.getUTCMilliseconds();
    case 'epoch':
      return ms / 1000;
    case 'week': {
      // ISO week number: the week with the year's first Thursday is week 1.
      const thursday = truncate(ms, 'day') + (3 - ((d.getUTCDay() + 6) % 7)) * 86_400_000;
      const yearStart = Date.UTC(new Date(thursday).getUTCFullYear(), 0, 1);
      return Math.floor((thursday - yearStart) / 604_800_000) + 1;
    }
    default:
      return null;
  }
}
