import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { resolveIntent, settleIntents, type WriteIntent } from '../../src/main/journal/resolve-intents';

/** A table of stored items by pk, read as the journal's consistent reader would. */
function tableOf(...items: Item[]) {
  const stored = new Map(items.map((i) => [(i.pk as { S: string }).S, i]));
  return (_table: string, key: Item) => Promise.resolve(stored.get((key.pk as { S: string }).S) ?? null);
}

const key = { pk: { S: 'a' } };
const seen = { ...key, status: { S: 'open' }, note: { S: 'n' } };
const closed = { ...seen, status: { S: 'closed' } };

describe('resolving a write noted before it was sent', () => {
  it('an update that landed keeps what is stored, with the written attribute as it was', async () => {
    // Someone added "extra" after the write: it stays in both sides, so undo keeps it.
    const stored = { ...closed, extra: { N: '1' } };
    expect(await resolveIntent({ key, before: seen, after: closed }, 't', tableOf(stored))).toEqual({
      type: 'landed',
      pair: { key, before: { ...seen, extra: { N: '1' } }, after: stored },
    });
  });

  it('an update that did not land is dropped; one changed since is unknown', async () => {
    const intent = { key, before: seen, after: closed };
    expect(await resolveIntent(intent, 't', tableOf(seen))).toEqual({ type: 'not-landed' });
    const theirs = { ...seen, status: { S: 'held' } };
    expect(await resolveIntent(intent, 't', tableOf(theirs))).toEqual({ type: 'unknown' });
  });

  it('a create and a delete are told by the item being there or not', async () => {
    const create = { key, before: null, after: seen };
    expect((await resolveIntent(create, 't', tableOf(seen))).type).toBe('landed');
    expect((await resolveIntent(create, 't', tableOf())).type).toBe('not-landed');
    const del = { key, before: seen, after: null };
    expect(await resolveIntent(del, 't', tableOf())).toEqual({
      type: 'landed',
      pair: { key, before: seen, after: null },
    });
    expect((await resolveIntent(del, 't', tableOf(seen))).type).toBe('not-landed');
  });

  it('a key change is told by both keys', async () => {
    const moved = { ...seen, pk: { S: 'b' } };
    const intent = { key, before: seen, after: moved };
    expect((await resolveIntent(intent, 't', tableOf(moved))).type).toBe('landed');
    expect((await resolveIntent(intent, 't', tableOf(seen))).type).toBe('not-landed');
    expect((await resolveIntent(intent, 't', tableOf(seen, moved))).type).toBe('unknown');
  });

  it('a write whose result was not known beforehand is told by the attributes it writes', async () => {
    const intent: WriteIntent = { key, before: seen, after: null, touched: ['status'] };
    expect(await resolveIntent(intent, 't', tableOf(closed))).toEqual({
      type: 'landed',
      pair: { key, before: seen, after: closed },
    });
    expect((await resolveIntent(intent, 't', tableOf({ ...seen, note: { S: 'x' } }))).type).toBe(
      'not-landed',
    );
  });

  it('keeps as unconfirmed what it cannot read, and drops what did not land', async () => {
    const landed = { key, before: seen, after: closed };
    const notLanded = {
      key: { pk: { S: 'b' } },
      before: { pk: { S: 'b' } },
      after: { pk: { S: 'b' }, v: { N: '1' } },
    };
    const settled = await settleIntents([landed, notLanded], 't', tableOf(closed, { pk: { S: 'b' } }));
    expect(settled).toEqual([{ key, before: seen, after: closed }]);
    const failing = () => Promise.reject(new Error('no connection'));
    expect(await settleIntents([landed], 't', failing)).toEqual([{ ...landed, isUnconfirmed: true }]);
    expect(await settleIntents([landed], 't')).toEqual([{ ...landed, isUnconfirmed: true }]);
  });
});
