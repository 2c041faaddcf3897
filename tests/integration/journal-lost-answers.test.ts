import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bulkHandlers } from '../../src/main/ipc/handlers/bulk';
import { journalHandlers } from '../../src/main/ipc/handlers/journal';
import { transferHandlers } from '../../src/main/ipc/handlers/transfer';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { newRequestToken } from '../../src/shared/dynamo/write-plan';
import type { BulkReport } from '../../src/shared/ipc/items';
import type { UndoReport } from '../../src/shared/ipc/journal';
import type { ImportReport } from '../../src/shared/ipc/transfer';
import { rawPutAll } from '../support/copy-oracle';
import { faultyHarness, type FaultyHarness } from '../support/faulty-harness';
import { createItemsTable } from '../support/items-context';
import { canonical, rawScanItems } from '../support/raw-dynamo';

/**
 * Bulk changes and their undo through a proxy that lets DynamoDB Local apply a share of the
 * writes and then resets the connection instead of answering: the SDK (the app's own client,
 * adaptive retry, five attempts) sends the same request again. The oracle is DynamoDB Local's
 * raw wire JSON of the whole table before the change and after the undo.
 */
let h: FaultyHarness;
let upstream: string;
let ids = 0;

beforeAll(async () => {
  upstream = inject('dynamoEndpoint');
  h = await faultyHarness(upstream, { ...bulkHandlers, ...journalHandlers, ...transferHandlers });
});
afterAll(async () => {
  await h.close();
});

const WRITES = ['UpdateItem', 'DeleteItem', 'PutItem'];

function dropAnswers(fraction: number, seed: number): void {
  h.faulty.script(
    ...WRITES.map((operation) => ({ operation, fault: 'drop-answer' as const, fraction, seed })),
  );
}

async function operation<T>(channel: string, body: Record<string, unknown>): Promise<T> {
  const requestId = `lost_${++ids}_${Date.now()}`;
  const done = h.waitFor(requestId);
  const started = await h.call(channel, { connectionId: 'local', requestId, ...body });
  if (!started.ok) throw new Error(started.error.message);
  const { last } = await done;
  if (last.type !== 'done') throw new Error(`${channel} ended ${last.type}: ${JSON.stringify(last)}`);
  return last.value as T;
}

async function tableText(table: string): Promise<Map<string, string>> {
  const items = await rawScanItems(upstream, table);
  return new Map(items.map((item) => [canonical(item.pk), canonical(item)]));
}

async function seed(count: number): Promise<{ table: string; items: Item[] }> {
  const table = await createItemsTable(h.client, { prefix: 'lost' });
  const items: Item[] = Array.from({ length: count }, (_, i) => ({
    pk: { S: `ITEM#${String(i).padStart(4, '0')}` },
    status: { S: i % 3 === 0 ? 'open' : 'held' },
    amount: { N: `${i}.50` },
    note: { S: `note ${i}` },
    tags: { SS: ['a', `t${i % 7}`] },
  }));
  await rawPutAll(upstream, table, items);
  return { table, items };
}

