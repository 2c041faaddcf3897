import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tableSummary } from '../../src/main/dynamo/table-metadata';
import { writeExecutors } from '../../src/main/agent/write-executors';
import { bulkHandlers } from '../../src/main/ipc/handlers/bulk';
import { copyHandlers } from '../../src/main/ipc/handlers/copy';
import { journalHandlers } from '../../src/main/ipc/handlers/journal';
import { migrationHandlers } from '../../src/main/ipc/handlers/migration';
import { tableHandlers } from '../../src/main/ipc/handlers/tables';
import { transferHandlers } from '../../src/main/ipc/handlers/transfer';
import { McpToolSession } from '../../src/main/mcp/tool-session';
import { resolveTarget } from '../../src/main/dynamo/items/item-access';
import { sendRequest } from '../../src/main/dynamo/writes/sdk-requests';
import { writeOne } from '../../src/main/dynamo/writes/write-one';
import { keepForUndo } from '../../src/main/journal/keep';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { newRequestToken } from '../../src/shared/dynamo/write-plan';
import type { JournalEntry, UndoReport, WriteSource } from '../../src/shared/ipc/journal';
import type { OperationEvent } from '../../src/shared/ipc';
import { uniqueTableName } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';
import { createItemsTable, itemsHarness, type ItemsHarness } from '../support/items-context';
import { canonical, rawDynamo, rawScanItems } from '../support/raw-dynamo';

/**
 * Every door a write can leave DynoTable through, against DynamoDB Local: each write is told to
 * the open views under its source (a `written` event), listed in History with that source, and
 * its undo puts the table back to exactly what DynamoDB Local's own wire JSON held before.
 */
const endpoint = () => inject('dynamoEndpoint');
let h: ItemsHarness;
let ids = 0;

beforeAll(() => {
  h = itemsHarness(endpoint(), {
    ...bulkHandlers,
    ...journalHandlers,
    ...transferHandlers,
    ...copyHandlers,
    ...migrationHandlers,
    ...tableHandlers,
  });
});
afterAll(async () => {
  await h.close();
});

type Written = Extract<OperationEvent, { type: 'written' }>;

/** The `written` events of a table while `work` runs: what every open item editor and grid hears. */
async function writtenDuring(table: string, work: () => Promise<unknown>): Promise<Written[]> {
  const seen: Written[] = [];
  const stop = h.ctx.events.subscribe((event) => {
    if (event.type === 'written' && event.table === table) seen.push(event);
  });
  try {
    await work();
  } finally {
    stop();
  }
  return seen;
}

async function rawPut(table: string, item: unknown): Promise<void> {
  await rawDynamo(endpoint(), 'PutItem', { TableName: table, Item: item });
}

/** The whole table as DynamoDB Local's wire JSON, canonical and sorted: the oracle. */
async function snapshot(table: string): Promise<string[]> {
  return (await rawScanItems(endpoint(), table)).map((item) => canonical(item)).sort();
}

async function call<T>(channel: string, payload: unknown): Promise<T> {
  const answer = await h.call<T>(channel, payload);
  if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return answer.value;
}

async function operation<T>(channel: string, payload: Record<string, unknown>): Promise<T> {
  const requestId = `door_${++ids}_${Date.now()}`;
  const done = h.waitFor(requestId);
  await call(channel, { ...payload, requestId });
  const { last } = await done;
  if (last.type !== 'done') throw new Error(`${channel} ended ${last.type}: ${JSON.stringify(last)}`);
  return last.value as T;
}

async function history(table: string): Promise<JournalEntry[]> {
  return (await call<{ entries: JournalEntry[] }>('journal:list', { connectionId: 'local', table })).entries;
}

const undo = (entryId: string) => operation<UndoReport>('journal:undo', { connectionId: 'local', entryId });

/** The newest History entry has the source, and its undo gives back exactly the table of `before`. */
async function expectUndoable(table: string, source: WriteSource, before: string[]): Promise<JournalEntry> {
  const [entry] = await history(table);
  expect(entry).toMatchObject({ source, table });
  expect(entry?.reason.length).toBeGreaterThan(0);
  const report = await undo(entry?.id ?? '');
  expect(report).toMatchObject({ conflicts: 0, failed: 0, restored: entry?.count });
  expect(await snapshot(table)).toEqual(before);
  return entry as JournalEntry;
}

const sources = (events: Written[]) => [...new Set(events.map((e) => e.source))];

