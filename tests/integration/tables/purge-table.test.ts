import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryHandlers } from '../../../src/main/ipc/handlers/query';
import { resultSetHandlers } from '../../../src/main/ipc/handlers/resultsets';
import type { OperationEvent } from '../../../src/shared/ipc';
import type { PurgeResult } from '../../../src/shared/ipc/table-admin';
import { failure } from '../../support/items-assert';
import { itemsHarness, runQuery, type ItemsHarness } from '../../support/items-context';
import { startDynamoLocal, uniqueTableName, type LocalDynamo } from '../../support/dynamo-local';
import { createTable, putItems } from '../../support/dynamo-tables';
import { rawDynamo } from '../../support/raw-dynamo';
import { tableHandlers } from '../../../src/main/ipc/handlers/tables';
import { operationHandlers } from '../../../src/main/ipc/handlers/operations';
import { nextRequestId } from '../../support/table-admin';

// Writing and purging 50,000 items keeps a DynamoDB Local busy for minutes: on the shared
// instance it held other files' GSI backfills past their timeouts on CI, so it has its own.
let local: LocalDynamo;
let h: ItemsHarness;
let endpoint: string;
beforeAll(async () => {
  local = await startDynamoLocal();
  endpoint = local.endpoint;
  h = itemsHarness(endpoint, {
    ...tableHandlers,
    ...operationHandlers,
    ...queryHandlers,
    ...resultSetHandlers,
  });
});
afterAll(async () => {
  await h.close();
  await local.stop();
});

/** Partition keys with a sort key, some with attribute names that are JavaScript's own. */
function items(count: number): Record<string, AttributeValue>[] {
  return Array.from({ length: count }, (_, i) => ({
    pk: { S: `P#${i % 97}` },
    sk: { N: String(i) },
    ...(i % 10 === 0 ? { __proto__: { S: 'x' }, constructor: { N: '1' } } : { body: { S: 'y'.repeat(40) } }),
  }));
}

async function filledTable(prefix: string, count: number): Promise<string> {
  const table = await createTable(h.client, uniqueTableName(prefix), {
    partitionKey: ['pk', 'S'],
    sortKey: ['sk', 'N'],
  });
  // Distinct keys, so the batches may land in any order: eight in flight fill it faster.
  await putItems(h.client, table, items(count), { concurrency: 8 });
  return table;
}

