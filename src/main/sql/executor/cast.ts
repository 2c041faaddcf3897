import type { CastType } from '../parser/ast';
import { isNum } from '../values/decimal';
import { isNull, type Value } from '../values/value';
import { toEpochMs, toIso } from './dates';
import { roundNumber, toNumber, toText } from './functions';

/** CAST never fails a whole query over one odd item: a value that does not convert is NULL. */
export function castValue(v: Value, type: CastType): Value {
  if (isNull(v)) return null;
  switch (type) {
    case 'NUMBER':
      return toNumber(typeof v === 'string' ? v.trim() : v);
    case 'INTEGER': {
      // Like DuckDB and PostgreSQL: round half away from zero (408.5 → 409, -2.5 → -3). Numbers
      // stay exact, so there is no 32/64-bit range to overflow.
      const n = toNumber(typeof v === 'string' ? v.trim() : v);
      return n === null ? null : roundNumber(n, 0, 'half');
    }
    case 'STRING':
      return toText(v);
    case 'BOOLEAN':
      if (typeof v === 'boolean') return v;
      if (typeof v === 'string') {
        const t = v.trim().toLowerCase();
        return t === 'true' ? true : t === 'false' ? false : null;
      }
      if (isNum(v)) return typeof v === 'number' ? v !== 0 : v.coef !== 0n;
      return null;
    // Items store time as ISO strings or epoch milliseconds; there is no date type, so a date is
    // its ISO text (YYYY-MM-DD, UTC) and a timestamp its full ISO-8601 UTC text, which sort right.
    case 'DATE':
      return toIso(toEpochMs(v))?.slice(0, 10) ?? null;
    case 'TIMESTAMP':
      return toIso(toEpochMs(v));
  }
}