// Every DynamoDB type, names JavaScript objects treat specially, a number past 2^53.
function rich(pk: string): Record<string, unknown> {
  return JSON.parse(
    `{"pk":{"S":"${pk}"},"big":{"N":"12345678901234567890.123"},"tags":{"SS":["b","a"]},"bin":{"B":"AAEC"},` +
      `"nested":{"M":{"l":{"L":[{"N":"1"},{"NULL":true}]}}},"__proto__":{"S":"proto"},"constructor":{"S":"c"}}`,
  ) as Record<string, unknown>;
}

async function seeded(pks: string[]): Promise<string> {
  const table = await createItemsTable(h.client);
  for (const pk of pks) await rawPut(table, rich(pk));
  return table;
}

async function stored(table: string, pk: string): Promise<Item> {
  const { item } = await call<{ item: Item | null }>('items:get', {
    connectionId: 'local',
    table,
    key: { pk: { S: pk } },
    consistent: true,
  });
  if (!item) throw new Error(`no item ${pk}`);
  return item;
}

/** A copy with some attributes replaced; JSON.parse keeps `constructor` and `__proto__` as own names. */
function edited(item: Item, changes: Item): Item {
  return JSON.parse(JSON.stringify({ ...item, ...changes })) as Item;
}

describe('the one write door', () => {
  it('editor: a save, a create, a key change and a delete are each told, listed and undone exactly', async () => {
    const table = await seeded(['a', 'b']);
    const before = await snapshot(table);
    const seen = await stored(table, 'a');
    const events = await writtenDuring(table, () =>
      call('items:update', {
        connectionId: 'local',
        table,
        seen,
        desired: edited(seen, { big: { N: '1' }, constructor: { S: 'changed' } }),
      }),
    );
    expect(sources(events)).toEqual(['editor']);
    expect(events[0]?.items[0]?.item?.constructor).toEqual({ S: 'changed' });
    expect(await expectUndoable(table, 'editor', before)).toMatchObject({ action: 'commit', count: 1 });

    await call('items:create', {
      connectionId: 'local',
      table,
      item: { pk: { S: 'new' }, v: { N: '1.50' } },
    });
    await expectUndoable(table, 'editor', before);

    const b = await stored(table, 'b');
    await call('items:update', {
      connectionId: 'local',
      table,
      seen: b,
      desired: edited(b, { pk: { S: 'b2' } }),
    });
    expect((await snapshot(table)).some((text) => text.includes('"b2"'))).toBe(true);
    await expectUndoable(table, 'editor', before);

    const deleted = await call<{ journalId?: string }>('items:delete', {
      connectionId: 'local',
      table,
      key: { pk: { S: 'a' } },
      expected: await stored(table, 'a'),
    });
    expect(deleted.journalId).toMatch(/^j/);
    await expectUndoable(table, 'editor', before);
  });

  it('grid: a commit of staged changes is told under "grid" and undone exactly', async () => {
    const table = await seeded(['a', 'b']);
    const before = await snapshot(table);
    const a = await stored(table, 'a');
    const events = await writtenDuring(table, () =>
      call('items:commit', {
        connectionId: 'local',
        table,
        token: newRequestToken(),
        changes: [
          { id: '1', seen: a, desired: edited(a, { v: { S: 'inline' } }) },
          { id: '2', seen: null, desired: { pk: { S: 'c' } } },
        ],
      }),
    );
    expect(sources(events)).toEqual(['grid']);
    await expectUndoable(table, 'grid', before);
  });

  it('bulk: a bulk update is told under "bulk" and undone exactly', async () => {
    const table = await seeded(['a', 'b', 'c']);
    const before = await snapshot(table);
    const items = await Promise.all(['a', 'b', 'c'].map((pk) => stored(table, pk)));
    const events = await writtenDuring(table, () =>
      operation('bulk:start', {
        connectionId: 'local',
        table,
        source: { items },
        action: { type: 'update', set: [{ path: ['status'], value: { S: 'closed' } }], remove: [['tags']] },
      }),
    );
    expect(sources(events)).toEqual(['bulk']);
    await expectUndoable(table, 'bulk', before);
  });

  it('import: an overwriting import keeps what it replaced, and its undo removes what it created', async () => {
    const table = await seeded(['a', 'b']);
    const before = await snapshot(table);
    const text = [
      JSON.stringify({ pk: { S: 'a' }, v: { N: '2' } }),
      JSON.stringify({ pk: { S: 'fresh' }, v: { N: '3' } }),
    ].join('\n');
    const events = await writtenDuring(table, () =>
      operation('transfer:import', {
        connectionId: 'local',
        table,
        format: 'jsonl',
        source: { text },
        dryRun: false,
        mode: 'overwrite',
      }),
    );
    expect(sources(events)).toEqual(['import']);
    expect(await snapshot(table)).not.toEqual(before);
    expect(await expectUndoable(table, 'import', before)).toMatchObject({ action: 'put', count: 2 });
  });

  it('copy: a copy with overwrite into an existing table keeps what it replaced and is undone exactly', async () => {
    const source = await seeded(['a', 'x']);
    await rawPut(source, { pk: { S: 'a' }, from: { S: 'source' } });
    const target = await seeded(['a', 'b']);
    const before = await snapshot(target);
    const events = await writtenDuring(target, () =>
      operation('copy:start', {
        source: { connectionId: 'local', table: source },
        target: { connectionId: 'local', table: target },
        conflict: { policy: 'overwrite' },
        verify: false,
      }),
    );
    expect(sources(events)).toEqual(['copy']);
    expect(await expectUndoable(target, 'copy', before)).toMatchObject({ action: 'put', count: 2 });
  });

  it('fix: the pre-flight fix is told under "fix", listed, and undone exactly', async () => {
    const table = await createTable(h.client, uniqueTableName('doorfix'), {
      partitionKey: ['pk', 'S'],
      sortKey: ['sk', 'N'],
    });
    // A flat "address.city" shadowing the nested one: shadow-wins moves it into the map.
    for (const n of ['1', '2'])
      await rawPut(table, {
        pk: { S: `o#${n}` },
        sk: { N: n },
        'address.city': { S: 'Valencia' },
        address: { M: { city: { S: 'Madrid' }, zip: { S: '46001' } } },
      });
    const before = await snapshot(table);
    const plan = await operation<{ planId: string; updates: number }>('migration:fixPlan', {
      connectionId: 'local',
      table,
      policy: 'shadow-wins',
      convertDates: false,
    });
    expect(plan.updates).toBe(2);
    const events = await writtenDuring(table, () =>
      operation('migration:fixRun', { connectionId: 'local', planId: plan.planId }),
    );
    expect(sources(events)).toEqual(['fix']);
    expect(await snapshot(table)).not.toEqual(before);
    expect(await expectUndoable(table, 'fix', before)).toMatchObject({ count: 2 });
  });

  it('undo: an undo is itself told under "undo", listed, and can be undone back to the write', async () => {
    const table = await seeded(['a']);
    const a = await stored(table, 'a');
    await call('items:commit', {
      connectionId: 'local',
      table,
      token: newRequestToken(),
      changes: [{ id: '1', seen: a, desired: edited(a, { v: { S: 'mine' } }) }],
    });
    const afterCommit = await snapshot(table);
    const [commit] = await history(table);
    const events = await writtenDuring(table, () => undo(commit?.id ?? ''));
    expect(sources(events)).toEqual(['undo']);
    // Undoing the undo writes the commit's result again, byte for byte.
    await expectUndoable(table, 'undo', afterCommit);
  });

  it('purge: deletes are told under "purge" and, as its confirmation says, not journaled', async () => {
    const table = await seeded(['a', 'b']);
    const events = await writtenDuring(table, () =>
      operation('tables:purge', { connectionId: 'local', table, confirmTable: table }),
    );
    expect(sources(events)).toEqual(['purge']);
    expect(await snapshot(table)).toEqual([]);
    expect(await history(table)).toEqual([]);
  });

  it('mcp and agent: an approved write is told under its source, listed, and undone exactly', async () => {
    for (const source of ['mcp', 'agent'] as const) {
      const table = await seeded(['a', 'gone']);
      const before = await snapshot(table);
      const session = new McpToolSession({
        ctx: h.ctx,
        connection: await h.ctx.connections.get('local'),
        tables: [],
        allowWrites: true,
        allowScans: false,
        maxItems: 100,
        maxRcu: 100,
      });
      session.tables.set(table, await tableSummary(h.client, table));
      const controller = new AbortController();
      // The in-app assistant's session differs from an MCP client's in its budgets and source.
      const tools = {
        ...session.forCall(controller.signal, (event) => {
          if (event.kind === 'approval') session.approvals.decide(event.approval.id, true);
        }),
        source,
      };
      const events = await writtenDuring(table, () =>
        writeExecutors.propose_changes(
          {
            reason: 'Tidy up',
            changes: [
              { action: 'update', table, partitionKey: 'a', set: { constructor: 'agent' }, remove: ['tags'] },
              { action: 'put', table, partitionKey: 'made', item: { n: 1.5 } },
              { action: 'delete', table, partitionKey: 'gone' },
            ],
          },
          tools,
          'step-1',
        ),
      );
      expect(sources(events)).toEqual([source]);
      expect(await snapshot(table)).not.toEqual(before);
      expect(await expectUndoable(table, source, before)).toMatchObject({ action: 'commit', count: 3 });
    }
  });
});

