import { beforeEach, describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import {
  isCollectionSelected,
  isRowSelected,
  keyText,
  runsOf,
} from '../../src/renderer/features/items/selection';
import { useSelectionStore } from '../../src/renderer/features/items/selection-store';
import { itemsKey } from '../../src/renderer/features/items/store';

const keys = {
  partitionKey: { name: 'PK', type: 'S' as const },
  sortKey: { name: 'SK', type: 'S' as const },
};
const row = (pk: string, sk: string, extra: Item = {}): Item => ({ PK: { S: pk }, SK: { S: sk }, ...extra });
const tab = itemsKey('c1', 'T');
const picked = () => useSelectionStore.getState().tables[tab]!;

describe('selection by item key', () => {
  beforeEach(() => useSelectionStore.setState({ tables: {} }));

  it('a row is selected by its key, wherever it is shown, with whatever values it has now', () => {
    useSelectionStore.getState().set(tab, [row('u1', 'ORDER#o1', { total: { N: '1' } })], keys, true);
    expect(isRowSelected(picked().picked, row('u1', 'ORDER#o1', { total: { N: '2' } }), keys)).toBe(true);
    expect(isRowSelected(picked().picked, row('u1', 'PROFILE'), keys)).toBe(false);
  });

  it('a written delete takes the item out of the selection; a written update keeps it as stored now', () => {
    const { set, written } = useSelectionStore.getState();
    set(tab, [row('u1', 'A'), row('u1', 'B')], keys, true);
    written('c1', 'T', [
      { key: row('u1', 'A'), item: null },
      { key: row('u1', 'B'), item: row('u1', 'B', { n: { N: '9' } }) },
    ]);
    expect([...picked().picked.values()].map((p) => p.item)).toEqual([row('u1', 'B', { n: { N: '9' } })]);
    expect(picked().left).toBe(0);
  });

  it('items a read of the view no longer holds leave the selection and are counted', () => {
    const { set, retain } = useSelectionStore.getState();
    set(tab, [row('u1', 'A'), row('u1', 'B'), row('u2', 'A')], keys, true);
    retain(tab, [row('u1', 'B'), row('u3', 'Z')], keys);
    expect([...picked().picked.keys()]).toEqual([keyText(row('u1', 'B'))]);
    expect(picked().left).toBe(2);
  });

  it('a collection is selected when all its items are, keyed by data names like __proto__', () => {
    const weird = { partitionKey: { name: '__proto__', type: 'S' as const } };
    const item = JSON.parse('{"__proto__":{"S":"p"},"x":{"S":"1"}}') as Item;
    useSelectionStore.getState().set(tab, [item], weird, true);
    const header = { at: 0, count: 1, first: 0, isCollapsed: false, partitionKey: { S: 'p' } };
    expect(isCollectionSelected(picked().picked, header)).toBe(true);
    expect(isCollectionSelected(picked().picked, { ...header, count: 2 })).toBe(false);
    expect([...picked().picked.keys()]).toEqual(['[["__proto__",{"S":"p"}]]']);
  });

  it('reads positions in runs of consecutive positions, at most a window each', () => {
    expect(runsOf([1, 2, 3, 7, 9, 10])).toEqual([
      [1, 3],
      [7, 1],
      [9, 2],
    ]);
    const long = Array.from({ length: 2500 }, (_, i) => i);
    expect(runsOf(long)).toEqual([
      [0, 1000],
      [1000, 1000],
      [2000, 500],
    ]);
  });
});
