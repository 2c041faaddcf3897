import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { toSdkItem } from '../../src/main/dynamo/marshal';
import { queryHandlers } from '../../src/main/ipc/handlers/query';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type { OperationEvent } from '../../src/shared/ipc';
import { failure } from '../support/items-assert';
import { putItems } from '../support/dynamo-tables';
import { createItemsTable, itemsHarness, type ItemsHarness, runQuery } from '../support/items-context';

let h: ItemsHarness;
let table: string;

function item(i: number): Item {
  return {
    pk: { S: i % 2 === 0 ? 'even' : 'odd' },
    sk: { N: String(i) },
    gpk: { S: `G#${i % 3}` },
    gsk: { S: `2026-11-${String(i).padStart(2, '0')}` },
    status: { S: i % 5 === 0 ? 'paid' : 'open' },
    'a.b': { N: String(i * 10) },
    nested: { M: { 'x y': { N: `12345678901234567890123456789012345${String(i).padStart(3, '0')}` } } },
  };
}

beforeAll(async () => {
  h = itemsHarness(inject('dynamoEndpoint'), queryHandlers);
  table = await createItemsTable(h.client, { sortKey: true, gsi: true, prefix: 'query' });
  await putItems(
    h.client,
    table,
    Array.from({ length: 60 }, (_, i) => toSdkItem(item(i + 1))),
  );
});
afterAll(() => h.close());

const pagesId = (event: OperationEvent | undefined): string =>
  event?.type === 'page' ? event.resultSetId : '';

async function read(
  payload: Record<string, unknown>,
): Promise<{ rows: Item[]; last: OperationEvent; events: OperationEvent[] }> {
  const { resultSetId, events, last } = await runQuery(h, { table, ...payload });
  const window = await h.ctx.resultSets.window(resultSetId, 0, 1000);
  return { rows: window.rows, last, events };
}

describe('query:start', () => {
  it('queries a partition with a sort key range, newest first, keeping 38-digit numbers', async () => {
    const { rows, last } = await read({
      spec: {
        mode: 'query',
        partitionKey: { S: 'even' },
        sortKey: { op: 'between', value: { N: '10' }, value2: { N: '20' } },
        descending: true,
      },
    });
    expect(rows.map((r) => r.sk)).toEqual([20, 18, 16, 14, 12, 10].map((n) => ({ N: String(n) })));
    expect(rows[0]?.nested).toEqual({ M: { 'x y': { N: '12345678901234567890123456789012345020' } } });
    expect(last).toMatchObject({ type: 'done', progress: { items: 6, pages: 1 } });
  });

  it('filters on reserved words, dotted names and nested paths with AND/OR groups', async () => {
    const { rows } = await read({
      spec: {
        mode: 'scan',
        filter: {
          kind: 'group',
          join: 'AND',
          items: [
            { kind: 'condition', path: ['status'], op: '=', value: { S: 'paid' } },
            {
              kind: 'group',
              join: 'OR',
              items: [
                { kind: 'condition', path: ['a.b'], op: '>=', value: { N: '500' } },
                { kind: 'condition', path: ['nested', 'x y'], op: 'attribute_not_exists' },
              ],
            },
          ],
        },
      },
      maxItems: 1000,
    });
    expect(rows.map((r) => Number((r.sk as { N: string }).N)).sort((a, b) => a - b)).toEqual([50, 55, 60]);
  });

  it('queries a GSI and refuses a consistent read on it with the reason', async () => {
    const { rows } = await read({
      spec: {
        mode: 'query',
        index: 'byG',
        partitionKey: { S: 'G#0' },
        sortKey: { op: 'begins_with', value: { S: '2026-11-0' } },
      },
    });
    expect(rows.map((r) => r.sk)).toEqual([3, 6, 9].map((n) => ({ N: String(n) })));
    const refused = await h.call('query:start', {
      connectionId: 'local',
      table,
      requestId: 'query_consistent_gsi',
      spec: { mode: 'query', index: 'byG', partitionKey: { S: 'G#0' }, consistent: true },
    });
    expect(failure(refused, 'InvalidInput').message).toMatch(/eventually consistent/);
  });

  it('fetches until N matches across filtered pages, then continues from the cursor without gaps', async () => {
    const spec = {
      mode: 'scan',
      filter: {
        kind: 'group',
        join: 'AND',
        items: [{ kind: 'condition', path: ['status'], op: '=', value: { S: 'paid' } }],
      },
    };
    const onePage = await read({ spec, pageSize: 5, maxItems: 5 });
    expect(onePage.last).toMatchObject({ type: 'done', progress: { pages: 1, scanned: 5 } });
    const first = await read({ spec, pageSize: 5, maxItems: 8, untilMatches: true });
    expect(first.rows).toHaveLength(8);
    expect(first.events.filter((e) => e.type === 'page').length).toBeGreaterThan(1);
    const cursor = first.last.type === 'done' ? first.last.cursor : undefined;
    expect(cursor).toBeTruthy();
    const rest = await read({ spec, pageSize: 5, maxItems: 100, untilMatches: true, cursor });
    const all = [...first.rows, ...rest.rows]
      .map((r) => (r.sk as { N: string }).N)
      .sort((a, b) => Number(a) - Number(b));
    expect(all).toEqual(['5', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55', '60']);
    expect(rest.last.type === 'done' && rest.last.cursor).toBeFalsy();
  });

  it("carries a fresh read's first rows on its first page event, as a window reads them, and on no later page", async () => {
    const spec = { mode: 'scan' };
    const first = await read({ spec, pageSize: 7, maxItems: 20 });
    const pages = first.events.filter((e) => e.type === 'page');
    expect(pages.length).toBeGreaterThan(1);
    const [opening, ...later] = pages;
    const window = await h.ctx.resultSets.window(pagesId(opening), 0, 7);
    expect(opening && 'first' in opening ? opening.first : undefined).toEqual({
      rows: first.rows.slice(0, 7),
      columns: window.columns,
    });
    expect(later.every((e) => !('first' in e) || e.first === undefined)).toBe(true);
    // Continuing from the cursor into the same result set adds to rows the grid already has.
    const cursor = first.last.type === 'done' ? first.last.cursor : undefined;
    const more = await read({ spec, pageSize: 7, maxItems: 20, cursor, resultSetId: pagesId(opening) });
    expect(more.events.some((e) => e.type === 'page' && e.first !== undefined)).toBe(false);
  });

  it('projects the chosen attributes plus the keys', async () => {
    const { rows } = await read({
      spec: { mode: 'query', partitionKey: { S: 'odd' }, projection: [['a.b']] },
      maxItems: 2,
    });
    expect(rows[0]).toEqual({ pk: { S: 'odd' }, sk: { N: '1' }, 'a.b': { N: '10' } });
  });

  it('names the field of a builder mistake before sending anything', async () => {
    const wrongType = await h.call('query:start', {
      connectionId: 'local',
      table,
      requestId: 'query_wrong_type',
      spec: { mode: 'query', partitionKey: { N: '1' } },
    });
    const error = failure(wrongType, 'InvalidInput');
    expect(error.message).toMatch(/"pk" is of type S, not N/);
    expect(error.details).toEqual({ field: 'partitionKey' });
  });
});