describe('what an undo puts back', () => {
  it('keeps an attribute someone else added after the user loaded the item, for a save and a commit', async () => {
    for (const channel of ['items:update', 'items:commit'] as const) {
      const table = await seeded(['a']);
      const seen = await stored(table, 'a');
      // Someone else adds an attribute; the save is conditioned only on what the user saw.
      await rawPut(table, { ...rich('a'), theirs: { S: 'kept' } });
      const before = await snapshot(table);
      const desired = edited(seen, { v: { S: 'mine' } });
      if (channel === 'items:update') await call(channel, { connectionId: 'local', table, seen, desired });
      else
        await call(channel, {
          connectionId: 'local',
          table,
          token: newRequestToken(),
          changes: [{ id: '1', seen, desired }],
        });
      expect((await stored(table, 'a')).theirs).toEqual({ S: 'kept' });
      await expectUndoable(table, channel === 'items:update' ? 'editor' : 'grid', before);
    }
  });
});

describe('a write sent again after its answer was lost', () => {
  it('meets its own first attempt: counted written, and its undo puts back the item as it was', async () => {
    const table = await seeded(['a']);
    const before = await snapshot(table);
    const seen = await stored(table, 'a');
    const target = await resolveTarget(h.ctx, 'local', table, 'mcp');
    const item = { pk: { S: 'a' }, v: { S: 'replaced' } };
    const names = Object.fromEntries(Object.keys(seen).map((name, i) => [`#n${i}`, name]));
    const values = Object.fromEntries(Object.keys(seen).map((name, i) => [`:v${i}`, seen[name]!]));
    // A put conditioned on the whole item as read, sent twice: the first attempt DynamoDB applied
    // but whose answer never arrived (sent here outside the door), then the retry.
    const write = {
      key: { pk: { S: 'a' } },
      seen,
      kind: 'update' as const,
      request: {
        operation: 'PutItem' as const,
        input: {
          TableName: table,
          Item: item,
          ConditionExpression: Object.keys(names)
            .map((n, i) => `${n} = :v${i}`)
            .join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_OLD' as const,
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
        },
      },
      after: () => item,
    };
    await sendRequest(target.client, write.request);
    const journal = target.journal('commit', 'MCP client: retried');
    const retried = await writeOne(target, write, journal);
    expect(retried.before).toEqual(seen);
    await keepForUndo(journal);
    await expectUndoable(table, 'mcp', before);
  });
});

