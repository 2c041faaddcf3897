import { describe, expect, it } from 'vitest';
import type { ReadSpec } from '../../src/shared/ipc/query';
import { noRowsSentence } from '../../src/renderer/features/items/no-rows';

// What the items grid says above its header when a finished read shows no rows: an empty table,
// a filter nothing matched, a Query of a key with no items, the grid's own filter hiding them all.

const read = (spec: Partial<ReadSpec>) => ({
  spec: { mode: 'scan' as const, ...spec },
  pageSize: 100,
  maxItems: 100,
  untilMatches: false,
});

describe('the sentence of a grid with no rows', () => {
  it('says nothing while a read runs, before any read, or when rows show', () => {
    expect(noRowsSentence({ status: 'running', fetched: 0, lastRead: read({}) }, 'Orders')).toBeUndefined();
    expect(noRowsSentence({ status: 'idle', fetched: 0 }, 'Orders')).toBeUndefined();
    expect(noRowsSentence({ status: 'done', fetched: 3, lastRead: read({}) }, 'Orders')).toBeUndefined();
    // A failed or stopped read says so itself: it has not shown the table empty.
    expect(noRowsSentence({ status: 'error', fetched: 0, lastRead: read({}) }, 'Orders')).toBeUndefined();
    expect(noRowsSentence({ status: 'cancelled', fetched: 0, lastRead: read({}) }, 'Orders')).toBeUndefined();
  });

  it('tells an empty table how to fill it', () => {
    expect(noRowsSentence({ status: 'done', fetched: 0, lastRead: read({}) }, 'Orders')).toBe(
      'Orders holds no items yet. New item adds one; Import… loads them from a CSV or JSON file.',
    );
  });

  it('blames the filter, and points at Load more while pages remain', () => {
    const filter = {
      kind: 'group' as const,
      join: 'AND' as const,
      items: [{ kind: 'condition' as const, path: 'status', op: '=' as const, value: { S: 'LOST' } }],
    } as unknown as ReadSpec['filter'];
    expect(
      noRowsSentence({ status: 'done', fetched: 0, cursor: 'c1', lastRead: read({ filter }) }, 'Orders'),
    ).toBe(
      'No item read so far matches the filter. Load more reads the next pages, which may still hold matches.',
    );
    expect(
      noRowsSentence(
        { status: 'done', fetched: 0, lastRead: read({ raw: { filter: '#s = :s' } }) },
        'Orders',
      ),
    ).toBe('No item read so far matches the filter.');
  });

  it('names the key a Query found nothing under, on the table or its index', () => {
    expect(
      noRowsSentence(
        { status: 'done', fetched: 0, lastRead: read({ mode: 'query', partitionKey: { S: 'USER#u999' } }) },
        'Orders',
      ),
    ).toBe('Orders has no item with this partition key.');
    expect(
      noRowsSentence(
        {
          status: 'done',
          fetched: 0,
          lastRead: read({
            mode: 'query',
            index: 'GSI1',
            partitionKey: { S: 'x' },
            sortKey: { op: '=', value: { S: 'y' } },
          }),
        },
        'Orders',
      ),
    ).toBe('The index GSI1 has no item with this partition key and sort key condition.');
  });

  it('says the grid’s own filter hides every item read', () => {
    expect(noRowsSentence({ status: 'done', fetched: 1, viewTotal: 0, lastRead: read({}) }, 'Orders')).toBe(
      'None of the 1 item read matches the filter box or the chosen types: clear them to see every item read.',
    );
  });
});
