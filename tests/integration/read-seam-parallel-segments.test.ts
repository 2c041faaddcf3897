import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keepProtoNames } from '../../src/main/aws/proto-names';
import { isCancellation } from '../../src/main/core/retry';
import { toAppError } from '../../src/main/core/to-app-error';
import { tableSummary } from '../../src/main/dynamo/table-metadata';
import { type FetchCounters, runFetch } from '../../src/main/sql/fetch/fetcher';
import type { FetchSpec } from '../../src/main/sql/planner/plan';
import { toTagged, type Value } from '../../src/main/sql/values/value';
import { ErrorCodes } from '../../src/shared/errors';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createPaddedTable } from '../support/padded-table';
import { type Fault, type FaultyDynamo, withFaultyDynamo } from '../support/faulty-dynamo';
import { rawDynamo } from '../support/raw-dynamo';

/**
 * The SQL fetch's parallel Scan: several segments reading their pages' Items from the response
 * bytes into one table, a fault injected into one of them. The planner asks for segments only
 * past 64 MB; the fetch spec's own `segments` asks for four here. The oracle is DynamoDB Local's
 * wire JSON of the same segments, read past the SDK and DynoTable.
 */
const endpoint = inject('dynamoEndpoint');
const client = keepProtoNames(localClient(endpoint));
const table = uniqueTableName('readseamseg');
const SEGMENTS = 4;
/** ~4.4 MB: each of the four segments comes in two of DynamoDB's 1 MB pages. */
const ITEMS = 2600;
afterAll(() => client.destroy());

type Wire = Record<string, Record<string, string>>;
const keyOf = (pk: unknown, sk: unknown): string => `${String(pk)}|${String(sk)}`;
/** A table value's text as DynamoDB spells it (`"P#1"`, `"7"`). */
const textOf = (value: Value): unknown => Object.values(toTagged(value) ?? {})[0];
let oracle: string[];
/** Every item count the progress line may show: each segment's whole pages so far, summed. */
let wholePageSums: Set<number>;
let spec: FetchSpec;

beforeAll(async () => {
  await createPaddedTable(client, table, { count: ITEMS, bytes: 1700, partitions: 53 });
  const keys: string[] = [];
  wholePageSums = new Set([0]);
  for (let segment = 0; segment < SEGMENTS; segment++) {
    const prefixes = [0];
    let start: unknown;
    do {
      const page = await rawDynamo<{ Items: Wire[]; LastEvaluatedKey?: unknown }>(endpoint, 'Scan', {
        TableName: table,
        Segment: segment,
        TotalSegments: SEGMENTS,
        ...(start ? { ExclusiveStartKey: start } : {}),
      });
      keys.push(...page.Items.map((item) => keyOf(item.pk?.S, item.sk?.N)));
      prefixes.push(prefixes.at(-1)! + page.Items.length);
      start = page.LastEvaluatedKey;
    } while (start);
    if (segment === 2) expect(prefixes.length).toBeGreaterThan(2);
    wholePageSums = new Set([...wholePageSums].flatMap((sum) => prefixes.map((p) => sum + p)));
  }
  oracle = keys.sort();
  expect(new Set(oracle).size).toBe(ITEMS);
  const info = await tableSummary(client, table);
  spec = {
    id: 'f1',
    table: info,
    access: { operation: 'Scan', segments: SEGMENTS },
    bindings: [],
    reason: 'the test asks for four segments',
    cacheKey: table,
    maxItems: ITEMS * 2,
  };
}, 180_000);

/** The second page of segment 2 (a continuation: its request carries a start key). */
const inSegmentTwo = (fault: Fault) => ({
  operation: 'Scan',
  fault,
  bodyIncludes: '"Segment":2',
  after: 1,
  next: 1,
});

async function fetchThrough(faulty: FaultyDynamo, signal?: AbortSignal) {
  const through = keepProtoNames(localClient(faulty.endpoint));
  const progress: FetchCounters[] = [];
  try {
    const outcome = await runFetch(through, spec, { signal, onPage: (counters) => progress.push(counters) });
    const pk = outcome.table.column('pk') ?? [];
    const sk = outcome.table.column('sk') ?? [];
    const keys = pk.map((p, row) => keyOf(textOf(p), textOf(sk[row]))).sort();
    return { outcome, keys, progress };
  } finally {
    through.destroy();
  }
}

const withFaulty = <T>(work: (faulty: FaultyDynamo) => Promise<T>): Promise<T> =>
  withFaultyDynamo(endpoint, work);

describe('a parallel Scan reading into one SQL table', () => {
  it('four segments, no fault: every item once, and the progress count only ever whole pages', () =>
    withFaulty(async (faulty) => {
      const { outcome, keys, progress } = await fetchThrough(faulty);
      expect(faulty.forwarded('Scan').map((c) => c.body.Segment)).toEqual(
        expect.arrayContaining([0, 1, 2, 3]),
      );
      expect(keys).toEqual(oracle);
      expect(outcome).toMatchObject({ items: ITEMS, truncated: false });
      for (const counters of progress) expect(wholePageSums.has(counters.items)).toBe(true);
      expect(progress.at(-1)?.items).toBe(ITEMS);
    }));

  for (const fault of ['short-body', 'reset-mid-body', 'server-error', 'throttling'] as const)
    it(`${fault} in one segment: that page is asked for again, every item is in the table once`, () =>
      withFaulty(async (faulty) => {
        faulty.script(inSegmentTwo(fault));
        const { outcome, keys, progress } = await fetchThrough(faulty);
        const faulted = faulty.calls.filter((c) => c.fault === fault);
        expect(faulted).toHaveLength(1);
        expect(faulted[0]!.body.Segment).toBe(2);
        expect(faulted[0]!.body.ExclusiveStartKey).toBeDefined();
        expect(keys).toEqual(oracle);
        expect(outcome.items).toBe(ITEMS);
        for (const counters of progress) expect(wholePageSums.has(counters.items)).toBe(true);
        expect(progress.at(-1)).toMatchObject({ items: ITEMS, scanned: ITEMS });
      }));

  for (const fault of ['garbage-after-items', 'truncated-after-items'] as const)
    it(`${fault} in one segment: the read fails with a sentence, and the broken page is not sent again`, () =>
      withFaulty(async (faulty) => {
        faulty.script(inSegmentTwo(fault));
        const error = await fetchThrough(faulty).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(toAppError(error)).toMatchObject({ code: ErrorCodes.unexpectedResponse });
        const again = faulty.calls.filter(
          (c) => c.body.Segment === 2 && c.body.ExclusiveStartKey !== undefined && c.fault === undefined,
        );
        expect(again).toEqual([]);
      }));

  it('cancel with half of one segment’s page arrived: the read ends cancelled, its count only whole pages', () =>
    withFaulty(async (faulty) => {
      const held = faulty.holdOne({ operation: 'Scan', bodyIncludes: '"Segment":2', after: 1 }, 'midBody');
      const cancel = new AbortController();
      const progress: FetchCounters[] = [];
      const through = keepProtoNames(localClient(faulty.endpoint));
      try {
        const reading = runFetch(through, spec, {
          signal: cancel.signal,
          onPage: (counters) => progress.push(counters),
        });
        await held.arrived;
        cancel.abort();
        held.release();
        const error = await reading.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isCancellation(error)).toBe(true);
        for (const counters of progress) expect(wholePageSums.has(counters.items)).toBe(true);
        expect(progress.at(-1)?.items ?? 0).toBeLessThan(ITEMS);
      } finally {
        through.destroy();
      }
    }));
});
