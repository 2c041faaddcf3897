import { classifyEpoch, classifyIso, EpochKind } from '../migration/classify';

/**
 * What a string looks like. One format per string (the first that matches, in this order), so
 * the shares of a path add up. The ISO and epoch rules are the pre-flight's (classify.ts): the
 * schema view and the migration must agree on what a stored Date is.
 */
export const STRING_FORMATS = [
  'isoDateTime',
  'isoDate',
  'epochString',
  'uuid',
  'email',
  'url',
  'json',
] as const;
export type StringFormat = (typeof STRING_FORMATS)[number];

const HEX = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const URL_TEXT = /^[A-Za-z][A-Za-z0-9+.-]{0,15}:\/\/[^\s/?#]+[^\s]*$/;
/** JSON.parse of a megabyte per value would dominate the scan; longer text is not checked. */
const MAX_JSON_CHECK = 65_536;

/** STRING_FORMATS' indexes, for the hot path (a string's format is counted by its index). */
export const FORMAT = {
  isoDateTime: 0,
  isoDate: 1,
  epochString: 2,
  uuid: 3,
  email: 4,
  url: 5,
  json: 6,
} as const;

/** A string's format as its index in STRING_FORMATS, or -1: no name is looked up per value. */
export function stringFormatIndex(s: string): number {
  const n = s.length;
  if (n === 0) return -1;
  const first = s.charCodeAt(0);
  if (first >= 48 && first <= 57) {
    const iso = classifyIso(s);
    if (iso === 2) return FORMAT.isoDateTime;
    if (iso === 1) return FORMAT.isoDate;
    if (n >= 9 && n <= 13 && classifyEpoch(s) !== EpochKind.none) return FORMAT.epochString;
  }
  if (n === 36 && s.charCodeAt(8) === 45 && HEX.test(s)) return FORMAT.uuid;
  if (n <= 320 && s.includes('@') && EMAIL.test(s)) return FORMAT.email;
  if (n <= 8192 && s.includes('://') && URL_TEXT.test(s)) return FORMAT.url;
  if ((first === 123 || first === 91) && n >= 2 && n <= MAX_JSON_CHECK) {
    const last = s.charCodeAt(n - 1);
    if ((first === 123 && last === 125) || (first === 91 && last === 93)) {
      try {
        JSON.parse(s);
        return FORMAT.json;
      } catch {
        return -1;
      }
    }
  }
  return -1;
}

/** Epoch seconds or milliseconds as classify.ts reads a stored number (0 none, 1 s, 2 ms). */
export { classifyEpoch };

/** The year of an ISO date or date-time, for the "when" histogram. */
export function yearOfIso(s: string): number {
  // classifyIso checked the four digits; no substring per value.
  return (
    (s.charCodeAt(0) - 48) * 1000 +
    (s.charCodeAt(1) - 48) * 100 +
    (s.charCodeAt(2) - 48) * 10 +
    s.charCodeAt(3) -
    48
  );
}
