import { describe, expect, it } from 'vitest';
import { runsOf, withCollection } from '../../src/renderer/features/items/selection';

const header = { at: 0, count: 3, first: 10, isCollapsed: true, partitionKey: { S: 'USER#u1' } };

describe('selection by item position', () => {
  it("a collection header's checkbox selects and clears every item of the collection, collapsed or not", () => {
    const selected = withCollection(new Set([2]), header, true);
    expect([...selected].sort((a, b) => a - b)).toEqual([2, 10, 11, 12]);
    expect([...withCollection(selected, header, false)]).toEqual([2]);
  });

  it('reads the selection in runs of consecutive positions, at most a window each', () => {
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
