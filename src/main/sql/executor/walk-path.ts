import { DMap, DSet, getEntry, type Value } from '../values/value';
import type { PathStep } from '../binder/bound';

/** The value at a path inside a map, list or set (`address.city`, `tags[0]`); missing when absent. */
export function walkPath(value: Value, path: readonly PathStep[]): Value {
  let v = value;
  for (const step of path) {
    if (typeof step === 'number') {
      if (Array.isArray(v)) v = v[step];
      else if (v instanceof DSet) v = v.items[step];
      else return undefined;
    } else if (v instanceof DMap) v = getEntry(v, step);
    else return undefined;
  }
  return v;
}
