import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import { sameValue } from './value-equal';
import { ownValue } from '../../shared/dynamo/proto-keys';

/**
 * dynamoose 4.x writes `$SET: {'a.b': v}` as a top-level attribute literally named "a.b"
 * instead of into map a. These helpers read the nested path such a name stands for.
 */
export type DottedState = 'same' | 'differs' | 'noParent' | 'parentNotMap' | 'noNested';

/** "a.b.c" → ["a", "b", "c"]; a numeric step indexes a list (dynamoose writes list.0 that way). */
export function dottedSteps(name: string): string[] {
  return name.split('.');
}

export type NestedLookup =
  | { state: 'found'; value: AttributeValue }
  | { state: 'noParent'; /** Index of the first missing step. */ missingAt: number }
  | { state: 'parentNotMap'; at: number }
  | { state: 'noNested' };

export function lookupNested(item: Item, steps: readonly string[]): NestedLookup {
  let current: AttributeValue | undefined = ownValue(item, steps[0] as string);
  if (current === undefined)
    return steps.length === 1 ? { state: 'noNested' } : { state: 'noParent', missingAt: 0 };
  for (let i = 1; i < steps.length; i++) {
    const step = steps[i] as string;
    const c = current as Partial<Record<string, unknown>>;
    let next: AttributeValue | undefined;
    if (c.M !== undefined) next = ownValue(c.M as Record<string, AttributeValue>, step);
    else if (c.L !== undefined && /^\d+$/.test(step)) next = (c.L as AttributeValue[])[Number(step)];
    else return { state: 'parentNotMap', at: i - 1 };
    if (next === undefined)
      return i === steps.length - 1 ? { state: 'noNested' } : { state: 'noParent', missingAt: i };
    current = next;
  }
  return { state: 'found', value: current };
}

export function compareWithNested(item: Item, name: string, shadow: AttributeValue): DottedState {
  const found = lookupNested(item, dottedSteps(name));
  if (found.state !== 'found') return found.state;
  return sameValue(shadow, found.value) ? 'same' : 'differs';
}
