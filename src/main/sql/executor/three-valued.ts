import { hashKey, sqlEquals } from '../values/compare';
import { isNull, type Value } from '../values/value';
import type { Compiled } from './compile';

/** SQL's three-valued logic: TRUE, FALSE and NULL (unknown), for conditions and IN lists. */
export function truth(v: Value): boolean | null {
  return v === true ? true : v === false ? false : null;
}

export function membership(v: Value, items: readonly Value[], negated: boolean): boolean | null {
  if (isNull(v)) return null;
  let sawNull = false;
  for (const item of items) {
    const eq = sqlEquals(v, item);
    if (eq === true) return !negated;
    if (eq === null) sawNull = true;
  }
  return sawNull ? null : negated;
}

/** Membership in a fixed list: one hash lookup per value. NULL in the list makes misses NULL. */
export function memberTest(values: readonly Value[], negated: boolean): (v: Value) => boolean | null {
  // Membership in nothing is false whatever x is, NULL included (SQL tests emptiness first).
  if (values.length === 0) return () => negated;
  const hasNull = values.some(isNull);
  const keys = new Set(values.filter((v) => !isNull(v)).map(hashKey));
  return (v) => {
    if (isNull(v)) return null;
    if (keys.has(hashKey(v))) return !negated;
    return hasNull ? null : negated;
  };
}

/** x IN (...) with a list known once per statement: the set is built on first use. */
export function compileMembership(
  operand: Compiled,
  list: () => readonly Value[],
  negated: boolean,
): Compiled {
  let test: ((v: Value) => boolean | null) | undefined;
  return (f) => {
    test ??= memberTest(list(), negated);
    const member = test;
    const o = operand(f);
    return (r) => member(o(r));
  };
}
