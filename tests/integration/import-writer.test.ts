import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { operationHandlers } from '../../src/main/ipc/handlers/operations';
import { transferHandlers } from '../../src/main/ipc/handlers/transfer';
import type { ImportReport } from '../../src/shared/ipc/transfer';
import { rawPutAll, rawScanAll } from '../support/copy-oracle';
import { uniqueTableName } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';
import { faultyHarness, type FaultyHarness } from '../support/faulty-harness';
import { canonical, rawDynamo } from '../support/raw-dynamo';

// The file import writes through the copy's writer (writes/put-items.ts). What a user sees must
// not change: create-only never replaces an item, even one another client writes while the
// import runs (it is counted as existing); each refused item is listed by its line; a cancelled
// import counts what it wrote, and running it again completes it. The oracle is DynamoDB Local's
// raw wire JSON, read past the SDK and past DynoTable.
let h: FaultyHarness;
let endpoint: string;
let counter = 0;

type Raw = Record<string, unknown>;
const fileItem = (i: number): Raw => ({
  pk: { S: `K#${i}` },
  version: { N: '1' },
  from: { S: 'file' },
  tags: { SS: ['a', `t${i % 5}`] },
  body: { S: 'x'.repeat(100) },
});
const writerItem = (i: number): Raw => ({
  pk: { S: `K#${i}` },
  version: { N: '100' },
  from: { S: 'writer' },
});
const jsonl = (items: Raw[]) => items.map((Item) => JSON.stringify({ Item })).join('\n');

async function table(): Promise<string> {
  const name = uniqueTableName('importw');
  await createTable(h.client, name, { partitionKey: ['pk', 'S'] });
  return name;
}

async function startImport(payload: Record<string, unknown>) {
  const requestId = `importw_${++counter}_${Date.now()}`;
  const done = h.waitFor(requestId);
  const started = await h.call('transfer:import', {
    connectionId: 'local',
    format: 'jsonl',
    dryRun: false,
    ...payload,
    requestId,
  });
  if (!started.ok) throw new Error(started.error.message);
  return { requestId, done };
}

async function importDone(payload: Record<string, unknown>): Promise<ImportReport> {
  const { last } = await (await startImport(payload)).done;
  if (last.type !== 'done') throw new Error(`ended with ${last.type}: ${JSON.stringify(last)}`);
  return last.value as ImportReport;
}

async function stored(name: string): Promise<Map<string, Raw>> {
  return new Map((await rawScanAll(endpoint, name)).map((item) => [canonical(item.pk), item]));
}

const keyOf = (i: number) => canonical({ S: `K#${i}` });

beforeAll(async () => {
  endpoint = inject('dynamoEndpoint');
  h = await faultyHarness(endpoint, { ...transferHandlers, ...operationHandlers });
});

afterAll(() => h.close());

