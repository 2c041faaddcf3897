import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import type { PlainKey } from '../../shared/ipc/migration';
import { defineOwn, ownValue } from '../../shared/dynamo/proto-keys';

/**
 * Bounded, deterministic samples: each list keeps the `limit` smallest keys by a canonical
 * sort string. Whatever order parallel segments deliver items in, and however the work is cut
 * by cancel + resume, merging gives the same samples — so a resumed report equals a full one.
 */
export interface Sample {
  sort: string;
  key: Item;
}

export function offerSample(list: Sample[], sort: string, key: () => Item, limit: number): void {
  if (list.length >= limit && sort >= (list[list.length - 1] as Sample).sort) return;
  let at = list.length;
  while (at > 0 && (list[at - 1] as Sample).sort > sort) at--;
  if (at > 0 && (list[at - 1] as Sample).sort === sort) return;
  list.splice(at, 0, { sort, key: key() });
  if (list.length > limit) list.pop();
}

export function mergeSamples(into: Sample[], from: readonly Sample[], limit: number): void {
  for (const sample of from) offerSample(into, sample.sort, () => sample.key, limit);
}

/** Items from the SDK carry binary as Uint8Array; the tagged form wants base64. */
function taggedKeyValue(value: AttributeValue): AttributeValue {
  const b = (value as { B?: unknown }).B;
  if (b instanceof Uint8Array)
    return { B: Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64') };
  return value;
}

export function keyOf(item: Item, keyAttributes: readonly string[]): Item {
  const key: Item = {};
  for (const name of keyAttributes) {
    const value = ownValue(item, name);
    if (value !== undefined) defineOwn(key, name, taggedKeyValue(value));
  }
  return key;
}

/** Canonical text of a key for ordering samples (not for display). */
export function sortKeyOf(item: Item, keyAttributes: readonly string[]): string {
  let out = '';
  for (const name of keyAttributes) {
    const value = ownValue(item, name) as unknown as Record<string, unknown> | undefined;
    if (!value) continue;
    const v = value.S ?? value.N ?? value.B;
    out += typeof v === 'string' ? v : v instanceof Uint8Array ? Buffer.from(v).toString('base64') : '';
    out += '\u0000';
  }
  return out;
}

/** Keys in plain JSON for reports: numbers as JSON numbers only when no digit is lost. */
export function toPlainKey(key: Item): PlainKey {
  const out: PlainKey = {};
  for (const [name, value] of Object.entries(key)) {
    if ('S' in value) out[name] = value.S;
    else if ('N' in value) out[name] = exactNumber(value.N);
    else if ('B' in value) out[name] = value.B;
  }
  return out;
}

function exactNumber(n: string): number | string {
  const v = Number(n);
  return Number.isSafeInteger(v) && String(v) === n ? v : n;
}

/** The inverse of toPlainKey, given the key attributes' types from the key schema. */
export { fromPlainKey } from '../../shared/dynamo/plain-key';
