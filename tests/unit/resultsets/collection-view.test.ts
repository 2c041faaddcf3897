import { describe, expect, it } from 'vitest';
import type { Item } from '../../../src/shared/dynamo/attribute-value';
import type { ResultSetWindow } from '../../../src/main/resultsets/types';
import { ResultSetCore } from '../../../src/main/resultsets/result-set-core';

// Item collections are computed in the result-set worker: these drive its core directly.
const keys = {
  partitionKey: { name: 'PK', type: 'S' as const },
  sortKey: { name: 'SK', type: 'S' as const },
};
const collections = { keys, collections: true };

const item = (pk: string, sk: string, extra: Item = {}): Item => ({ PK: { S: pk }, SK: { S: sk }, ...extra });

/** USER#u1: 1 USER, 10 ORDER, 1 PAYMENT; USER#u2: 1 USER, 2 ORDER; USER#u3: 1 USER. Fetched mixed up. */
function singleTable(): Item[] {
  const u1 = [
    item('USER#u1', 'USER#u1'),
    ...Array.from({ length: 10 }, (_, i) => item('USER#u1', `ORDER#${String(i).padStart(2, '0')}`)),
    item('USER#u1', 'PAYMENT#p1'),
  ];
  const u2 = [item('USER#u2', 'ORDER#01'), item('USER#u2', 'ORDER#02'), item('USER#u2', 'USER#u2')];
  return [...u2, item('USER#u3', 'USER#u3'), ...u1];
}

function setUp(rows = singleTable()): { core: ResultSetCore; id: string } {
  const core = new ResultSetCore();
  const id = core.create({ connectionId: 'c', table: 't', keyAttributes: ['PK', 'SK'] });
  core.append(id, rows);
  return { core, id };
}

