import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bulkHandlers } from '../../src/main/ipc/handlers/bulk';
import { journalHandlers } from '../../src/main/ipc/handlers/journal';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { newRequestToken } from '../../src/shared/dynamo/write-plan';
import type { BulkReport } from '../../src/shared/ipc/items';
import type { JournalEntry, UndoReport } from '../../src/shared/ipc/journal';
import { failure } from '../support/items-assert';
import { createItemsTable, itemsHarness, type ItemsHarness } from '../support/items-context';
import { canonical, rawDynamo, rawGetItem } from '../support/raw-dynamo';

/**
 * The undo journal against DynamoDB Local. The oracle is DynamoDB Local's own wire JSON, read
 * past the SDK and past DynoTable: after undo, each item is byte-for-byte (canonically) what the
 * table held before the commit.
 */
const endpoint = () => inject('dynamoEndpoint');
let dataDir: string;
let h: ItemsHarness;
let ids = 0;

/** A core whose data folder is the test's: a second one on the same folder is a restart. */
function core(): ItemsHarness {
  const harness = itemsHarness(endpoint(), { ...bulkHandlers, ...journalHandlers });
  (harness.ctx as { dataDir: string }).dataDir = dataDir;
  return harness;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'dynotable-journal-'));
  h = core();
});
afterAll(async () => {
  await h.close();
  await rm(dataDir, { recursive: true, force: true });
});

// Every DynamoDB type, a name JavaScript objects treat specially, a number past 2^53.
const rich = (pk: string): Item => {
  const item: Item = {
    pk: { S: pk },
    big: { N: '12345678901234567890.123' },
    tags: { SS: ['b', 'a'] },
    bin: { B: 'AAEC' },
    nested: { M: { list: { L: [{ N: '1' }, { S: 'x' }, { NULL: true }] }, flag: { BOOL: false } } },
  };
  Object.defineProperty(item, '__proto__', { value: { S: 'proto' }, enumerable: true, writable: true });
  return item;
};

async function rawPut(table: string, item: unknown): Promise<void> {
  await rawDynamo(endpoint(), 'PutItem', { TableName: table, Item: item });
}

async function rawOf(table: string, pk: string): Promise<string | null> {
  const item = await rawGetItem(endpoint(), table, { pk: { S: pk } });
  return item ? canonical(item) : null;
}