describe('an import through the copy writer', () => {
  it('create-only keeps every item another client wrote, before or during the import, counted as existing', async () => {
    const COUNT = 2000;
    const target = await table();
    const before = [3, 500, 1999];
    // Spread over the file, so the import reaches some before the writer and some after.
    const during = Array.from({ length: 40 }, (_, i) => 7 + i * 49);
    await rawPutAll(endpoint, target, before.map(writerItem));
    const { done } = await startImport({
      table: target,
      source: { text: jsonl(Array.from({ length: COUNT }, (_, i) => fileItem(i))) },
      mode: 'create-only',
    });
    const state = { importing: true };
    const finished = done.finally(() => (state.importing = false));
    let whileImporting = 0;
    for (const i of during) {
      await rawDynamo(endpoint, 'PutItem', { TableName: target, Item: writerItem(i) });
      if (state.importing) whileImporting++;
    }
    const { last } = await finished;
    expect(last.type).toBe('done');
    const report = (last as { value: ImportReport }).value;
    // The writer really ran while the import did.
    expect(whileImporting).toBeGreaterThan(during.length / 2);

    const items = await stored(target);
    expect(items.size).toBe(COUNT);
    const writers = new Set([...before, ...during]);
    for (let i = 0; i < COUNT; i++)
      expect(canonical(items.get(keyOf(i)))).toBe(canonical(writers.has(i) ? writerItem(i) : fileItem(i)));
    expect(report).toMatchObject({ total: COUNT, invalid: 0, failed: 0, failures: [] });
    expect(report.written + report.existing).toBe(COUNT);
    // Every item there before is counted as existing; a contested one the import reached first was
    // written, then replaced by the writer's unconditional put.
    expect(report.existing).toBeGreaterThanOrEqual(before.length);
    expect(report.existing).toBeLessThanOrEqual(writers.size);
    expect(
      h.faulty.forwarded('BatchWriteItem').filter((c) => JSON.stringify(c.body).includes(target)),
    ).toEqual([]);
  }, 120_000);

  it.each(['create-only', 'overwrite'])(
    '%s lists an item DynamoDB refuses by its line and writes the others',
    async (mode) => {
      const target = await table();
      await rawPutAll(endpoint, target, [writerItem(4)]);
      const items = Array.from({ length: 60 }, (_, i) => fileItem(i));
      items[16] = { ...fileItem(16), pk: { S: 'poison#1' } };
      h.faulty.script({ fault: 'validation', operation: 'PutItem', bodyIncludes: 'poison#1' });
      h.faulty.script({ fault: 'validation', operation: 'BatchWriteItem', bodyIncludes: 'poison#1' });
      let report: ImportReport;
      try {
        report = await importDone({ table: target, source: { text: jsonl(items) }, mode });
      } finally {
        h.faulty.heal();
      }
      expect(report.failures).toEqual([
        {
          line: 17,
          code: 'ValidationException',
          message: expect.stringMatching(/Type mismatch for Index Key/) as unknown,
          key: { pk: { S: 'poison#1' } },
        },
      ]);
      const overwrite = mode === 'overwrite';
      expect(report).toMatchObject({
        total: 60,
        written: overwrite ? 59 : 58,
        existing: overwrite ? 0 : 1,
        failed: 1,
      });
      const got = await stored(target);
      expect(got.size).toBe(59);
      expect(got.has(canonical({ S: 'poison#1' }))).toBe(false);
      for (let i = 0; i < 60; i++) {
        if (i === 16) continue;
        const want = i === 4 && !overwrite ? writerItem(4) : fileItem(i);
        expect(canonical(got.get(keyOf(i)))).toBe(canonical(want));
      }
    },
    120_000,
  );

  it('a cancelled import counts what it wrote, and running it again completes it', async () => {
    const COUNT = 3000;
    const target = await table();
    const text = jsonl(Array.from({ length: COUNT }, (_, i) => fileItem(i)));
    const { requestId, done } = await startImport({ table: target, source: { text }, mode: 'create-only' });
    // Cancel as soon as the progress says some items went in.
    const stop = h.ctx.events.subscribe((event) => {
      if (
        event.requestId === requestId &&
        event.type === 'progress' &&
        /^[1-9]\d* written/.test(event.progress.message ?? '')
      ) {
        stop();
        void h.call('ops:cancel', { requestId });
      }
    });
    const { last } = await done;
    expect(last.type).toBe('cancelled');
    const message = last.type === 'cancelled' ? (last.progress.message ?? '') : '';
    const counted = Number(/^(\d+) written/.exec(message)?.[1]);
    // What the cancelled import says it wrote is what the table holds: no write in flight is cut off uncounted.
    const atCancel = (await stored(target)).size;
    expect(atCancel).toBeGreaterThan(0);
    expect(atCancel).toBeLessThan(COUNT);
    expect(counted).toBe(atCancel);

    const again = await importDone({ table: target, source: { text }, mode: 'create-only' });
    expect(again).toMatchObject({ total: COUNT, written: COUNT - atCancel, existing: atCancel, failed: 0 });
    const items = await stored(target);
    expect(items.size).toBe(COUNT);
    for (let i = 0; i < COUNT; i++) expect(canonical(items.get(keyOf(i)))).toBe(canonical(fileItem(i)));
  }, 120_000);
});
