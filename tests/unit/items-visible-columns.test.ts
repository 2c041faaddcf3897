import { describe, expect, it } from 'vitest';
import {
  pinnedCount,
  scrollLeftShowing,
  visibleColumns,
} from '../../src/renderer/features/items/components/grid-layout';
import type { KeySchema } from '../../src/shared/ipc/tables';

const keys: KeySchema = { partitionKey: { name: 'PK', type: 'S' }, sortKey: { name: 'SK', type: 'S' } };
// Widths: PK 200, SK 200, then 170 each; the checkbox column is 36 px before them.
const columns = ['PK', 'SK', ...Array.from({ length: 14 }, (_, i) => `a${i}`)];

describe('the columns a grid row renders', () => {
  it('renders the pinned key columns, then the columns in view and 400 px either side, not the whole 2,816 px row', () => {
    const shown = visibleColumns(columns, keys, 0, 1000);
    // In view and the margin: up to x = 1400, i.e. PK, SK (pinned) and a0..a5 (a5 starts at 1286).
    expect(columns.slice(0, shown.pinned)).toEqual(['PK', 'SK']);
    expect(columns.slice(shown.from, shown.to)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5']);
    expect(shown.leftPad).toBe(0);
  });

  it('keeps the key columns and stands in for the unpinned columns left of the margin with their exact width', () => {
    const shown = visibleColumns(columns, keys, 1500, 600);
    // The margin runs from x = 1100 to 2500: a3 (946–1116) is the first column still needed,
    // a12 (2476–2646) the last. PK and SK are rendered whatever the scroll.
    expect(shown.pinned).toBe(2);
    expect(columns[shown.from]).toBe('a3');
    expect(shown.leftPad).toBe(3 * 170);
    expect(columns[shown.to - 1]).toBe('a12');
  });

  it('keeps the last columns when scrolled to the end', () => {
    const shown = visibleColumns(columns, keys, 2816 - 1000, 1000);
    expect(shown.to).toBe(columns.length);
  });
});

describe('the pinned key columns', () => {
  it('pins the key attributes only while they lead the column order', () => {
    expect(pinnedCount(columns, keys)).toBe(2);
    expect(pinnedCount(['PK', 'a0', 'SK'], keys)).toBe(1);
    // Keys moved behind another column: nothing leads, nothing is pinned.
    expect(pinnedCount(['a0', 'PK', 'SK'], keys)).toBe(0);
  });

  it('scrolls an unpinned column into view beside the key columns, never under them', () => {
    // a3 starts at x = 946; the key columns cover the first 436 px of the viewport.
    expect(scrollLeftShowing(columns, keys, 5, 1000, 1000)).toBe(946 - 436);
    // A pinned column is always in view: the scroll stays.
    expect(scrollLeftShowing(columns, keys, 0, 1000, 1000)).toBe(1000);
    // Moving right past the viewport's right edge still aligns the column's right edge.
    expect(scrollLeftShowing(columns, keys, 15, 0, 1000)).toBe(2816 - 1000);
  });
});