/** A window as the grid shows it: `▸ PK (count)` for a header, `  PK SK` for an item row. */
function lines(window: ResultSetWindow): string[] {
  const out: string[] = [];
  const rows = [...window.rows];
  const size = window.rows.length + (window.headers?.length ?? 0);
  for (let at = 0; at < size; at++) {
    const header = window.headers?.find((h) => h.at === at);
    if (header) {
      const pk = header.partitionKey && 'S' in header.partitionKey ? header.partitionKey.S : '-';
      out.push(`${header.isCollapsed ? '▸' : '▾'} ${pk} (${header.count})`);
    } else {
      const row = rows.shift();
      out.push(`  ${JSON.stringify(row?.PK)} ${JSON.stringify(row?.SK)}`.replace(/\{"S":"([^"]*)"\}/g, '$1'));
    }
  }
  return out;
}

describe('item collections in the result-set worker', () => {
  it('puts a header with item and entity counts before each collection, ordered by partition and sort key', () => {
    const { core, id } = setUp();
    const view = core.view(id, collections);
    expect(view).toMatchObject({ total: 19, collections: 3, items: 16 });
    const window = core.window(id, 0, 100, view.viewId);
    expect(window.total).toBe(19);
    expect(window.headers).toEqual([
      {
        at: 0,
        partitionKey: { S: 'USER#u1' },
        count: 12,
        entities: { USER: 1, ORDER: 10, PAYMENT: 1 },
        isCollapsed: false,
        first: 0,
      },
      expect.objectContaining({ at: 13, count: 3, entities: { ORDER: 2, USER: 1 }, first: 12 }),
      expect.objectContaining({ at: 17, count: 1, first: 15 }),
    ]);
    expect(lines(window).slice(0, 3)).toEqual(['▾ USER#u1 (12)', '  USER#u1 ORDER#00', '  USER#u1 ORDER#01']);
    expect(lines(window).slice(11, 19)).toEqual([
      '  USER#u1 PAYMENT#p1',
      '  USER#u1 USER#u1',
      '▾ USER#u2 (3)',
      '  USER#u2 ORDER#01',
      '  USER#u2 ORDER#02',
      '  USER#u2 USER#u2',
      '▾ USER#u3 (1)',
      '  USER#u3 USER#u3',
    ]);
    expect(window.positions).toEqual(Array.from({ length: 16 }, (_, i) => i));
  });

  it('reads windows that start inside a collection and across collapsed ones', () => {
    const { core, id } = setUp();
    const { viewId } = core.view(id, collections);
    expect(lines(core.window(id, 11, 4, viewId))).toEqual([
      '  USER#u1 PAYMENT#p1',
      '  USER#u1 USER#u1',
      '▾ USER#u2 (3)',
      '  USER#u2 ORDER#01',
    ]);

    const collapsed = core.collections(id, viewId, { partitionKey: { S: 'USER#u2' }, isCollapsed: true });
    expect(collapsed).toMatchObject({ total: 16, collections: 3, items: 16, at: 13 });
    const window = core.window(id, 12, 10, viewId);
    expect(lines(window)).toEqual([
      '  USER#u1 USER#u1',
      '▸ USER#u2 (3)',
      '▾ USER#u3 (1)',
      '  USER#u3 USER#u3',
    ]);
    // An item keeps its position whatever is collapsed before it.
    expect(window.positions).toEqual([11, 15]);
    expect(window.headers?.[1]).toMatchObject({ at: 2, first: 15 });

    core.collections(id, viewId, { partitionKey: { S: 'USER#u1' }, isCollapsed: true });
    expect(lines(core.window(id, 0, 10, viewId))).toEqual([
      '▸ USER#u1 (12)',
      '▸ USER#u2 (3)',
      '▾ USER#u3 (1)',
      '  USER#u3 USER#u3',
    ]);
    // itemsOnly reads by item position, collapsed or not: what the bulk actions read.
    const hidden = core.window(id, 12, 3, viewId, true);
    expect(hidden.headers).toEqual([]);
    expect(hidden.rows.map((r) => r.SK)).toEqual([{ S: 'ORDER#01' }, { S: 'ORDER#02' }, { S: 'USER#u2' }]);
    expect(hidden.total).toBe(16);
  });

  it('collapses and expands all, and keeps the state across new views of the same result set', () => {
    const { core, id } = setUp();
    const first = core.view(id, collections);
    expect(core.collections(id, first.viewId, { all: true, isCollapsed: true })).toMatchObject({
      total: 3,
      collections: 3,
      items: 16,
      at: 0,
    });
    core.collections(id, first.viewId, { partitionKey: { S: 'USER#u3' }, isCollapsed: false });

    // Item collections off (a plain view), then on again with a sort: still collapsed.
    core.view(id, {});
    const again = core.view(id, { ...collections, sort: [{ column: 'PK', descending: true }] });
    expect(again.total).toBe(4);
    expect(lines(core.window(id, 0, 10, again.viewId))).toEqual([
      '▾ USER#u3 (1)',
      '  USER#u3 USER#u3',
      '▸ USER#u2 (3)',
      '▸ USER#u1 (12)',
    ]);
    expect(() => core.window(id, 0, 1, first.viewId)).toThrow(/view is gone/);

    expect(core.collections(id, again.viewId, { all: true, isCollapsed: false }).total).toBe(19);
    // Collections descend; items still ascend by sort key.
    expect(lines(core.window(id, 2, 2, again.viewId))).toEqual(['▾ USER#u2 (3)', '  USER#u2 ORDER#01']);
  });

  it('takes in rows streamed in after the view and keeps what was collapsed', () => {
    const { core, id } = setUp([item('USER#u2', 'ORDER#01'), item('USER#u2', 'ORDER#02')]);
    const { viewId } = core.view(id, collections);
    core.collections(id, viewId, { partitionKey: { S: 'USER#u2' }, isCollapsed: true });
    const collapsed = core.collections(id, viewId);
    expect(collapsed).toMatchObject({ total: 1, collections: 1, items: 2, entities: { ORDER: 2 } });

    // A page through the object path and one straight from response bytes, as a scan streams.
    core.append(id, [item('USER#u1', 'ORDER#05'), item('USER#u2', 'ORDER#03')]);
    const body = JSON.stringify({
      Items: [item('USER#u1', 'ORDER#07'), item('USER#u3', 'USER#u3')],
      Count: 2,
    });
    expect(core.appendWire(id, Buffer.from(body)).total).toBe(6);

    // Entity counts cover every fetched row, for the entity chips while the read streams; the
    // change counter tells these sizes from those read before the pages.
    const grown = core.collections(id, viewId);
    expect(grown).toMatchObject({ total: 6, collections: 3, items: 6, entities: { ORDER: 5, USER: 1 } });
    expect(grown.seq).toBeGreaterThan(collapsed.seq ?? Infinity);
    expect(lines(core.window(id, 0, 10, viewId))).toEqual([
      '▾ USER#u1 (2)',
      '  USER#u1 ORDER#05',
      '  USER#u1 ORDER#07',
      '▸ USER#u2 (3)',
      '▾ USER#u3 (1)',
      '  USER#u3 USER#u3',
    ]);

    // After "collapse all", collections that arrive later start collapsed too.
    core.collections(id, viewId, { all: true, isCollapsed: true });
    core.append(id, [item('USER#u0', 'USER#u0')]);
    expect(lines(core.window(id, 0, 10, viewId))).toEqual([
      '▸ USER#u0 (1)',
      '▸ USER#u1 (2)',
      '▸ USER#u2 (3)',
      '▸ USER#u3 (1)',
    ]);
  });

  it('orders items by sort key however they arrive: descending pages, then a mixed-up one', () => {
    const descending = ['ORDER#09', 'ORDER#07', 'ORDER#05'].map((sk) => item('USER#u1', sk));
    const { core, id } = setUp(descending);
    const { viewId } = core.view(id, collections);
    const skOf = (): string[] =>
      core.window(id, 1, 10, viewId).rows.map((r) => (r.SK && 'S' in r.SK ? r.SK.S : ''));
    expect(skOf()).toEqual(['ORDER#05', 'ORDER#07', 'ORDER#09']);
    core.append(id, [item('USER#u1', 'ORDER#01'), item('USER#u1', 'ORDER#08'), item('USER#u1', 'ORDER#02')]);
    expect(skOf()).toEqual(['ORDER#01', 'ORDER#02', 'ORDER#05', 'ORDER#07', 'ORDER#08', 'ORDER#09']);
    core.append(id, [item('USER#u1', 'ORDER#10'), item('USER#u1', 'ORDER#00')]);
    expect(skOf()).toEqual([
      'ORDER#00',
      'ORDER#01',
      'ORDER#02',
      'ORDER#05',
      'ORDER#07',
      'ORDER#08',
      'ORDER#09',
      'ORDER#10',
    ]);
    const reversed = core.view(id, { ...collections, sort: [{ column: 'SK', descending: true }] });
    expect(core.window(id, 1, 2, reversed.viewId).rows.map((r) => r.SK)).toEqual([
      { S: 'ORDER#10' },
      { S: 'ORDER#09' },
    ]);
  });

  it("counts only the rows that pass the view's filters, and refuses collapse on a plain view", () => {
    const rows = singleTable().map((r, i) => ({ ...r, status: { S: i % 2 === 0 ? 'shipped' : 'open' } }));
    const { core, id } = setUp(rows);
    const orders = core.view(id, { ...collections, entities: ['ORDER'] });
    expect(orders).toMatchObject({ total: 14, collections: 2 });
    expect(core.window(id, 0, 1, orders.viewId).headers?.[0]).toMatchObject({
      count: 10,
      entities: { ORDER: 10 },
    });
    // Entity counts of the whole result set, for the entity chips.
    expect(orders.entities).toEqual({ USER: 3, ORDER: 12, PAYMENT: 1 });
    const shipped = core.view(id, { ...collections, text: 'SHIPPED' });
    // 2 shipped in USER#u2, none in USER#u3, 6 in USER#u1: 8 items under 2 headers.
    expect(shipped).toMatchObject({ total: 10, collections: 2 });

    const plain = core.view(id, { sort: [{ column: 'SK', descending: false }] });
    expect(() => core.collections(id, plain.viewId, { all: true, isCollapsed: true })).toThrow(
      /does not show item collections/,
    );
  });
});