describe('retries after a lost answer never corrupt the undo journal', () => {
  it('a bulk update of 1,000 items, 8% of answers lost, is undone exactly and the report is true', async () => {
    const { table, items } = await seed(1000);
    const before = await tableText(table);
    dropAnswers(0.08, 7);
    const bulk = await operation<BulkReport>('bulk:start', {
      table,
      source: { items },
      action: {
        type: 'update',
        set: [
          { path: ['status'], value: { S: 'closed' } },
          { path: ['closedBy'], value: { S: 'bulk' } },
        ],
        remove: [['note']],
      },
      conditionOnSeen: false,
    });
    const lost = h.faulty.refused('UpdateItem').length;
    expect(lost).toBeGreaterThan(40);
    expect(bulk).toMatchObject({ succeeded: 1000, conflicts: 0, failed: 0 });
    const changed = await rawScanItems(upstream, table);
    expect(changed.filter((i) => (i.status as { S: string }).S === 'closed' && !('note' in i))).toHaveLength(
      1000,
    );

    // Undo meets lost answers too: its own retries must not count or write anything twice.
    dropAnswers(0.08, 11);
    const report = await operation<UndoReport>('journal:undo', { entryId: bulk.journalId });
    h.faulty.heal();
    const after = await tableText(table);
    const wrong = [...before].filter(([key, text]) => after.get(key) !== text).map(([key]) => key);
    expect(wrong).toEqual([]);
    expect(report).toMatchObject({ restored: 1000, alreadyRestored: 0, conflicts: 0, failed: 0 });
  }, 300_000);

  it('a bulk delete conditioned on the items as read keeps every deleted item, lost answers too', async () => {
    const { table, items } = await seed(300);
    const before = await tableText(table);
    dropAnswers(0.08, 3);
    const bulk = await operation<BulkReport>('bulk:start', {
      table,
      source: { items },
      action: { type: 'delete' },
      conditionOnSeen: true,
      confirmTable: table,
    });
    expect(h.faulty.refused('DeleteItem').length).toBeGreaterThan(5);
    expect(bulk).toMatchObject({ succeeded: 300, conflicts: 0, failed: 0 });
    expect(await rawScanItems(upstream, table)).toEqual([]);

    const report = await operation<UndoReport>('journal:undo', { entryId: bulk.journalId });
    h.faulty.heal();
    expect(report).toMatchObject({ restored: 300, alreadyRestored: 0, conflicts: 0, failed: 0 });
    expect(await tableText(table)).toEqual(before);
  }, 120_000);

  it('grid commits, single writes and a transaction, are undone exactly when answers are lost', async () => {
    const { table } = await seed(40);
    const before = await tableText(table);
    // The items as the grid loaded them: DynamoDB's stored form ("0.5" for the "0.50" written).
    const items = (await rawScanItems(upstream, table)) as Item[];
    const edited = (item: Item): Item => ({ ...item, status: { S: 'edited' }, amount: { N: '1' } });
    const commit = async (changes: { seen: Item; desired: Item | null }[]) => {
      const out = await h.call<{ journalId?: string; results: { status: string }[] }>('items:commit', {
        connectionId: 'local',
        table,
        changes: changes.map((c, i) => ({ id: `c${i}`, ...c })),
        token: newRequestToken(),
      });
      if (!out.ok) throw new Error(out.error.message);
      expect(out.value.results.every((r) => r.status === 'written')).toBe(true);
      return out.value.journalId ?? '';
    };
    const lostBefore = h.faulty.refused().length;
    dropAnswers(0.3, 5);
    h.faulty.script({ operation: 'TransactWriteItems', fault: 'drop-answer', next: 1 });
    const singles: string[] = [];
    for (const item of items.slice(0, 15))
      singles.push(await commit([{ seen: item, desired: edited(item) }]));
    const together = await commit(
      items.slice(15).map((item, i) => ({ seen: item, desired: i % 5 === 0 ? null : edited(item) })),
    );
    expect(h.faulty.refused('TransactWriteItems')).toHaveLength(1);
    expect(h.faulty.refused().length - lostBefore).toBeGreaterThan(3);

    const reports: UndoReport[] = [];
    for (const entryId of [together, ...singles.reverse()])
      reports.push(await operation<UndoReport>('journal:undo', { entryId }));
    h.faulty.heal();
    expect(await tableText(table)).toEqual(before);
    const sum = (name: 'restored' | 'alreadyRestored' | 'conflicts' | 'failed') =>
      reports.reduce((n, r) => n + r[name], 0);
    expect([sum('restored'), sum('alreadyRestored'), sum('conflicts'), sum('failed')]).toEqual([40, 0, 0, 0]);
  }, 120_000);

  it('an undo write whose every answer was lost is counted restored once a read finds it so', async () => {
    const { table, items } = await seed(3);
    const before = await tableText(table);
    const bulk = await operation<BulkReport>('bulk:start', {
      table,
      source: { items },
      action: { type: 'update', set: [{ path: ['status'], value: { S: 'closed' } }], remove: [] },
      conditionOnSeen: false,
    });
    // All five of the SDK's attempts at the first undo write lose their answers.
    h.faulty.script(
      ...WRITES.map((operation) => ({
        operation,
        fault: 'drop-answer' as const,
        bodyIncludes: 'ITEM#0000',
        next: 5,
      })),
    );
    const report = await operation<UndoReport>('journal:undo', { entryId: bulk.journalId });
    h.faulty.heal();
    expect(report).toMatchObject({ restored: 3, alreadyRestored: 0, conflicts: 0, failed: 0 });
    expect(await tableText(table)).toEqual(before);
  }, 60_000);
});

describe('an import whose answers are lost is counted and undone exactly', () => {
  /** 400 lines: the first 200 keys are already in the table (seeded), the rest are new. */
  async function importRun(mode: 'overwrite' | 'create-only', seedValue: number) {
    const { table } = await seed(200);
    const before = await tableText(table);
    const text = Array.from({ length: 400 }, (_, i) =>
      JSON.stringify({
        pk: { S: `ITEM#${String(i).padStart(4, '0')}` },
        status: { S: 'imported' },
        amount: { N: String(seedValue + i) },
      }),
    ).join('\n');
    h.faulty.script({ operation: 'PutItem', fault: 'drop-answer', fraction: 0.08, seed: seedValue });
    const report = await operation<ImportReport & { journalId?: string }>('transfer:import', {
      table,
      format: 'jsonl',
      source: { text },
      dryRun: false,
      mode,
    });
    const lost = h.faulty.refused('PutItem').length;
    h.faulty.heal();
    return { table, before, report, lost };
  }

  it('overwrite: every line written once, and undo puts back what each replaced and deletes what it created', async () => {
    const { table, before, report, lost } = await importRun('overwrite', 21);
    expect(lost).toBeGreaterThan(10);
    expect(report).toMatchObject({ total: 400, written: 400, existing: 0, failed: 0 });
    const stored = await rawScanItems(upstream, table);
    expect(stored.filter((i) => (i.status as { S: string }).S === 'imported')).toHaveLength(400);

    dropAnswers(0.08, 23);
    const undo = await operation<UndoReport>('journal:undo', { entryId: report.journalId });
    h.faulty.heal();
    expect(undo).toMatchObject({ restored: 400, conflicts: 0, failed: 0 });
    expect(await tableText(table)).toEqual(before);
  }, 180_000);

  it('create-only: a retried put that meets its own item counts written, not "already exists"', async () => {
    const { table, before, report, lost } = await importRun('create-only', 31);
    expect(lost).toBeGreaterThan(10);
    expect(report).toMatchObject({ total: 400, written: 200, existing: 200, failed: 0 });
    const undo = await operation<UndoReport>('journal:undo', { entryId: report.journalId });
    expect(undo).toMatchObject({ restored: 200, conflicts: 0, failed: 0 });
    expect(await tableText(table)).toEqual(before);
  }, 180_000);
});
