import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResultSetWindow, WrittenItem } from '../../../src/main/resultsets/types';
import type { ReadScope } from '../../../src/main/resultsets/read-match';
import { ResultSetCore } from '../../../src/main/resultsets/result-set-core';
import type { AttributeValue, Item } from '../../../src/shared/dynamo/attribute-value';
import type { ReadSpec, ViewSpec } from '../../../src/shared/ipc/query';

// Writes DynoTable makes are applied in the result-set worker to every set that could hold the
// item. The oracle: a set read afresh from what the table now holds shows the same windows.
const keys = {
  partitionKey: { name: 'PK', type: 'S' as const },
  sortKey: { name: 'SK', type: 'S' as const },
};
const scan: ReadSpec = { mode: 'scan' };
const tableScope = (spec: ReadSpec = scan): ReadScope => ({ tableKeys: ['PK', 'SK'], spec });

const item = (pk: string, sk: string, extra: Item = {}): Item => ({ PK: { S: pk }, SK: { S: sk }, ...extra });
const str = (v: AttributeValue | undefined) => (v && 'S' in v ? v.S : undefined);
const num = (v: AttributeValue | undefined) => (v && 'N' in v ? v.N : undefined);
const key = (it: Item): Item => ({ PK: it.PK!, SK: it.SK! });
const put = (it: Item): WrittenItem => ({ key: key(it), item: it });
const gone = (it: Item): WrittenItem => ({ key: key(it), item: null });

function rows(): Item[] {
  return [
    item('USER#u2', 'ORDER#01', { total: { N: '20' } }),
    item('USER#u1', 'USER#u1', { name: { S: 'Ann' } }),
    item('USER#u1', 'ORDER#02', { total: { N: '75' } }),
    item('USER#u3', 'USER#u3', { name: { S: 'Cy' } }),
    item('USER#u1', 'ORDER#01', { total: { N: '5' } }),
  ];
}

function setUp(scope: ReadScope | null = tableScope(), fetched = rows()) {
  const core = new ResultSetCore();
  const id = core.create({
    connectionId: 'c',
    table: 't',
    keyAttributes: ['PK', 'SK'],
    ...(scope ? { scope } : {}),
  });
  core.append(id, fetched);
  return { core, id };
}

/** A window without marks; columns as a set (ties in frequency keep first-seen order, which differs). */
const plain = (window: ResultSetWindow) => {
  const { marks: _marks, columns, ...rest } = window;
  return { ...rest, columns: [...columns].sort() };
};

/** The windows of a view over `fetched` read afresh, for comparing with one kept up to date. */
function fresh(fetched: Item[], spec?: ViewSpec): { window: ResultSetWindow; entities?: unknown } {
  const { core, id } = setUp(tableScope(), fetched);
  if (!spec) return { window: core.window(id, 0, 1000) };
  const view = core.view(id, spec);
  return { window: core.window(id, 0, 1000, view.viewId), entities: view.entities };
}

