import { describe, expect, it } from 'vitest';
import type { Item } from '../../../src/shared/dynamo/attribute-value';
import { AppFailure } from '../../../src/shared/errors';
import { ResultSetCore } from '../../../src/main/resultsets/result-set-core';

const meta = { connectionId: 'c1', table: 'Orders', keyAttributes: ['PK', 'SK'] };

function order(i: number, extra: Item = {}): Item {
  return {
    PK: { S: `USER#u${i % 7}` },
    SK: { S: `ORDER#${String(i).padStart(5, '0')}` },
    n: { N: String(i) },
    ...extra,
  };
}

describe('ResultSetCore', () => {
  it('gives back every DynamoDB type exactly as it was stored', () => {
    const core = new ResultSetCore();
    const id = core.create(meta);
    const item: Item = {
      PK: { S: 'USER#ü—😀' },
      SK: { S: '' },
      big: { N: '12345678901234567890123456789012345678' },
      tiny: { N: '-0.000000000000000000000000000000000001' },
      exp: { N: '1E+125' },
      bytes: { B: Buffer.from([0, 1, 2, 250, 255]).toString('base64') },
      yes: { BOOL: true },
      no: { BOOL: false },
      nothing: { NULL: true },
      list: { L: [{ S: 'a' }, { N: '1.50' }, { L: [] }, { M: {} }] },
      'address.city': { S: 'Osaka' },
      address: { M: { city: { S: 'Kyoto' }, geo: { M: { lat: { N: '35.0116' } } } } },
      names: { SS: ['a', 'b'] },
      scores: { NS: ['1', '2.5', '99999999999999999999999999999999999999'] },
      blobs: { BS: [Buffer.from('x').toString('base64'), ''] },
    };
    core.append(id, [item]);
    const window = core.window(id, 0, 10);
    expect(window.rows).toEqual([item]);
    expect(JSON.stringify(window.rows[0])).toBe(JSON.stringify(item)); // attribute order kept too
  });

  it('keeps an attribute literally named __proto__ as data', () => {
    const core = new ResultSetCore();
    const id = core.create(meta);
    const item = JSON.parse('{"PK":{"S":"p"},"__proto__":{"S":"polluted?"}}') as Item;
    core.append(id, [item]);
    const [row] = core.window(id, 0, 1).rows;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toEqual({ S: 'polluted?' });
  });

  it('returns the rows of a window, across many blocks, and the total', () => {
    const core = new ResultSetCore();
    const id = core.create(meta);
    const padding = { S: 'x'.repeat(300) }; // 3000 items * ~330 bytes spans many 64 KB blocks
    let total = 0;
    for (let page = 0; page < 30; page++) {
      total = core.append(
        id,
        Array.from({ length: 100 }, (_, j) => order(page * 100 + j, { padding })),
      );
    }
    expect(total).toBe(3000);
    for (const offset of [0, 99, 1234, 2950]) {
      const window = core.window(id, offset, 50);
      expect(window.total).toBe(3000);
      expect(window.offset).toBe(offset);
      expect(window.rows.map((r) => r.n)).toEqual(
        Array.from({ length: 50 }, (_, k) => ({ N: String(offset + k) })),
      );
    }
    // A window past the end is short or empty, never an error.
    expect(core.window(id, 2990, 100).rows).toHaveLength(10);
    expect(core.window(id, 5000, 100)).toMatchObject({ total: 3000, offset: 3000, rows: [] });
  });

  it('orders columns: key attributes first, then by how many items carry them', () => {
    const core = new ResultSetCore();
    const id = core.create(meta);
    core.append(id, [
      { SK: { S: 's1' }, rare: { S: 'r' }, PK: { S: 'p1' }, common: { N: '1' } },
      { PK: { S: 'p2' }, SK: { S: 's2' }, common: { N: '2' }, tieA: { S: 'a' } },
      {
        PK: { S: 'p3' },
        SK: { S: 's3' },
        common: { N: '3' },
        tieB: { S: 'b' },
        rare2: { M: { nested: { S: 'n' } } },
      },
      { PK: { S: 'p4' }, SK: { S: 's4' }, tieA: { S: 'a' }, tieB: { S: 'b' } },
    ]);
    // common 3, tieA 2 and tieB 2 (tieA seen first), then rare and rare2 once each; nested names are no columns.
    expect(core.window(id, 0, 1).columns).toEqual(['PK', 'SK', 'common', 'tieA', 'tieB', 'rare', 'rare2']);
  });

  it('lists the key attributes as columns even before any item arrives', () => {
    const core = new ResultSetCore();
    const id = core.create(meta);
    expect(core.window(id, 0, 10)).toEqual({
      total: 0,
      offset: 0,
      rows: [],
      columns: ['PK', 'SK'],
      viewKeys: ['PK', 'SK'],
    });
  });

  it("gives JSON views and exports the key order they were made with: an index read's grid leads with the index key, its JSON with the table's", () => {
    const core = new ResultSetCore();
    const id = core.create({
      ...meta,
      keyAttributes: ['g1', 'g2', 'PK', 'SK'],
      viewKeys: ['PK', 'SK', 'g1', 'g2'],
    });
    core.append(id, [{ g2: { S: 'b' }, SK: { S: 's' }, x: { S: 'x' }, g1: { S: 'a' }, PK: { S: 'p' } }]);
    const window = core.window(id, 0, 1);
    expect(window.columns).toEqual(['g1', 'g2', 'PK', 'SK', 'x']);
    expect(window.viewKeys).toEqual(['PK', 'SK', 'g1', 'g2']);
  });

  it('gives each result set its own random id and forgets a dropped one', () => {
    const core = new ResultSetCore();
    const a = core.create(meta);
    const b = core.create(meta);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
    core.append(a, [order(1)]);
    expect(core.drop(a)).toBe(true);
    expect(core.drop(a)).toBe(false);
    expect(() => core.window(a, 0, 1)).toThrow(AppFailure);
    expect(() => core.append(a, [order(2)])).toThrow(/no longer exists/);
    expect(core.window(b, 0, 1).total).toBe(0);
  });
});
