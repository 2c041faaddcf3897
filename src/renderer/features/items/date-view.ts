import { create } from 'zustand';
import type { AttributeValue } from '../../../shared/dynamo/attribute-value';

/**
 * "View as date": numbers that look like epoch seconds or milliseconds, and ISO 8601 strings,
 * shown as dates. Only the rendering changes; the stored value stays as it is and is shown on hover.
 */
export interface DateReading {
  date: Date;
  kind: 'epoch seconds' | 'epoch milliseconds' | 'ISO 8601';
}

// 10 digits of seconds and 13 of milliseconds both span 2001-09-09 to 2286-11-20: the ranges
// where a count is almost surely a timestamp, not a price or a quantity.
const SECONDS = /^\d{10}$/;
const MILLISECONDS = /^\d{13}$/;
const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export function readAsDate(value: AttributeValue): DateReading | undefined {
  if ('N' in value) {
    if (SECONDS.test(value.N)) return { date: new Date(Number(value.N) * 1000), kind: 'epoch seconds' };
    if (MILLISECONDS.test(value.N)) return { date: new Date(Number(value.N)), kind: 'epoch milliseconds' };
    return undefined;
  }
  if ('S' in value && ISO.test(value.S)) {
    const time = Date.parse(value.S);
    return Number.isNaN(time) ? undefined : { date: new Date(time), kind: 'ISO 8601' };
  }
  return undefined;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `2035-01-01 09:00:00` in the machine's time zone: sortable and unambiguous at a glance. */
export function localText(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

export function dateTitle(reading: DateReading, stored: string): string {
  const zone = shownTimeZone();
  return `UTC: ${reading.date.toISOString()}\nLocal (${zone}): ${localText(reading.date)}\nStored: ${stored} (${reading.kind})`;
}

/** The time zone dates are shown in: the machine's, as the browser names it. */
export function shownTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const storageKey = 'dynotable.viewAsDates';

function remembered(): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(storageKey) === 'on';
  } catch {
    // Storage can be unavailable (private windows): start with stored values shown as they are.
    return false;
  }
}

/** On or off for every grid, and kept across a reload and a restart, like the theme. */
export const useDateView = create<{ isOn: boolean; set(isOn: boolean): void }>()((set) => ({
  isOn: remembered(),
  set: (isOn) => {
    try {
      localStorage.setItem(storageKey, isOn ? 'on' : 'off');
    } catch {
      // Not persisting is acceptable; the choice still holds for this session.
    }
    set({ isOn });
  },
}));
