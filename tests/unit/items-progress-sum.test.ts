import { describe, expect, it } from 'vitest';
import { addProgress } from '../../src/renderer/features/items/progress-sum';

describe('the cost line after Load more', () => {
  it('adds the pages, items, capacity and evaluated items of every request of the read', () => {
    const first = { items: 200, pages: 2, consumedCapacity: 6, scanned: 250 };
    const more = { items: 152, pages: 2, consumedCapacity: 4.5, scanned: 152, fraction: 1 };
    expect(addProgress(first, more)).toEqual({
      items: 352,
      pages: 4,
      consumedCapacity: 10.5,
      scanned: 402,
      fraction: 1,
    });
  });

  it('counts a request that reported no evaluated items as evaluating what it returned', () => {
    expect(
      addProgress(
        { items: 100, pages: 1, consumedCapacity: 3 },
        { items: 50, pages: 1, consumedCapacity: 1.5, scanned: 80 },
      ),
    ).toEqual({
      items: 150,
      pages: 2,
      consumedCapacity: 4.5,
      scanned: 180,
    });
    expect(
      addProgress(
        { items: 1, pages: 1, consumedCapacity: 0.5 },
        { items: 1, pages: 1, consumedCapacity: 0.5 },
      ),
    ).toEqual({
      items: 2,
      pages: 2,
      consumedCapacity: 1,
    });
  });
});
