import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CoreContext } from '../../../src/main/core/context';
import { EventBus } from '../../../src/main/core/events';
import { OperationRegistry } from '../../../src/main/core/operations';
import { toAppError } from '../../../src/main/core/to-app-error';
import { operationHandlers } from '../../../src/main/ipc/handlers/operations';
import { queryHandlers } from '../../../src/main/ipc/handlers/query';
import { resultSetHandlers } from '../../../src/main/ipc/handlers/resultsets';
import { createResultSetStore } from '../../../src/main/resultsets/store';
import { contract, type ChannelInput, type OperationEvent } from '../../../src/shared/ipc';
import { localClient, uniqueTableName } from '../../support/dynamo-local';
import { createTable, putItems } from '../../support/dynamo-tables';
import { type FaultyDynamo, startFaultyDynamo } from '../../support/faulty-dynamo';

let client: DynamoDBClient;
/** When set, the connection's client: the same DynamoDB Local behind the faulty proxy. */
let through: DynamoDBClient | undefined;
let ctx: CoreContext;

beforeAll(() => {
  client = localClient(inject('dynamoEndpoint'));
  const events = new EventBus();
  // The real registry, bus and worker-backed store; only the connection lookup is reduced to
  // "this DynamoDB Local client", which is H2's factory's job in the app.
  ctx = {
    events,
    operations: new OperationRegistry(events),
    resultSets: createResultSetStore(),
    clients: {
      dynamo: () => Promise.resolve(through ?? client),
      invalidate: () => undefined,
      destroy: () => undefined,
    },
  } as unknown as CoreContext;
});
afterAll(async () => {
  await ctx.resultSets.close();
  client.destroy();
});

/** A table of `count` items keyed (S, N) with a sparse GSI on every fifth item. */
async function seededTable(count: number): Promise<string> {
  const table = await createTable(client, uniqueTableName('scan'), {
    partitionKey: ['PK', 'S'],
    sortKey: ['SK', 'N'],
    globalIndexes: [{ name: 'Flagged', partitionKey: ['flagged', 'S'] }],
  });
  const items = Array.from({ length: count }, (_, i) => ({
    PK: { S: `P#${i % 9}` },
    SK: { N: `${i}.5` },
    payload: { B: Buffer.from([i % 256, 0, 255]) },
    ...(i % 5 === 0 ? { flagged: { S: 'yes' } } : {}),
  }));
  await putItems(client, table, items);
  return table;
}

interface Run {
  resultSetId: string;
  events: OperationEvent[];
  /** Resolves with the terminal event; the events array is complete by then. */
  finished: Promise<OperationEvent>;
}

/** A scan as the Items tab starts one: query:start in scan mode, the one read path. */
async function startScan(
  input: Omit<ChannelInput<'query:start'>, 'connectionId' | 'requestId' | 'spec'> & { index?: string },
  onEvent?: (e: OperationEvent) => void,
): Promise<Run> {
  const requestId = `req-${randomUUID()}`;
  const events: OperationEvent[] = [];
  let finish!: (event: OperationEvent) => void;
  const finished = new Promise<OperationEvent>((resolve) => (finish = resolve));
  const unsubscribe = ctx.events.subscribe((event) => {
    if (event.requestId !== requestId) return;
    events.push(event);
    onEvent?.(event);
    if (event.type === 'done' || event.type === 'cancelled' || event.type === 'error') {
      unsubscribe();
      finish(event);
    }
  });
  const { index, ...rest } = input;
  const parsed = contract['query:start'].input.parse({
    maxItems: 1000,
    ...rest,
    spec: { mode: 'scan', ...(index === undefined ? {} : { index }) },
    connectionId: 'local',
    requestId,
  });
  const { resultSetId } = await queryHandlers['query:start'](parsed, ctx);
  return { resultSetId, events, finished };
}

/** Runs `work` with the connection's client behind the faulty proxy, then puts the plain one back. */
async function throughFaulty(work: (faulty: FaultyDynamo) => Promise<void>): Promise<void> {
  const faulty = await startFaultyDynamo(inject('dynamoEndpoint'));
  through = localClient(faulty.endpoint);
  try {
    await work(faulty);
  } finally {
    through.destroy();
    through = undefined;
    await faulty.close();
  }
}