describe('undo of a write that a later write of your own changed', () => {
  it('names the later write, and undoing both in order restores the table exactly', async () => {
    const table = await seeded(['a']);
    const before = await snapshot(table);
    const a = await stored(table, 'a');
    await call('items:commit', {
      connectionId: 'local',
      table,
      token: newRequestToken(),
      changes: [{ id: '1', seen: a, desired: edited(a, { v: { S: 'grid' } }) }],
    });
    const [commit] = await history(table);
    const afterGrid = await stored(table, 'a');
    await call('items:update', {
      connectionId: 'local',
      table,
      seen: afterGrid,
      desired: edited(afterGrid, { v: { S: 'editor' } }),
    });
    const [save] = await history(table);

    const refused = await undo(commit?.id ?? '');
    expect(refused).toMatchObject({ restored: 0, conflicts: 1 });
    expect(refused.items[0]?.laterEntry).toEqual({
      id: save?.id,
      source: 'editor',
      at: save?.at,
      reason: save?.reason,
    });
    expect(refused.items[0]?.message).toMatch(/later write of yours/);

    expect(await undo(save?.id ?? '')).toMatchObject({ restored: 1, conflicts: 0 });
    expect(await undo(commit?.id ?? '')).toMatchObject({ restored: 1, conflicts: 0 });
    expect(await snapshot(table)).toEqual(before);
  });
});