/** The oracle: DynamoDB Local's own count, read with a raw Scan past the SDK and DynoTable. */
async function rawCount(table: string): Promise<number> {
  let total = 0;
  let start: unknown;
  do {
    const page = await rawDynamo<{ Count: number; LastEvaluatedKey?: unknown }>(endpoint, 'Scan', {
      TableName: table,
      Select: 'COUNT',
      ConsistentRead: true,
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    total += page.Count;
    start = page.LastEvaluatedKey;
  } while (start);
  return total;
}

const rawArn = async (table: string): Promise<string> =>
  (await rawDynamo<{ Table: { TableArn: string } }>(endpoint, 'DescribeTable', { TableName: table })).Table
    .TableArn;

function startPurge(table: string, extra: Record<string, unknown> = {}, connectionId = 'local') {
  const requestId = nextRequestId('purge');
  const finished = h.waitFor(requestId);
  const started = h.call('tables:purge', { connectionId, table, requestId, confirmTable: table, ...extra });
  return { requestId, finished, started };
}

const progressOf = (events: OperationEvent[]) =>
  events.flatMap((e) => (e.type === 'progress' ? [e.progress] : []));

describe('tables:purge against DynamoDB Local', () => {
  it('previews the count and units, refuses without the typed name, on read-only and on production without a second confirmation', async () => {
    const table = await filledTable('purge_refuse', 30);
    const preview = await h.call<{ itemCount: number; writeUnits: number; sentences: string[] }>(
      'tables:purgePreview',
      { connectionId: 'local', table },
    );
    expect(preview.ok).toBe(true);
    if (!preview.ok) return;
    expect(preview.value.itemCount).toBe(await rawCount(table));
    expect(preview.value.writeUnits).toBeGreaterThanOrEqual(30);
    expect(preview.value.sentences.join(' ')).toMatch(/new ARN/);

    const wrongName = startPurge(table, { confirmTable: 'nope' });
    expect(failure(await wrongName.started, 'ConfirmationRequired').message).toMatch(
      new RegExp(`Type ${table} to confirm deleting every item`),
    );
    failure(await startPurge(table, {}, 'ro').started, 'ReadOnlyConnection');
    expect(failure(await startPurge(table, {}, 'prod').started, 'ConfirmationRequired').message).toMatch(
      /production connection: confirm a second time/,
    );
    expect(await rawCount(table)).toBe(30);
  });

  it('purges 50,000 items with a cancel and a resume: the table is empty, the ARN the same, open result sets emptied', async () => {
    const total = 50_000;
    const table = await filledTable('purge_big', total);
    const arn = await rawArn(table);
    // A grid holding some of the items: the purge must empty it too.
    const open = await runQuery(h, { table, spec: { mode: 'scan' }, maxItems: 300 });
    expect(open.last.type).toBe('done');

    const first = startPurge(table);
    expect((await first.started).ok).toBe(true);
    // Cancel once the progress says a few thousand went.
    const stop = h.ctx.events.subscribe((event) => {
      if (event.requestId === first.requestId && event.type === 'progress' && event.progress.items >= 3000) {
        stop();
        void h.call('ops:cancel', { requestId: first.requestId });
      }
    });
    const cancelled = await first.finished;
    expect(cancelled.last.type).toBe('cancelled');
    const deletedFirst = cancelled.last.type === 'cancelled' ? cancelled.last.progress.items : -1;
    const left = await rawCount(table);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(total);
    expect(total - left).toBe(deletedFirst);
    const rates = progressOf(cancelled.events);
    expect(rates.at(-1)?.perSecond).toBeGreaterThan(0);
    expect(rates.some((p) => p.etaSeconds !== undefined && p.etaSeconds > 0)).toBe(true);
    expect(rates.at(-1)?.message).toMatch(/\d[\d,]* deleted, 0 failed, [\d,]+ items\/s/);

    const second = startPurge(table);
    expect((await second.started).ok).toBe(true);
    const done = await second.finished;
    expect(done.last.type).toBe('done');
    const result = (done.last.type === 'done' ? done.last.value : undefined) as PurgeResult;
    expect(result).toMatchObject({ table, deleted: left, failed: 0, isEmpty: true });
    expect(await rawCount(table)).toBe(0);
    expect(await rawArn(table)).toBe(arn);
    const window = await h.call<{ total: number }>('resultsets:window', {
      resultSetId: open.resultSetId,
      offset: 0,
      limit: 10,
    });
    expect(window.ok && window.value.total).toBe(0);
  }, 600_000);

  it('stops at the next chunk when the connection is made read-only while it runs', async () => {
    const table = await filledTable('purge_ro', 5000);
    await h.ctx.connections.save({
      id: 'turns_ro',
      label: 'Turns read-only',
      color: '#1f6feb',
      kind: 'keys',
      region: 'us-east-1',
      endpoint,
      readOnly: false,
      isProduction: false,
    } as never);
    const run = startPurge(table, { maxPerSecond: 400 }, 'turns_ro');
    expect((await run.started).ok).toBe(true);
    const flip = h.ctx.events.subscribe((event) => {
      if (event.requestId === run.requestId && event.type === 'progress' && event.progress.items > 0) {
        flip();
        void h.ctx.connections.get('turns_ro').then((c) => h.ctx.connections.save({ ...c, readOnly: true }));
      }
    });
    const { last } = await run.finished;
    expect(last.type).toBe('error');
    expect(last.type === 'error' && last.error.code).toBe('ReadOnlyConnection');
    const left = await rawCount(table);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(5000);
  }, 120_000);
});
