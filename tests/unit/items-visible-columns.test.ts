import { describe, expect, it } from 'vitest';
import { visibleColumns } from '../../src/renderer/features/items/components/grid-layout';
import type { KeySchema } from '../../src/shared/ipc/tables';

const keys: KeySchema = { partitionKey: { name: 'PK', type: 'S' }, sortKey: { name: 'SK', type: 'S' } };
// Widths: PK 200, SK 200, then 170 each; the checkbox column is 36 px before them.
const columns = ['PK', 'SK', ...Array.from({ length: 14 }, (_, i) => `a${i}`)];

describe('the columns a grid row renders', () => {
  it('renders the columns in view and 400 px either side, not the whole 2,816 px row', () => {
    const shown = visibleColumns(columns, keys, 0, 1000);
    // In view and the margin: up to x = 1400, i.e. PK, SK and a0..a5 (a5 starts at 1286).
    expect(columns.slice(shown.from, shown.to)).toEqual(['PK', 'SK', 'a0', 'a1', 'a2', 'a3', 'a4', 'a5']);
    expect(shown.leftPad).toBe(0);
  });

  it('stands in for the columns left of the margin with their exact width', () => {
    const shown = visibleColumns(columns, keys, 1500, 600);
    // The margin runs from x = 1100 to 2500: a3 (946–1116) is the first column still needed,
    // a12 (2476–2646) the last.
    expect(columns[shown.from]).toBe('a3');
    expect(shown.leftPad).toBe(200 + 200 + 3 * 170);
    expect(columns[shown.to - 1]).toBe('a12');
  });

  it('keeps the last columns when scrolled to the end', () => {
    const shown = visibleColumns(columns, keys, 2816 - 1000, 1000);
    expect(shown.to).toBe(columns.length);
  });
});
