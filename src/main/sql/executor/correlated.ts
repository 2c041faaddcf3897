import type { Value } from '../values/value';
import type { Compiled } from './compile';
import { paramsKey } from './decorrelate';
import type { Frame } from './frame';

/**
 * A correlated subquery's answer for each row: computed from the row's outer values, once per
 * distinct tuple of them (rows of one customer share one run of `EXISTS (... c.customerId)`).
 */
export function correlated<T>(
  params: readonly Compiled[],
  answer: (params: readonly Value[]) => T,
): (frame: Frame) => (r: number) => T {
  const answers = new Map<string, T>();
  return (f) => {
    const evaluators = params.map((p) => p(f));
    return (r) => {
      const values = evaluators.map((ev) => ev(r));
      const key = paramsKey(values);
      let result = answers.get(key);
      if (result === undefined && !answers.has(key)) {
        result = answer(values);
        answers.set(key, result);
      }
      return result as T;
    };
  };
}
