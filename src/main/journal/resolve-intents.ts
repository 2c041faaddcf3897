import type { Item } from '../../shared/dynamo/attribute-value';
import { diffItems, sameOn, withNamesOf } from '../../shared/dynamo/diff';
import { defineOwn, ownValue } from '../../shared/dynamo/proto-keys';
import { itemsEqual } from '../../shared/dynamo/value-equality';

/** Reads one item of the entry's connection consistently (null: no item under the key). */
export type ItemReader = (table: string, key: Item) => Promise<Item | null>;

/** One item's journal line: what was stored before the write and what it left (null: none). */
export interface JournalPair {
  key: Item;
  before: Item | null;
  after: Item | null;
  /** Sent, but whether it landed could not be read: undo reads it again. */
  isUnconfirmed?: boolean;
}

/**
 * A write announced before it is sent: the item as it was (read in the same conditional flow or
 * consistently before) and what the write should leave. `touched` names the attributes the write
 * sets or removes when what it leaves is not known before DynamoDB answers (a pre-flight fix's
 * update expression): then `after` is not compared.
 */
export interface WriteIntent extends JournalPair {
  touched?: string[];
}

export type Resolution = { type: 'landed'; pair: JournalPair } | { type: 'not-landed' } | { type: 'unknown' };

/** The key the write moves the item to, when `after` holds the key attributes with other values. */
function movedTo(key: Item, after: Item | null): Item | undefined {
  if (!after) return undefined;
  const names = Object.keys(key);
  if (sameOn(after, key, names)) return undefined;
  const moved = Object.create(null) as Item;
  for (const name of names) {
    const value = ownValue(after, name);
    if (value === undefined) return undefined;
    defineOwn(moved, name, value);
  }
  return moved;
}

const changedNames = (before: Item, after: Item) => diffItems(before, after).map((c) => c.name);

/**
 * Whether an announced write landed, from what DynamoDB holds now: what it should leave is
 * stored (then the journal keeps the stored item as `after` and, as `before`, the stored item with
 * the written attributes as they were), or what was there before still is (nothing to undo).
 * Anything else — someone changed the item since — is unknown, and undo reads it again.
 */
export async function resolveIntent(
  intent: WriteIntent,
  table: string,
  read: ItemReader,
): Promise<Resolution> {
  const { key, before, after } = intent;
  const landed = (pair: JournalPair): Resolution => ({ type: 'landed', pair });
  const moved = movedTo(key, after);
  if (moved && after) {
    // A key change is one transaction: both keys tell whether it landed.
    const [old, now] = [await read(table, key), await read(table, moved)];
    if (old === null && now !== null && itemsEqual(now, after)) return landed({ key, before, after: now });
    if (now === null && old !== null && before !== null && itemsEqual(old, before))
      return { type: 'not-landed' };
    return { type: 'unknown' };
  }
  const stored = await read(table, key);
  if (intent.touched) {
    if (stored === null || before === null) return { type: 'unknown' };
    if (sameOn(stored, before, intent.touched)) return { type: 'not-landed' };
    return landed({ key, before: withNamesOf(stored, before, intent.touched), after: stored });
  }
  if (after === null) {
    if (before === null) return { type: 'not-landed' };
    if (stored === null) return landed({ key, before, after: null });
    return itemsEqual(stored, before) ? { type: 'not-landed' } : { type: 'unknown' };
  }
  if (before === null) {
    if (stored === null) return { type: 'not-landed' };
    return itemsEqual(stored, after) ? landed({ key, before: null, after: stored }) : { type: 'unknown' };
  }
  if (stored === null) return { type: 'unknown' };
  const names = changedNames(before, after);
  // A write that changes nothing counts as landed: undoing it changes nothing either.
  if (sameOn(stored, after, names))
    return landed({ key, before: withNamesOf(stored, before, names), after: stored });
  if (sameOn(stored, before, names)) return { type: 'not-landed' };
  return { type: 'unknown' };
}

const AT_ONCE = 8;

/**
 * The journal lines for writes announced and never heard back from: each one read, a write that
 * landed kept with what is stored, one that did not dropped, and one that cannot be told (no
 * reader, a failed read, a change by someone else) kept as unconfirmed for undo to read again.
 */
export async function settleIntents(
  intents: WriteIntent[],
  table: string,
  read?: ItemReader,
): Promise<JournalPair[]> {
  const unconfirmed = ({ touched: _touched, ...pair }: WriteIntent): JournalPair => ({
    ...pair,
    isUnconfirmed: true,
  });
  if (!read) return intents.map(unconfirmed);
  const out: JournalPair[] = [];
  for (let i = 0; i < intents.length; i += AT_ONCE) {
    const chunk = intents.slice(i, i + AT_ONCE);
    const resolved = await Promise.all(
      chunk.map((intent) =>
        resolveIntent(intent, table, read).catch((): Resolution => ({ type: 'unknown' })),
      ),
    );
    resolved.forEach((resolution, j) => {
      if (resolution.type === 'landed') out.push(resolution.pair);
      else if (resolution.type === 'unknown') out.push(unconfirmed(chunk[j]!));
    });
  }
  return out;
}
