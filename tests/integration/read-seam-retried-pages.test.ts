import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keepProtoNames } from '../../src/main/aws/proto-names';
import { toAppError } from '../../src/main/core/to-app-error';
import { queryHandlers } from '../../src/main/ipc/handlers/query';
import { ErrorCodes } from '../../src/shared/errors';
import type { OperationEvent } from '../../src/shared/ipc';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createPaddedTable } from '../support/padded-table';
import { type Fault, type FaultyDynamo, withFaultyDynamo } from '../support/faulty-dynamo';
import { itemsHarness, type ItemsHarness, runQuery } from '../support/items-context';
import { rawScanItems } from '../support/raw-dynamo';
import { sessionFor } from './sql-support';

/**
 * The seam where a page's Items are read from the response bytes into their destination (the
 * SQL table, wire-columns.ts; the grid's result set, wire-encoder.ts) before the rest of the
 * response is read: a response that breaks after its Items, or a request sent again after bytes
 * arrived, must not leave a row twice. Each fault is injected at the wire by a proxy in front of
 * DynamoDB Local, and every outcome is compared by key with DynamoDB Local's own wire JSON of a
 * plain Scan.
 */
const endpoint = inject('dynamoEndpoint');
const client = keepProtoNames(localClient(endpoint));
const table = uniqueTableName('readseam');
/** ~2.3 MB: the SQL fetch reads it in three of DynamoDB's 1 MB pages. */
const ITEMS = 1500;
afterAll(() => client.destroy());

type Wire = Record<string, { S?: string; N?: string }>;
const keyOf = (pk: unknown, sk: unknown): string => `${String(pk)}|${String(sk)}`;
/** A tagged value's text (`{S: "P#1"}` → "P#1", `{N: "7"}` → "7"). */
const textOf = (value: object | null | undefined): unknown => (value ? Object.values(value)[0] : undefined);
let oracle: string[];

beforeAll(async () => {
  await createPaddedTable(client, table, {
    count: ITEMS,
    bytes: 1500,
    partitions: 37,
    more: (i) => ({ status: { S: i % 3 === 0 ? 'open' : 'paid' } }),
  });
  const raw = (await rawScanItems(endpoint, table)) as Wire[];
  oracle = raw.map((item) => keyOf(item.pk?.S, item.sk?.N)).sort();
  expect(new Set(oracle).size).toBe(ITEMS);
}, 120_000);

/** Answers broken after (or inside) the Items: nothing reads them whole, so nothing sends them again. */
const BROKEN: Fault[] = ['garbage-after-items', 'truncated-after-items', 'corrupt-item'];
/** Failures the SDK or the read engine sends the request again for, before any Items byte is read. */
const RETRIED: Fault[] = ['short-body', 'reset-mid-body', 'server-error', 'throttling'];

/** The first continuation page of a read (the catalog's sample and a read's first page have no start key). */
const secondPage = (fault: Fault) => ({
  operation: 'Scan',
  fault,
  bodyIncludes: 'ExclusiveStartKey',
  next: 1,
});

const withFaulty = <T>(work: (faulty: FaultyDynamo) => Promise<T>): Promise<T> =>
  withFaultyDynamo(endpoint, work);

describe('the SQL fetch, a page read into the table while its response arrives', () => {
  function sql(faulty: FaultyDynamo) {
    const through = keepProtoNames(localClient(faulty.endpoint));
    const { session, connection } = sessionFor(through);
    const run = async (text: string, refresh = true) => {
      const summary = await session.run(connection, text, [], {
        signal: new AbortController().signal,
        refresh,
      });
      // A window holds at most 1,000 rows.
      const rows = [0, 1000].flatMap((offset) => session.results.window(summary.resultId, offset, 1000).rows);
      return { summary, rows };
    };
    const keys = async (refresh = true) => {
      const { summary, rows } = await run(`SELECT pk, sk FROM ${table}`, refresh);
      return { summary, keys: rows.map((r) => keyOf(textOf(r[0]), textOf(r[1]))).sort() };
    };
    return { through, session, connection, run, keys };
  }

  for (const fault of RETRIED)
    it(`${fault} on a page: the request is sent again and every item is in the table once`, () =>
      withFaulty(async (faulty) => {
        const { through, run, keys } = sql(faulty);
        try {
          faulty.script(secondPage(fault));
          const read = await keys();
          expect(faulty.calls.filter((c) => c.fault === fault)).toHaveLength(1);
          expect(read.keys).toEqual(oracle);
          expect(read.summary.fetches[0]).toMatchObject({ items: ITEMS, pages: 3, cached: false });
          const counted = await run(`SELECT COUNT(*) FROM ${table}`, false);
          expect(counted.rows).toEqual([[{ N: String(ITEMS) }]]);
        } finally {
          through.destroy();
        }
      }));

  for (const fault of BROKEN)
    it(`${fault} on a page: the statement fails with a sentence, keeps nothing, and the next read is whole`, () =>
      withFaulty(async (faulty) => {
        const { through, session, connection, keys } = sql(faulty);
        try {
          faulty.script(secondPage(fault));
          const error = await keys().then(
            () => undefined,
            (e: unknown) => e,
          );
          // Not retried: the broken page was asked for once, and not a defect of DynoTable.
          expect(faulty.calls.filter((c) => c.fault === fault)).toHaveLength(1);
          expect(faulty.calls.filter((c) => c.body.ExclusiveStartKey !== undefined)).toHaveLength(1);
          const appError = toAppError(error);
          expect(appError).toMatchObject({ code: ErrorCodes.unexpectedResponse, retryable: true });
          expect(appError.message).toMatch(
            /^DynamoDB's answer could not be read, so nothing of it was used\./,
          );
          // The part read before the break is not kept: a later statement reads the table whole.
          expect(session.cache.list(connection.id)).toEqual([]);
          const again = await keys(false);
          expect(again.keys).toEqual(oracle);
          expect(again.summary.fetches[0]).toMatchObject({ items: ITEMS, cached: false });
        } finally {
          through.destroy();
        }
      }));
});