describe('applying a write to the result sets that hold the item', () => {
  it('updates a row in place, from what DynamoDB returned, marked as changed', () => {
    const { core, id } = setUp();
    const saved = item('USER#u1', 'ORDER#02', { total: { N: '76' } });
    const changes = core.applyWrites({ connectionId: 'c', table: 't', writes: [put(saved)] });
    // The rewritten row rides along, as the next window shows it, so a grid paints it at once.
    expect(changes).toEqual([
      { resultSetId: id, total: 5, isStale: false, views: [], replaced: [{ item: saved, mark: 'changed' }] },
    ]);
    const window = core.window(id, 0, 10);
    expect(window.rows[2]).toEqual(saved);
    expect(window.marks).toEqual([{ at: 2, mark: 'changed' }]);
    expect(plain(window)).toEqual(plain(fresh(rows().map((r, i) => (i === 2 ? saved : r))).window));
  });

  it('adds a created item (marked new), takes a deleted one out, and leaves other tables alone', () => {
    const { core, id } = setUp();
    const other = core.create({
      connectionId: 'c',
      table: 'other',
      keyAttributes: ['PK', 'SK'],
      scope: tableScope(),
    });
    core.append(other, rows());
    const created = item('USER#u999', 'PROFILE', { name: { S: 'New' } });
    const changes = core.applyWrites({
      connectionId: 'c',
      table: 't',
      writes: [put(created), gone(rows()[1]!)],
    });
    expect(changes.map((c) => [c.resultSetId, c.total])).toEqual([[id, 5]]);
    const window = core.window(id, 0, 10);
    expect(window.rows.map((r) => str(r.SK))).toEqual([
      'ORDER#01',
      'ORDER#02',
      'USER#u3',
      'ORDER#01',
      'PROFILE',
    ]);
    expect(window.marks).toEqual([{ at: 4, mark: 'new' }]);
    expect(core.window(other, 0, 10).total).toBe(5);
    // A row deleted and then written again comes back as a new row.
    core.applyWrites({ connectionId: 'c', table: 't', writes: [put(rows()[1]!)] });
    expect(core.window(id, 0, 10).total).toBe(6);
  });

  it('keeps sorted, filtered and collection views equal to views built afresh, with their entity counts', () => {
    const specs: ViewSpec[] = [
      { sort: [{ column: 'total', descending: true }], keys },
      { sort: [{ column: 'SK', descending: false }], text: 'order', keys },
      { entities: ['ORDER'], keys },
      { collections: true, keys },
      { collections: true, sort: [{ column: 'PK', descending: true }], text: 'u1', keys },
    ];
    const writes = fc.array(
      fc.record({
        pk: fc.constantFrom('USER#u1', 'USER#u2', 'USER#u3', 'USER#u4'),
        sk: fc.constantFrom('ORDER#01', 'ORDER#02', 'ORDER#03', 'USER#u1', 'USER#u3'),
        total: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
        isDelete: fc.boolean(),
      }),
      { minLength: 1, maxLength: 8 },
    );
    fc.assert(
      fc.property(fc.constantFrom(...specs), writes, (spec, steps) => {
        const { core, id } = setUp();
        const { viewId } = core.view(id, spec);
        // What the table holds now, in the order a fresh read of it would keep (kept rows in
        // place, new ones after): the oracle's rows.
        let expected = rows();
        for (const step of steps) {
          const written = item(
            step.pk,
            step.sk,
            step.total === undefined ? {} : { total: { N: String(step.total) } },
          );
          const at = expected.findIndex((r) => str(r.PK) === step.pk && str(r.SK) === step.sk);
          if (step.isDelete) {
            core.applyWrites({ connectionId: 'c', table: 't', writes: [gone(written)] });
            if (at >= 0) expected = expected.filter((_, i) => i !== at);
          } else {
            const [change] = core.applyWrites({ connectionId: 'c', table: 't', writes: [put(written)] });
            expect(change?.views.map((v) => v.viewId)).toEqual([viewId]);
            if (at >= 0) expected = expected.map((r, i) => (i === at ? written : r));
            else expected = [...expected, written];
          }
        }
        const oracle = fresh(expected, spec);
        expect(plain(core.window(id, 0, 1000, viewId))).toEqual(plain(oracle.window));
        const [latest] = core.applyWrites({ connectionId: 'c', table: 't', writes: [put(expected[0]!)] });
        expect(latest?.views[0]?.entities).toEqual(oracle.entities);
        expect(core.window(id, 0, 1000).rows).toEqual(fresh(expected).window.rows);
      }),
      { numRuns: 150 },
    );
  });

  it('adds to a query only what its key condition and filter return; a raw expression marks it stale', () => {
    const query: ReadSpec = {
      mode: 'query',
      partitionKey: { S: 'USER#u1' },
      sortKey: { op: 'begins_with', value: { S: 'ORDER#' } },
      filter: {
        kind: 'group',
        join: 'AND',
        items: [{ kind: 'condition', path: ['total'], op: '>=', value: { N: '10' } }],
      },
    };
    const fetched = rows().filter((r) => str(r.PK) === 'USER#u1' && str(r.SK)?.startsWith('ORDER#'));
    const { core, id } = setUp(tableScope(query), fetched.slice(0, 1));
    const raw = setUp(
      tableScope({ mode: 'query', raw: { keyCondition: 'PK = :p', values: { ':p': { S: 'USER#u1' } } } }),
      fetched,
    );
    core.applyWrites({
      connectionId: 'c',
      table: 't',
      writes: [
        put(item('USER#u1', 'ORDER#09', { total: { N: '50' } })),
        put(item('USER#u1', 'ORDER#08', { total: { N: '1' } })),
        put(item('USER#u2', 'ORDER#09', { total: { N: '50' } })),
        put(item('USER#u1', 'PAYMENT#1', { total: { N: '50' } })),
      ],
    });
    expect(core.window(id, 0, 10).rows.map((r) => str(r.SK))).toEqual(['ORDER#02', 'ORDER#09']);
    // The saved total no longer passes the filter: a re-read would not return the row.
    const [change] = core.applyWrites({
      connectionId: 'c',
      table: 't',
      writes: [put(item('USER#u1', 'ORDER#02', { total: { N: '3' } }))],
    });
    expect(change).toEqual({ resultSetId: id, total: 1, isStale: false, views: [] });
    const [rawChange] = raw.core.applyWrites({
      connectionId: 'c',
      table: 't',
      writes: [put(item('USER#u1', 'ORDER#02', { total: { N: '3' } })), put(item('USER#u1', 'ORDER#77'))],
    });
    expect(rawChange).toEqual({
      resultSetId: raw.id,
      total: 2,
      isStale: true,
      views: [],
      replaced: [{ item: item('USER#u1', 'ORDER#02', { total: { N: '3' } }), mark: 'changed' }],
    });
    expect(raw.core.window(raw.id, 0, 10).rows.map((r) => num(r.total))).toEqual(['3', '5']);
  });

  it("follows a GSI read: a row leaves when its item leaves the index, and shows only the index's projection", () => {
    const gsiKeys = { partitionKey: { name: 'GSI1PK', type: 'S' as const } };
    const scope: ReadScope = {
      tableKeys: ['PK', 'SK'],
      spec: { mode: 'query', index: 'GSI1', partitionKey: { S: 'STATUS#SHIPPED' } },
      indexKeys: gsiKeys,
      indexProjection: { isKeysOnly: false, attributes: ['total'] },
    };
    const shipped = (sk: string, extra: Item = {}) =>
      item('USER#u1', sk, { GSI1PK: { S: 'STATUS#SHIPPED' }, total: { N: '1' }, ...extra });
    const { core, id } = setUp(scope, [{ ...shipped('ORDER#01') }, { ...shipped('ORDER#02') }]);
    const [change] = core.applyWrites({
      connectionId: 'c',
      table: 't',
      writes: [
        put(shipped('ORDER#01', { total: { N: '76' }, note: { S: 'not projected' } })),
        put(item('USER#u1', 'ORDER#02', { total: { N: '2' } })),
        put(shipped('ORDER#03')),
      ],
    });
    const window = core.window(id, 0, 10);
    expect(window.rows).toEqual([
      { PK: { S: 'USER#u1' }, SK: { S: 'ORDER#01' }, GSI1PK: { S: 'STATUS#SHIPPED' }, total: { N: '76' } },
      { PK: { S: 'USER#u1' }, SK: { S: 'ORDER#03' }, GSI1PK: { S: 'STATUS#SHIPPED' }, total: { N: '1' } },
    ]);
    expect(window.marks).toEqual([
      { at: 0, mark: 'changed' },
      { at: 1, mark: 'new' },
    ]);
    // Only the row rewritten in place rides along, in the index's projection as the window has it.
    expect(change?.replaced).toEqual([{ item: window.rows[0], mark: 'changed' }]);
  });

  it('refreshes a row with the stored item a failed condition returned, unmarked, and never adds one', () => {
    const { core, id } = setUp();
    const theirs = item('USER#u1', 'ORDER#02', { total: { N: '99' } });
    const [change] = core.applyWrites({
      connectionId: 'c',
      table: 't',
      writes: [
        { key: key(theirs), item: theirs, isRefresh: true },
        { key: key(item('USER#u9', 'X')), item: item('USER#u9', 'X'), isRefresh: true },
      ],
    });
    const window = core.window(id, 0, 10);
    expect(window.rows[2]).toEqual(theirs);
    expect(window.total).toBe(5);
    expect(window.marks).toBeUndefined();
    expect(change?.replaced).toEqual([{ item: theirs }]);
  });

  it('treats attribute names such as __proto__ and constructor as data', () => {
    const { core, id } = setUp();
    const odd = item('USER#u1', 'ORDER#01', {
      ['__proto__']: { S: 'p' },
      constructor: { N: '1' },
      toString: { BOOL: true },
    });
    const written = JSON.parse(JSON.stringify(odd)) as Item;
    core.applyWrites({ connectionId: 'c', table: 't', writes: [{ key: key(written), item: written }] });
    const window = core.window(id, 0, 10);
    expect(Object.keys(window.rows[4] ?? {}).sort()).toEqual([
      'PK',
      'SK',
      '__proto__',
      'constructor',
      'toString',
    ]);
    expect(window.columns).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'toString']));
  });

  it('ignores result sets that carry no read scope (the agent’s own reads) and other connections', () => {
    const { core } = setUp(null);
    const scoped = setUp();
    expect(core.applyWrites({ connectionId: 'c', table: 't', writes: [gone(rows()[0]!)] })).toEqual([]);
    expect(
      scoped.core.applyWrites({ connectionId: 'other', table: 't', writes: [gone(rows()[0]!)] }),
    ).toEqual([]);
  });
});