async function allRows(resultSetId: string) {
  const window = await resultSetHandlers['resultsets:window']({ resultSetId, offset: 0, limit: 1000 }, ctx);
  return { ...window, keys: window.rows.map((r) => `${JSON.stringify(r.PK)}|${JSON.stringify(r.SK)}`) };
}

const expectedKeys = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => `${JSON.stringify({ S: `P#${i % 9}` })}|${JSON.stringify({ N: `${i}.5` })}`,
  ).sort();

describe('query:start scans into the result-set store', () => {
  it('streams pages with increasing seq and ends in exactly one done', async () => {
    const table = await seededTable(250);
    const run = await startScan({ table, pageSize: 40 });
    const last = await run.finished;

    expect(run.events.map((e) => e.seq)).toEqual(run.events.map((_, i) => i));
    expect(run.events.filter((e) => ['done', 'cancelled', 'error'].includes(e.type))).toEqual([last]);
    expect(last).toMatchObject({
      type: 'done',
      progress: { items: 250, pages: 7, scanned: 250, fraction: 1 },
    });
    expect(last.type === 'done' && last.cursor).toBeUndefined();
    const pages = run.events.filter((e) => e.type === 'page');
    expect(pages.map((p) => p.total)).toEqual([40, 80, 120, 160, 200, 240, 250]);
    const fractions = run.events.flatMap((e) => (e.type === 'progress' ? [e.progress.fraction ?? 0] : []));
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(last.type === 'done' && last.progress.consumedCapacity).toBeGreaterThan(0);

    const rows = await allRows(run.resultSetId);
    expect(rows.total).toBe(250);
    expect(rows.keys.sort()).toEqual(expectedKeys(250));
    expect(rows.columns).toEqual(['PK', 'SK', 'payload', 'flagged']);
    expect(rows.rows.find((r) => JSON.stringify(r.SK) === '{"N":"7.5"}')?.payload).toEqual({
      B: Buffer.from([7, 0, 255]).toString('base64'),
    });
  });

  it('stops at maxItems with a cursor, and "load more" appends the rest without duplicates', async () => {
    const table = await seededTable(250);
    const first = await startScan({ table, pageSize: 30, maxItems: 100 });
    const firstEnd = await first.finished;
    expect(firstEnd).toMatchObject({ type: 'done', progress: { items: 100 } });
    const cursor = firstEnd.type === 'done' ? firstEnd.cursor : undefined;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect((await allRows(first.resultSetId)).total).toBe(100);

    const more = await startScan({ table, pageSize: 30, cursor, resultSetId: first.resultSetId });
    expect(more.resultSetId).toBe(first.resultSetId);
    expect(await more.finished).toMatchObject({ type: 'done', progress: { items: 150, fraction: 1 } });
    const rows = await allRows(first.resultSetId);
    expect(rows.total).toBe(250);
    expect(rows.keys.sort()).toEqual(expectedKeys(250));
  });

  it('cancelled mid-scan ends in exactly one cancelled with a cursor that resumes with no gaps', async () => {
    const table = await seededTable(250);
    let pagesSeen = 0;
    const run = await startScan({ table, pageSize: 10 }, (event) => {
      if (event.type === 'page' && ++pagesSeen === 3) ctx.operations.cancel(event.requestId);
    });
    const last = await run.finished;
    expect(last.type).toBe('cancelled');
    expect(run.events.filter((e) => ['done', 'cancelled', 'error'].includes(e.type))).toHaveLength(1);
    expect(run.events.map((e) => e.seq)).toEqual(run.events.map((_, i) => i));
    const cursor = last.type === 'cancelled' ? last.cursor : undefined;
    expect(cursor).toBeDefined();
    const stored = (await allRows(run.resultSetId)).total;
    expect(stored).toBeGreaterThanOrEqual(30);
    expect(stored).toBeLessThan(250);
    expect(last.type === 'cancelled' && last.progress.items).toBe(stored);

    const resumed = await startScan({ table, pageSize: 50, cursor, resultSetId: run.resultSetId });
    expect(await resumed.finished).toMatchObject({ type: 'done', progress: { items: 250 - stored } });
    const rows = await allRows(run.resultSetId);
    expect(rows.keys).toHaveLength(250);
    expect(rows.keys.sort()).toEqual(expectedKeys(250));
  });

  it('scans a sparse index with its key first', async () => {
    const table = await seededTable(60);
    const run = await startScan({ table, index: 'Flagged' });
    expect(await run.finished).toMatchObject({ type: 'done', progress: { items: 12 } });
    const rows = await allRows(run.resultSetId);
    expect(rows.total).toBe(12);
    expect(rows.columns.slice(0, 3)).toEqual(['flagged', 'PK', 'SK']);
  });

  it('refuses a missing table, a missing index and a foreign cursor before starting', async () => {
    const table = await seededTable(3);
    await expect(startScan({ table: uniqueTableName('nope') })).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
    const missingIndex = await startScan({ table, index: 'Nope' }).catch((e: unknown) => toAppError(e));
    expect(missingIndex).toMatchObject({
      code: 'InvalidInput',
      details: { field: 'index' },
      message: `The table ${table} has no index named Nope.`,
    });
    const other = await seededTable(3);
    const first = await startScan({ table: other, maxItems: 1 });
    const end = await first.finished;
    const foreign = await startScan({ table, cursor: end.type === 'done' ? end.cursor : 'x' }).catch(
      (e: unknown) => toAppError(e),
    );
    expect(foreign).toMatchObject({ code: 'InvalidInput' });
  });

  it('waits out throttling past the SDK’s own attempts, saying so, and still shows every item', async () => {
    const table = await seededTable(110);
    await throughFaulty(async (faulty) => {
      // The first page passes; the next five Scans are refused: the SDK's three attempts, then ours.
      faulty.script({ operation: 'Scan', fault: 'provisioned-throughput', after: 1, next: 5 });
      const run = await startScan({ table, pageSize: 40 });
      const last = await run.finished;
      expect(last).toMatchObject({ type: 'done', progress: { items: 110, pages: 3 } });
      expect(faulty.refused('Scan')).toHaveLength(5);
      const messages = run.events.flatMap((e) => (e.type === 'progress' ? [e.progress.message ?? ''] : []));
      expect(messages.some((m) => /^DynamoDB is throttling; waiting \d+ ms \(retry 1\)\.$/.test(m))).toBe(
        true,
      );
      const rows = await allRows(run.resultSetId);
      expect(rows.keys.sort()).toEqual(expectedKeys(110));
    });
  });

  it('ends a failed page in one error with the AWS code and a cursor that goes on without a gap', async () => {
    const table = await seededTable(100);
    await throughFaulty(async (faulty) => {
      faulty.script({ operation: 'Scan', fault: 'expired-token', after: 2, next: 1 });
      const run = await startScan({ table, pageSize: 30 });
      const last = await run.finished;
      expect(last).toMatchObject({ type: 'error', error: { code: 'ExpiredTokenException' } });
      expect(run.events.filter((e) => ['done', 'cancelled', 'error'].includes(e.type))).toEqual([last]);
      const cursor = last.type === 'error' ? (last.error.details as { cursor?: string }).cursor : undefined;
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect((await allRows(run.resultSetId)).total).toBe(60);

      const more = await startScan({ table, pageSize: 30, cursor, resultSetId: run.resultSetId });
      expect(await more.finished).toMatchObject({ type: 'done', progress: { items: 40 } });
      const rows = await allRows(run.resultSetId);
      expect(rows.keys).toHaveLength(100);
      expect(rows.keys.sort()).toEqual(expectedKeys(100));
    });
  });

  it('answers ops:cancel for unknown requests with cancelled: false', async () => {
    expect(await operationHandlers['ops:cancel']({ requestId: 'req-not-running' }, ctx)).toEqual({
      cancelled: false,
    });
  });
});