describe("the Items grid, a page's bytes encoded into the result set before the rest is read", () => {
  const scan = { table, spec: { mode: 'scan' }, pageSize: 100, maxItems: ITEMS * 2 };
  /** The fourth page of 100 items: three pages are in the grid when it breaks. */
  const fourthPage = (fault: Fault) => ({ operation: 'Scan', fault, after: 3, next: 1 });

  async function gridKeys(h: ItemsHarness, resultSetId: string) {
    const window = await h.ctx.resultSets.window(resultSetId, 0, ITEMS * 2);
    return {
      total: window.total,
      keys: window.rows.map((r) => keyOf(textOf(r.pk), textOf(r.sk))),
    };
  }

  const cursorOf = (event: OperationEvent): string | undefined =>
    event.type === 'error' || event.type === 'cancelled' || event.type === 'done' ? event.cursor : undefined;

  /** "Load more" from where the read ended, into the same result set: the grid then holds the table, each item once. */
  async function expectWholeAfterLoadMore(
    h: ItemsHarness,
    first: { resultSetId: string; last: OperationEvent },
  ) {
    const more = await runQuery(h, { ...scan, resultSetId: first.resultSetId, cursor: cursorOf(first.last) });
    expect(more.last.type).toBe('done');
    const all = await gridKeys(h, first.resultSetId);
    expect(all.total).toBe(ITEMS);
    expect([...all.keys].sort()).toEqual(oracle);
  }

  for (const fault of BROKEN)
    it(`${fault}: the error leaves none of the broken page, and "load more" shows each item once`, () =>
      withFaulty(async (faulty) => {
        const h = itemsHarness(faulty.endpoint, queryHandlers);
        try {
          faulty.script(fourthPage(fault));
          const first = await runQuery(h, scan);
          expect(first.last.type).toBe('error');
          if (first.last.type !== 'error') return;
          expect(first.last.error.code).toBe(ErrorCodes.unexpectedResponse);
          expect(first.last.error.message).toMatch(/so nothing of it was used/);
          const shown = await gridKeys(h, first.resultSetId);
          expect(shown.total).toBe(300);
          expect(new Set(shown.keys).size).toBe(300);
          await expectWholeAfterLoadMore(h, first);
        } finally {
          await h.close();
        }
      }));

  for (const fault of RETRIED)
    it(`${fault}: the page is asked for again and the grid holds each item once`, () =>
      withFaulty(async (faulty) => {
        const h = itemsHarness(faulty.endpoint, queryHandlers);
        try {
          faulty.script(fourthPage(fault));
          const read = await runQuery(h, scan);
          expect(read.last.type).toBe('done');
          expect(faulty.calls.filter((c) => c.fault === fault)).toHaveLength(1);
          const all = await gridKeys(h, read.resultSetId);
          expect(all.total).toBe(ITEMS);
          expect([...all.keys].sort()).toEqual(oracle);
        } finally {
          await h.close();
        }
      }));

  it('cancel while a page is on the wire: none of it is shown, and "load more" goes on without a repeat', () =>
    withFaulty(async (faulty) => {
      const h = itemsHarness(faulty.endpoint, queryHandlers);
      try {
        const held = faulty.holdOne({ operation: 'Scan', after: 4 }, 'beforeAnswer');
        const reading = runQuery(h, scan);
        await held.reached;
        h.ctx.operations.cancelAll();
        held.release();
        const first = await reading;
        expect(first.last.type).toBe('cancelled');
        const shown = await gridKeys(h, first.resultSetId);
        expect(shown.total).toBe(400);
        await expectWholeAfterLoadMore(h, first);
      } finally {
        await h.close();
      }
    }));
});
