import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type { KeySchema } from '../../src/shared/ipc/tables';
import { GridHeader } from '../../src/renderer/features/items/components/grid-header';
import { HEADER_HEIGHT, ROW_HEIGHT, rowWindow, scrollTopShowing } from '../../src/renderer/ui/virtual-rows';
import { GridRow } from '../../src/renderer/features/items/components/grid-row';
import { gridColCount, gridRowCount, nextPoint } from '../../src/renderer/ui/grid-keys';

// The item grid is an ARIA grid over a virtualized result set: its counts speak of every row,
// the rendered rows carry their place in the whole, whichever part of a million rows is shown.
const keys: KeySchema = {
  partitionKey: { name: 'PK', type: 'S' },
  sortKey: { name: 'SK', type: 'S' },
};
const columns = ['PK', 'SK', 'total', 'status'];
const MILLION = 1_000_000;
const VIEWPORT = 600;
const noop = (): void => undefined;

const itemAt = (index: number): Item => ({
  PK: { S: `USER#${index}` },
  SK: { S: 'ORDER#1' },
  total: { N: String(index) },
  status: { S: 'PAID' },
});

/** Every opening tag's attributes, in document order, as the browser would read them. */
function elements(html: string): Map<string, string>[] {
  return [...html.matchAll(/<(\w+)([^>]*)>/g)].map(([, , attributes = '']) => {
    const found = new Map<string, string>();
    for (const [, name = '', value = ''] of attributes.matchAll(/([\w-]+)="([^"]*)"/g))
      found.set(name, value);
    return found;
  });
}

/** The row at `index` as the grid renders it once scrolled there, with its third attribute column focused. */
function renderedRow(index: number): Map<string, string>[] {
  const scrollTop = scrollTopShowing(index, 0, VIEWPORT, MILLION);
  const view = rowWindow(scrollTop, VIEWPORT, MILLION);
  // A scroll position the browser can take: the scroller holds the header and the spacer.
  expect(scrollTop).toBeLessThanOrEqual(view.spacer + HEADER_HEIGHT - VIEWPORT);
  // The grid renders rows first..last: the row is among them, and whole below the header.
  expect(view.first).toBeLessThanOrEqual(index);
  expect(view.last).toBeGreaterThanOrEqual(index);
  const top = HEADER_HEIGHT + index * ROW_HEIGHT - view.virtualTop;
  expect(top).toBeGreaterThanOrEqual(HEADER_HEIGHT - 1);
  expect(top + ROW_HEIGHT).toBeLessThanOrEqual(VIEWPORT + 1);
  const html = renderToStaticMarkup(
    <GridRow
      index={index}
      position={index}
      item={itemAt(index)}
      pinned={columns.slice(0, 2)}
      columns={columns.slice(2)}
      firstCol={3}
      leftPad={0}
      keys={keys}
      isSelected={false}
      isGrouped={false}
      width={800}
      top={0}
      activeCol={3}
      onToggleRow={noop}
      onExpand={noop}
    />,
  );
  return elements(html);
}

describe('the item grid as an ARIA grid of a million rows', () => {
  it('counts every row of the result set and every column, the header row included', () => {
    expect(gridRowCount(MILLION)).toBe(1_000_001);
    expect(gridColCount(columns.length)).toBe(5);
    const header = elements(
      renderToStaticMarkup(
        <GridHeader columns={columns} keys={keys} sort={[]} width={800} pinned={2} onSort={noop} />,
      ),
    );
    expect(header[0]?.get('role')).toBe('row');
    expect(header[0]?.get('aria-rowindex')).toBe('1');
    const headers = header.filter((e) => e.get('role') === 'columnheader');
    expect(headers.map((e) => e.get('aria-colindex'))).toEqual(['1', '2', '3', '4', '5']);
  });

  for (const [name, index] of [
    ['row 1', 0],
    ['row 500,000', 499_999],
    ['the last row', MILLION - 1],
  ] as const) {
    it(`places ${name} at its index in the whole result set, with one focusable cell named by column and value`, () => {
      const [row, ...rest] = renderedRow(index);
      expect(row?.get('role')).toBe('row');
      expect(row?.get('aria-rowindex')).toBe(String(index + 2));
      const cells = rest.filter((e) => e.get('role') === 'gridcell');
      expect(cells.map((e) => e.get('aria-colindex'))).toEqual(['1', '2', '3', '4', '5']);
      // Roving tabindex: the focused cell (total) is the grid's only tab stop.
      expect(cells.map((e) => e.get('tabindex'))).toEqual(['-1', '-1', '-1', '0', '-1']);
      expect(cells[3]?.get('aria-label')).toBe(`total: ${index}`);
      // Key attributes are read-only in the grid, and say why.
      expect(cells[1]?.get('aria-readonly')).toBe('true');
      expect(cells[1]?.get('title')).toMatch(/cannot change a key in place/);
      // Only cells are children of the row: the selection checkbox sits inside the first cell.
      expect(rest.find((e) => e.get('role') === 'checkbox')?.get('tabindex')).toBe('-1');
    });
  }

  it('reaches the last row from the first with Ctrl+End, and pages without leaving the result set', () => {
    const size = { rows: MILLION, cols: columns.length, page: 20 };
    const plain = { ctrlKey: false, metaKey: false };
    expect(nextPoint({ row: 0, col: 2 }, { key: 'End', ctrlKey: true, metaKey: false }, size)).toEqual({
      row: MILLION - 1,
      col: 4,
    });
    expect(nextPoint({ row: 999_990, col: 2 }, { key: 'PageDown', ...plain }, size)).toEqual({
      row: MILLION - 1,
      col: 2,
    });
    expect(nextPoint({ row: 5, col: 2 }, { key: 'PageUp', ...plain }, size)).toEqual({ row: 0, col: 2 });
    expect(nextPoint({ row: 0, col: 2 }, { key: 'ArrowUp', ...plain }, size)).toEqual({ row: -1, col: 2 });
    expect(nextPoint({ row: 7, col: 4 }, { key: 'ArrowRight', ...plain }, size)).toEqual({ row: 7, col: 4 });
    expect(nextPoint({ row: 7, col: 4 }, { key: 'Home', ...plain }, size)).toEqual({ row: 7, col: 0 });
    expect(nextPoint({ row: 7, col: 4 }, { key: 'x', ...plain }, size)).toBeUndefined();
  });
});