async function commit(harness: ItemsHarness, table: string, changes: unknown[]) {
  const result = await harness.call<{ journalId?: string; results: { status: string }[] }>('items:commit', {
    connectionId: 'local',
    table,
    changes,
    token: newRequestToken(),
  });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

async function undo(harness: ItemsHarness, entryId: string, connectionId = 'local'): Promise<UndoReport> {
  const requestId = `undo_${++ids}_${Date.now()}`;
  const done = harness.waitFor(requestId);
  const started = await harness.call('journal:undo', { connectionId, entryId, requestId });
  if (!started.ok) throw new Error(started.error.message);
  const { last } = await done;
  if (last.type !== 'done') throw new Error(`undo ended ${last.type}: ${JSON.stringify(last)}`);
  return last.value as UndoReport;
}

describe('journal:undo', () => {
  it('puts back an update, a create and a delete of one commit exactly as DynamoDB held them', async () => {
    const table = await createItemsTable(h.client);
    const a = rich('a');
    const gone = rich('gone');
    // Written past the SDK, so the "before" oracle is DynamoDB's own text.
    const wire = (item: Item) => JSON.parse(JSON.stringify(item)) as unknown;
    await rawPut(table, wire(a));
    await rawPut(table, wire(gone));
    const beforeA = await rawOf(table, 'a');
    const beforeGone = await rawOf(table, 'gone');
    const desiredA: Item = { ...a, big: { N: '1' }, added: { S: 'new' } };
    Object.defineProperty(desiredA, '__proto__', {
      value: { S: 'changed' },
      enumerable: true,
      writable: true,
    });
    delete desiredA.tags;
    const out = await commit(h, table, [
      { id: 'u', seen: a, desired: desiredA },
      { id: 'c', seen: null, desired: { pk: { S: 'created' }, v: { N: '1' } } },
      { id: 'd', seen: gone, desired: null },
    ]);
    expect(out.results.map((r) => r.status)).toEqual(['written', 'written', 'written']);
    expect(out.journalId).toMatch(/^j/);
    expect(await rawOf(table, 'a')).not.toBe(beforeA);

    const listed = await h.call<{ entries: JournalEntry[] }>('journal:list', {
      connectionId: 'local',
      table,
    });
    expect(listed.ok && listed.value.entries[0]).toMatchObject({
      id: out.journalId,
      action: 'commit',
      count: 3,
    });

    const report = await undo(h, out.journalId ?? '');
    expect(report).toMatchObject({ restored: 3, alreadyRestored: 0, conflicts: 0, failed: 0 });
    expect(await rawOf(table, 'a')).toBe(beforeA);
    expect(await rawOf(table, 'gone')).toBe(beforeGone);
    expect(await rawOf(table, 'created')).toBeNull();

    // Again, after it all went back: nothing is written twice and nothing is refused.
    expect(await undo(h, out.journalId ?? '')).toMatchObject({
      restored: 3,
      alreadyRestored: 3,
      conflicts: 0,
    });
  });

  it('names the undo that undid an entry; Undo again writes nothing, and undoing the undo redoes once', async () => {
    const table = await createItemsTable(h.client);
    const seen: Item = { pk: { S: 'r' }, v: { N: '1' } };
    await rawPut(table, seen);
    const before = await rawOf(table, 'r');
    const out = await commit(h, table, [{ id: 'r', seen, desired: { pk: { S: 'r' }, v: { N: '2' } } }]);
    const written = await rawOf(table, 'r');
    const list = async () => {
      const listed = await h.call<{ entries: JournalEntry[] }>('journal:list', {
        connectionId: 'local',
        table,
      });
      if (!listed.ok) throw new Error(listed.error.message);
      return listed.value.entries;
    };
    const lastUndoOf = async (id: string) => (await list()).find((e) => e.id === id)?.lastUndo;

    const undone = await undo(h, out.journalId ?? '');
    expect(undone).toMatchObject({ restored: 1, alreadyRestored: 0 });
    expect(await rawOf(table, 'r')).toBe(before);
    // The entry names the undo's own entry: what History's Redo undoes.
    expect(await lastUndoOf(out.journalId ?? '')).toMatchObject({ restored: 1, journalId: undone.journalId });
    const entries = (await list()).length;

    // Pressed again (a second window, a double click): nothing is written, no entry is made, and
    // the entry still names the undo that did the writing.
    const again = await undo(h, out.journalId ?? '');
    expect(again).toMatchObject({ restored: 1, alreadyRestored: 1, conflicts: 0, failed: 0 });
    expect(again.journalId).toBeUndefined();
    expect(await rawOf(table, 'r')).toBe(before);
    expect(await list()).toHaveLength(entries);
    expect((await lastUndoOf(out.journalId ?? ''))?.journalId).toBe(undone.journalId);

    // Redo: the undo's entry undone puts the commit's value back, once, as an entry of its own.
    const redone = await undo(h, undone.journalId ?? '');
    expect(redone).toMatchObject({ restored: 1, alreadyRestored: 0 });
    expect(await rawOf(table, 'r')).toBe(written);
    const listed = await list();
    const reason = listed.find((e) => e.id === out.journalId)?.reason;
    expect(listed.find((e) => e.id === undone.journalId)?.reason).toBe(`Undo of "${reason}"`);
    expect(listed.find((e) => e.id === redone.journalId)).toMatchObject({
      action: 'undo',
      reason: `Redo of "${reason}"`,
    });
    expect(await undo(h, undone.journalId ?? '')).toMatchObject({ restored: 1, alreadyRestored: 1 });
    expect(await rawOf(table, 'r')).toBe(written);
    expect(await list()).toHaveLength(entries + 1);
  });

  it('refuses, per item, where someone changed the item since, and shows what is stored now', async () => {
    const table = await createItemsTable(h.client);
    for (const pk of ['x', 'y']) await rawPut(table, { pk: { S: pk }, v: { N: '1' } });
    const beforeY = await rawOf(table, 'y');
    const out = await commit(h, table, [
      { id: 'x', seen: { pk: { S: 'x' }, v: { N: '1' } }, desired: { pk: { S: 'x' }, v: { N: '2' } } },
      { id: 'y', seen: { pk: { S: 'y' }, v: { N: '1' } }, desired: { pk: { S: 'y' }, v: { N: '2' } } },
      { id: 'n', seen: null, desired: { pk: { S: 'n' }, v: { N: '1' } } },
    ]);
    // Someone else: changes x, adds an attribute to the created item (a condition alone would miss it).
    await rawPut(table, { pk: { S: 'x' }, v: { N: '99' } });
    await rawPut(table, { pk: { S: 'n' }, v: { N: '1' }, theirs: { S: 'kept' } });
    const theirsX = await rawOf(table, 'x');
    const theirsN = await rawOf(table, 'n');

    const report = await undo(h, out.journalId ?? '');
    expect(report).toMatchObject({ restored: 1, conflicts: 2, failed: 0 });
    expect(await rawOf(table, 'y')).toBe(beforeY);
    expect(await rawOf(table, 'x')).toBe(theirsX);
    expect(await rawOf(table, 'n')).toBe(theirsN);
    const byKey = new Map(report.items.map((i) => [JSON.stringify(i.key), i]));
    const x = byKey.get(JSON.stringify({ pk: { S: 'x' } }));
    expect(x).toMatchObject({
      status: 'conflict',
      code: 'ConditionalCheckFailedException',
      written: { pk: { S: 'x' }, v: { N: '2' } },
      current: { pk: { S: 'x' }, v: { N: '99' } },
      before: { pk: { S: 'x' }, v: { N: '1' } },
    });
    expect(byKey.get(JSON.stringify({ pk: { S: 'n' } }))).toMatchObject({ status: 'conflict', before: null });

    const listed = await h.call<{ entries: JournalEntry[] }>('journal:list', {
      connectionId: 'local',
      table,
    });
    // The undo's own write (the one item it restored) is the newest entry; the commit keeps its summary.
    const entries = listed.ok ? listed.value.entries : [];
    expect(entries[0]).toMatchObject({ source: 'undo', action: 'undo', count: 1 });
    expect(entries.find((e) => e.id === out.journalId)?.lastUndo).toMatchObject({
      restored: 1,
      conflicts: 2,
    });
  });

  it('survives a restart: a new core on the same data folder lists and undoes the entry', async () => {
    const table = await createItemsTable(h.client);
    await rawPut(table, { pk: { S: 'r' }, v: { N: '1' }, s: { S: 'before' } });
    const before = await rawOf(table, 'r');
    const out = await commit(h, table, [
      {
        id: 'r',
        seen: { pk: { S: 'r' }, v: { N: '1' }, s: { S: 'before' } },
        desired: { pk: { S: 'r' }, v: { N: '2' } },
      },
    ]);
    const restarted = core();
    try {
      const listed = await restarted.call<{ entries: JournalEntry[] }>('journal:list', {
        connectionId: 'local',
        table,
      });
      expect(listed.ok && listed.value.entries.map((e) => e.id)).toEqual([out.journalId]);
      expect(await undo(restarted, out.journalId ?? '')).toMatchObject({ restored: 1, conflicts: 0 });
      expect(await rawOf(table, 'r')).toBe(before);
    } finally {
      await restarted.close();
    }
  });

  it('undoes a key change in one transaction, refused whole when the moved item changes meanwhile', async () => {
    const table = await createItemsTable(h.client);
    const a: Item = { pk: { S: 'k1' }, v: { N: '1' } };
    const movedItem: Item = { pk: { S: 'k2' }, v: { N: '1' } };
    await rawPut(table, a);
    const before = await rawOf(table, 'k1');
    const moved = await commit(h, table, [{ id: 'm', seen: a, desired: movedItem }]);
    expect(await rawOf(table, 'k1')).toBeNull();
    expect(await undo(h, moved.journalId ?? '')).toMatchObject({ restored: 1, conflicts: 0 });
    expect(await rawOf(table, 'k1')).toBe(before);
    expect(await rawOf(table, 'k2')).toBeNull();

    // Again, and this time someone changes the moved item between undo's read and its write.
    const again = await commit(h, table, [{ id: 'm2', seen: a, desired: movedItem }]);
    const theirs: Item = { pk: { S: 'k2' }, v: { N: '9' } };
    const client = await h.ctx.clients.dynamo('local');
    let isRaced = false;
    client.middlewareStack.add(
      (next) => async (args) => {
        if (!isRaced && 'TransactItems' in args.input) {
          isRaced = true;
          await rawPut(table, theirs);
        }
        return next(args);
      },
      { step: 'initialize', name: 'raceTheUndo' },
    );
    try {
      const report = await undo(h, again.journalId ?? '');
      expect(isRaced).toBe(true);
      expect(report).toMatchObject({ restored: 0, conflicts: 1 });
      expect(report.items[0]?.current).toEqual(theirs);
    } finally {
      client.middlewareStack.remove('raceTheUndo');
    }
    // Nothing half applied: the old key is still free, their change still stands.
    expect(await rawOf(table, 'k1')).toBeNull();
    expect(await rawOf(table, 'k2')).toBe(canonical(theirs));
  });

  it('refuses to undo on a connection that is read-only now, writing nothing', async () => {
    const table = await createItemsTable(h.client);
    await rawPut(table, { pk: { S: 'o' }, v: { N: '1' } });
    const out = await commit(h, table, [
      { id: 'o', seen: { pk: { S: 'o' }, v: { N: '1' } }, desired: { pk: { S: 'o' }, v: { N: '2' } } },
    ]);
    const local = await h.ctx.connections.get('local');
    await h.ctx.connections.save({ ...local, readOnly: true });
    try {
      const refused = await h.call('journal:undo', {
        connectionId: 'local',
        entryId: out.journalId,
        requestId: `undo_ro_${Date.now()}`,
      });
      failure(refused, 'ReadOnlyConnection');
      expect(await rawOf(table, 'o')).toBe(canonical({ pk: { S: 'o' }, v: { N: '2' } }));
    } finally {
      await h.ctx.connections.save(local);
    }
  });

  it('undoes a bulk delete and a bulk update whole, also attributes the read did not hold', async () => {
    const table = await createItemsTable(h.client);
    const items = Array.from({ length: 20 }, (_, i) => ({
      pk: { S: `b${i}` },
      status: { S: 'open' },
      v: { N: String(i) },
      other: { M: { deep: { L: [{ N: String(i) }] } } },
    }));
    for (const item of items) await rawPut(table, item);
    const before = await Promise.all(items.map((i) => rawOf(table, i.pk.S)));
    // The update's source holds only the keys and status, as a projected read would.
    const projected = items.map((i) => ({ pk: i.pk, status: i.status }));
    const run = async (requestId: string, body: Record<string, unknown>) => {
      const done = h.waitFor(requestId);
      const started = await h.call('bulk:start', { connectionId: 'local', table, requestId, ...body });
      if (!started.ok) throw new Error(started.error.message);
      const { last } = await done;
      return (last.type === 'done' ? last.value : undefined) as BulkReport;
    };
    const updated = await run(`bulk_u_${Date.now()}`, {
      source: { items: projected },
      action: {
        type: 'update',
        set: [
          { path: ['status'], value: { S: 'closed' } },
          { path: ['other', 'added'], value: { S: 'x' } },
        ],
        // v and other.deep[0] were not in the read.
        remove: [['v'], ['other', 'deep', 0]],
      },
      conditionOnSeen: true,
    });
    expect(updated).toMatchObject({ succeeded: 20, journalId: expect.stringMatching(/^j/) as unknown });
    // What the update left, as the journal and the grids hold it (worked out from the item
    // before), is what DynamoDB stores: undo compares the stored item with it whole.
    expect(await rawOf(table, 'b3')).toBe(
      canonical({
        pk: { S: 'b3' },
        status: { S: 'closed' },
        other: { M: { deep: { L: [] }, added: { S: 'x' } } },
      }),
    );
    expect(await undo(h, updated.journalId ?? '')).toMatchObject({ restored: 20, conflicts: 0 });
    // The update returned each whole item before it (ALL_OLD): undo puts back what the read lacked.
    expect(await Promise.all(items.map((i) => rawOf(table, i.pk.S)))).toEqual(before);

    const deleted = await run(`bulk_d_${Date.now()}`, {
      source: { items: projected },
      action: { type: 'delete' },
      conditionOnSeen: false,
      confirmTable: table,
    });
    expect(deleted).toMatchObject({ succeeded: 20 });
    expect(await rawOf(table, 'b0')).toBeNull();
    expect(await undo(h, deleted.journalId ?? '')).toMatchObject({ restored: 20, conflicts: 0 });
    // The delete returned each whole item (ALL_OLD), so undo puts back more than the read held.
    expect(await Promise.all(items.map((i) => rawOf(table, i.pk.S)))).toEqual(before);
  });

  it('counts an item restored only when a consistent read finds it so, never from the journal line', async () => {
    const table = await createItemsTable(h.client);
    await rawPut(table, { pk: { S: 'same' }, status: { S: 'closed' } });
    await rawPut(table, { pk: { S: 'moved' }, status: { S: 'open' } });
    const requestId = `bulk_same_${Date.now()}`;
    const done = h.waitFor(requestId);
    const started = await h.call('bulk:start', {
      connectionId: 'local',
      table,
      requestId,
      source: { items: [{ pk: { S: 'same' } }, { pk: { S: 'moved' } }] },
      action: { type: 'update', set: [{ path: ['status'], value: { S: 'closed' } }], remove: [] },
      conditionOnSeen: false,
    });
    if (!started.ok) throw new Error(started.error.message);
    const { last } = await done;
    const bulk = (last.type === 'done' ? last.value : undefined) as BulkReport;
    expect(bulk).toMatchObject({ succeeded: 2 });
    // The first item already held the new value: its journal line's before and after are equal.
    // Someone changes it afterwards; undo must not call it restored without looking.
    await rawPut(table, { pk: { S: 'same' }, status: { S: 'reopened' } });
    const report = await undo(h, bulk.journalId ?? '');
    expect(report).toMatchObject({ restored: 1, alreadyRestored: 0, conflicts: 1, failed: 0 });
    expect(report.items[0]).toMatchObject({
      key: { pk: { S: 'same' } },
      status: 'conflict',
      current: { pk: { S: 'same' }, status: { S: 'reopened' } },
    });
    expect(await rawOf(table, 'moved')).toBe(canonical({ pk: { S: 'moved' }, status: { S: 'open' } }));
  });
});
