import { describe, expect, it } from 'vitest';
import { valueText } from '../../src/renderer/ui/cell-text';
import {
  columnLayout,
  isColumnShown,
  rowWidthOf,
  scrollLeftToShow,
  shownColumns,
} from '../../src/renderer/ui/grid-columns';

// The SQL grid's shape: a 56 px row-number column leads, nothing pinned, 300 columns of 110 px.
const wide = columnLayout(
  56,
  Array.from({ length: 300 }, () => 110),
);

describe('the one horizontal window of the result grids', () => {
  it('renders the columns of a 300-column row that meet the viewport and 400 px either side', () => {
    expect(rowWidthOf(wide)).toBe(56 + 300 * 110);
    const atStart = shownColumns(wide, 0, 1000);
    // Up to x = 1400: columns start at 56 + 110 k, so k = 0…12 (k = 12 starts at 1376).
    expect(atStart).toEqual({ pinned: 0, from: 0, to: 13, leftPad: 0 });
    const far = shownColumns(wide, 20_000, 1000);
    // From x = 19,600: column 177 ends at 56 + 178 * 110 = 19,636; the gap stands for 177 columns.
    expect(far.from).toBe(177);
    expect(far.leftPad).toBe(177 * 110);
    expect(far.to - far.from).toBeLessThan(20);
    // Grid column k + 1 is data column k; the lead column (0) is always there.
    expect(isColumnShown(far, 0)).toBe(true);
    expect(isColumnShown(far, 177)).toBe(false);
    expect(isColumnShown(far, 178)).toBe(true);
    expect(shownColumns(wide, rowWidthOf(wide) - 1000, 1000).to).toBe(300);
  });

  it('scrolls a column whole into view beside the sticky lead column, and not when it is in view', () => {
    // Column 20 starts at 56 + 2,200 = 2,256; beside the 56 px row numbers means scrollLeft 2,200.
    expect(scrollLeftToShow(wide, 20, 0, 1000)).toBe(56 + 21 * 110 - 1000);
    expect(scrollLeftToShow(wide, 20, 5000, 1000)).toBe(2200);
    expect(scrollLeftToShow(wide, 20, 2100, 1000)).toBe(2100);
  });
});

describe('a cell copied as text', () => {
  it('keeps numbers exact, strings as themselves and map keys that are data', () => {
    expect(valueText({ N: '12345678901234567890.000001' })).toBe('12345678901234567890.000001');
    expect(valueText({ S: 'a\tb' })).toBe('a\tb');
    expect(valueText(null)).toBe('');
    expect(valueText({ NULL: true })).toBe('NULL');
    // Parsed, as item data arrives: `__proto__` is an own key, not the object's prototype.
    const map = JSON.parse('{"M":{"__proto__":{"N":"1"},"big":{"N":"0.1000000000000000000001"}}}') as {
      M: Record<string, { N: string }>;
    };
    expect(valueText(map)).toBe('{"__proto__":1,"big":"0.1000000000000000000001"}');
    expect(valueText({ SS: ['x', 'y'] })).toBe('["x","y"]');
  });
});
