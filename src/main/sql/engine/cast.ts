import type { CastType } from '../parser/ast';
import { isNum } from '../values/decimal';
import { isNull, type Value } from '../values/value';
import { toNumber, toText } from './functions';

/** CAST never fails a whole query over one odd item: a value that does not convert is NULL. */
export function castValue(v: Value, type: CastType): Value {
  if (isNull(v)) return null;
  switch (type) {
    case 'NUMBER':
      return toNumber(typeof v === 'string' ? v.trim() : v);
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
  }
}
