import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sampleItems } from '../../resources/playground/sample-table';
import { useColorScheme } from './support/browser';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// The SQL results grid on the item grid's virtual rows (ui/virtual-rows.ts): every row of a
// result reachable by scrolling, the header sticky, the row numbers pinned at the left when the
// result scrolls sideways. Real browser-mode server and core (the SQL worker included), the
// playground's DynamoDB Local, Chromium; no fixed sleeps.
const slow = { timeout: 60_000 };
const session = useAppInBrowser({ withPlayground: true });

/** Replaces the editor's text with `sql` and runs it with Ctrl+Enter. */
async function runStatement(page: Page, sql: string): Promise<void> {
  const editor = page.locator('.sql-editor .cm-content');
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(sql);
  await page.keyboard.press('Control+Enter');
}

interface Focused {
  role: string | null;
  row: number;
  col: number;
  label: string;
}

/** The focused element as the grid describes it: role, its row's aria-rowindex, aria-colindex, name. */
function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const element = document.activeElement;
    return {
      role: element?.getAttribute('role') ?? element?.tagName.toLowerCase() ?? null,
      row: Number(element?.closest('[role="row"]')?.getAttribute('aria-rowindex') ?? -1),
      col: Number(element?.getAttribute('aria-colindex') ?? -1),
      label: element?.getAttribute('aria-label') ?? '',
    };
  });
}

async function press(page: Page, key: string, times = 1): Promise<Focused> {
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
  return focused(page);
}

const valueOf = (label: string): string => label.slice(label.indexOf(': ') + 2);

describe('the SQL results grid', () => {
  it('scrolls to the last row of a result, keeps its header on top and its row numbers at the left', async () => {
    const page = await session.openPage();
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.getByRole('button', { name: 'Open playground' }).click();
    await page.getByRole('tab', { name: 'SQL' }).click(slow);
    await page.getByRole('button', { name: 'orders', exact: true }).waitFor(slow);
    const editor = page.locator('.sql-editor .cm-content');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('SELECT * FROM DynoTableSample');
    await page.keyboard.press('Control+Enter');

    // The independent oracle: the sample table's item count, from the seed data.
    const expected = sampleItems().length;
    const grid = page.getByRole('grid', { name: 'Query results' });
    await expect.poll(async () => Number(await grid.getAttribute('aria-rowcount')), slow).toBe(expected + 1);
    await grid.locator('[role="row"][aria-rowindex="2"] [role="gridcell"]').first().waitFor(slow);

    // All the way down and right: the last row is there, numbered, with its cells loaded.
    await grid.evaluate((element) =>
      element.scrollTo({ top: element.scrollHeight, left: element.scrollWidth }),
    );
    const lastRow = grid.locator(`[role="row"][aria-rowindex="${expected + 1}"]`);
    await lastRow.waitFor(slow);
    await expect.poll(() => lastRow.locator('.sql-loading').count(), slow).toBe(0);
    expect((await lastRow.getByRole('rowheader').innerText()).trim()).toMatch(new RegExp(`^${expected}`));

    const seen = () =>
      grid.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const onTop = (selector: string) => {
          const cell = [...element.querySelectorAll<HTMLElement>(selector)].sort(
            (a, b) => b.getBoundingClientRect().bottom - a.getBoundingClientRect().bottom,
          )[0];
          if (!cell) return { left: -1, isOnTop: false };
          const r = cell.getBoundingClientRect();
          const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return { left: Math.round(r.left - box.left), isOnTop: at !== null && cell.contains(at) };
        };
        return {
          scrollLeft: element.scrollLeft,
          header: onTop('.sql-header [role="columnheader"]:first-child'),
          rowNumber: onTop('.sql-grid-rows [role="rowheader"]'),
          headerTop: Math.round(
            (element.querySelector('.sql-header')?.getBoundingClientRect().top ?? 0) -
              box.top -
              element.clientTop,
          ),
        };
      });
    for (const scheme of ['light', 'dark'] as const) {
      await useColorScheme(page, scheme);
      const at = await seen();
      expect(at.scrollLeft).toBeGreaterThan(0);
      expect(at).toMatchObject({
        header: { left: 0, isOnTop: true },
        rowNumber: { left: 0, isOnTop: true },
        headerTop: 0,
      });
    }
    await useColorScheme(page, 'light');
    await screenshots(page, 'sql-result-grid', undefined, {
      check: async () => {
        await grid.evaluate((element) =>
          element.scrollTo({ top: element.scrollHeight, left: element.scrollWidth }),
        );
        await expect.poll(async () => (await seen()).rowNumber.isOnTop, slow).toBe(true);
      },
    });
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('moves a focused cell by keyboard through every row, copies it with Ctrl+C and opens it with Enter', async () => {
    const page = session.browser.page;
    await session.browser.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.setViewportSize({ width: 1024, height: 700 });
    await runStatement(page, 'SELECT * FROM DynoTableSample');
    const expected = sampleItems().length;
    const grid = page.getByRole('grid', { name: 'Query results' });
    await expect.poll(async () => Number(await grid.getAttribute('aria-rowcount')), slow).toBe(expected + 1);
    const colCount = Number(await grid.getAttribute('aria-colcount'));
    const pkCol = Number(
      await grid.getByRole('columnheader', { name: 'PK', exact: true }).getAttribute('aria-colindex'),
    );
    const firstCell = grid.locator('[role="row"][aria-rowindex="2"] [role="gridcell"]').first();
    await firstCell.waitFor(slow);
    await expect.poll(() => grid.locator('.sql-loading').count(), slow).toBe(0);

    // One tab stop: the first row's first value, reached with Tab from the results' Export button.
    await page.locator('.sql-export').getByRole('button', { name: 'Export', exact: true }).focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => focused(page)).toMatchObject({ role: 'gridcell', row: 2, col: 2 });
    await expect.poll(() => grid.locator('[tabindex="0"]').count()).toBe(1);

    // Arrows, Home/End, the header and the row number column.
    expect(await press(page, 'ArrowDown', 2)).toMatchObject({ row: 4, col: 2 });
    expect(await press(page, 'ArrowLeft')).toMatchObject({ role: 'rowheader', row: 4, col: 1 });
    expect((await press(page, 'ArrowLeft')).col).toBe(1);
    expect(await press(page, 'End')).toMatchObject({ role: 'gridcell', row: 4, col: colCount });
    expect(await press(page, 'Home')).toMatchObject({ row: 4, col: 1 });
    expect(await press(page, 'ArrowUp', 5)).toMatchObject({ role: 'columnheader', row: 1, col: 1 });

    // PageDown runs past the rows the DOM held, which the grid renders as it scrolls.
    await press(page, 'ArrowDown');
    const rowsInDom = await grid.locator('.sql-grid-rows > [role="row"]').count();
    expect(rowsInDom).toBeLessThan(60);
    let paged = await focused(page);
    for (let i = 0; i < 6; i++) paged = await press(page, 'PageDown');
    expect(paged.row).toBeGreaterThan(rowsInDom + 2);
    expect(paged.role).toBe('rowheader');
    await expect.poll(() => grid.locator('.sql-grid-rows > [role="row"]').count()).toBeLessThan(60);
    // Ctrl+End: the last cell of the last row; Ctrl+Home the first row's row number.
    expect(await press(page, 'Control+End')).toMatchObject({ row: expected + 1, col: colCount });
    await expect.poll(async () => (await focused(page)).label, slow).not.toMatch(/: loading$/);
    expect(await press(page, 'Control+Home')).toMatchObject({ row: 2, col: 1 });

    // Ctrl+C copies the focused cell as text: the PK of row 1, one of the seed's partition keys.
    const at = await press(page, 'ArrowRight', pkCol - 1);
    expect(at.col).toBe(pkCol);
    const pk = valueOf(at.label);
    const seeded = new Set(sampleItems().map((item) => (item.PK && 'S' in item.PK ? item.PK.S : '')));
    expect(seeded.has(pk)).toBe(true);
    await page.keyboard.press('Control+C');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), slow).toBe(pk);
    await page
      .getByRole('status')
      .filter({ hasText: /^Copied\.$/ })
      .waitFor(slow);
    // On the row number, the row's values, tab-separated.
    await press(page, 'Home');
    await page.keyboard.press('Control+C');
    await expect
      .poll(async () => (await page.evaluate(() => navigator.clipboard.readText())).split('\t').length, slow)
      .toBe(colCount - 1);
    expect((await page.evaluate(() => navigator.clipboard.readText())).split('\t')[pkCol - 2]).toBe(pk);

    // Enter opens the value in full; Escape closes it and the cell has focus again.
    await press(page, 'ArrowRight', pkCol - 1);
    await page.keyboard.press('Enter');
    const shown = page.getByRole('dialog', { name: 'Value of PK' });
    await shown.waitFor(slow);
    expect((await shown.locator('pre').innerText()).trim()).toBe(pk);
    await page.keyboard.press('Escape');
    await expect.poll(() => shown.count(), slow).toBe(0);
    await expect.poll(() => focused(page), slow).toMatchObject({ row: 2, col: pkCol });

    await screenshots(page, 'sql-result-grid-active-cell', undefined, {
      check: async () => {
        // The focused cell keeps focus (and its ring) at every size and scheme.
        await expect.poll(() => focused(page)).toMatchObject({ row: 2, col: pkCol });
      },
    });
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('selects a range with Shift and copies it as tab-separated text, reading rows not loaded', async () => {
    const page = session.browser.page;
    await session.browser.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.setViewportSize({ width: 1024, height: 700 });
    await runStatement(page, 'SELECT PK, SK, GSI1PK FROM DynoTableSample ORDER BY PK, SK');
    // The oracle: the seed's items in the same order, computed here.
    const text = (value: unknown) =>
      value && typeof value === 'object' && 'S' in value ? String(value.S) : '';
    const expected = sampleItems()
      .map((item) => [text(item.PK), text(item.SK), text(item.GSI1PK)])
      .sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : 0));
    const grid = page.getByRole('grid', { name: 'Query results' });
    // This statement's grid, not the one before it (which had as many rows): three columns.
    await expect
      .poll(
        async () => [await grid.getAttribute('aria-colcount'), await grid.getAttribute('aria-rowcount')],
        slow,
      )
      .toEqual(['4', String(expected.length + 1)]);
    await expect.poll(() => grid.locator('.sql-loading').count(), slow).toBe(0);
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    const status = (sentence: string) => page.getByRole('status').filter({ hasText: sentence });
    const inRange = grid.locator('[role="gridcell"][aria-selected="true"]');
    const lines = (rows: string[][]) => rows.map((row) => row.join('\t')).join('\n');

    await grid.locator('[role="row"][aria-rowindex="2"] [aria-colindex="2"]').click();
    await press(page, 'Shift+ArrowRight');
    expect(await press(page, 'Shift+ArrowDown', 4)).toMatchObject({ row: 6, col: 3 });
    await status('5 rows × 2 columns selected.').waitFor();
    await expect.poll(() => inRange.count()).toBe(10);
    await expect.poll(() => grid.getAttribute('aria-multiselectable')).toBe('true');
    await screenshots(page, 'sql-result-grid-range', grid);
    await page.keyboard.press('Control+C');
    await status('Copied 5 rows × 2 columns.').waitFor(slow);
    await expect.poll(() => clipboard()).toBe(lines(expected.slice(0, 5).map((row) => row.slice(0, 2))));

    // Shift+click moves the range's far corner, as in a spreadsheet; Ctrl+Shift+C puts the column
    // names first.
    await grid.locator('[role="row"][aria-rowindex="8"] [aria-colindex="4"]').click({ modifiers: ['Shift'] });
    await status('7 rows × 3 columns selected.').waitFor();
    await page.keyboard.press('Control+Shift+C');
    await status('Copied 7 rows × 3 columns with column names.').waitFor(slow);
    await expect.poll(() => clipboard()).toBe(lines([['PK', 'SK', 'GSI1PK'], ...expected.slice(0, 7)]));
    await page.keyboard.press('Escape');
    await status('Selection cleared.').waitFor();
    await expect.poll(() => inRange.count()).toBe(0);

    // Shift+PageDown and Ctrl+Shift+End reach rows the page never drew: they are read for the copy.
    await press(page, 'Control+Home');
    await press(page, 'Shift+PageDown', 2);
    await press(page, 'Control+Shift+End');
    await status(`${expected.length} rows × 3 columns selected.`).waitFor();
    await page.keyboard.press('Control+C');
    await status(`Copied ${expected.length} rows × 3 columns.`).waitFor(slow);
    await expect.poll(() => clipboard()).toBe(lines(expected));
    await page.keyboard.press('Escape');
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('renders only the columns in view of a 300-column result, and scrolling right shows the later ones', async () => {
    const page = session.browser.page;
    await page.setViewportSize({ width: 1024, height: 700 });
    const columns = Array.from({ length: 300 }, (_, i) => `${i + 1} AS c${String(i + 1).padStart(3, '0')}`);
    await runStatement(page, `SELECT ${columns.join(', ')} FROM DynoTableSample`);
    const grid = page.getByRole('grid', { name: 'Query results' });
    await expect.poll(async () => Number(await grid.getAttribute('aria-colcount')), slow).toBe(301);
    const firstRow = grid.locator('.sql-grid-rows > [role="row"][aria-rowindex="2"]');
    await expect.poll(() => firstRow.locator('.sql-loading').count(), slow).toBe(0);

    /** Every rendered cell of row 1: its aria-colindex and its text (column cNNN holds NNN). */
    const cells = () =>
      firstRow
        .locator('[role="gridcell"]')
        .evaluateAll((found) =>
          found.map((cell) => ({ col: Number(cell.getAttribute('aria-colindex')), text: cell.textContent })),
        );
    const atStart = await cells();
    expect(atStart.length).toBeGreaterThan(3);
    expect(atStart.length).toBeLessThan(30);
    for (const cell of atStart) expect(cell.text).toBe(String(cell.col - 1));

    await grid.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await expect.poll(async () => (await cells()).some((cell) => cell.col === 301), slow).toBe(true);
    const atEnd = await cells();
    expect(atEnd.length).toBeLessThan(30);
    for (const cell of atEnd) expect(cell.text).toBe(String(cell.col - 1));
    // The row number stays, and a gap as wide as the columns left out keeps the cells in place.
    const placed = await firstRow.evaluate((row) => {
      const cell = row.querySelector('[aria-colindex="301"]')!.getBoundingClientRect();
      const header = document.querySelector('.sql-header [aria-colindex="301"]')!.getBoundingClientRect();
      return {
        dx: Math.round(cell.left - header.left),
        rowNumber: row.querySelector('[role="rowheader"]') !== null,
      };
    });
    expect(placed).toEqual({ dx: 0, rowNumber: true });

    // The keyboard reaches the far columns too: End from the row number.
    await grid.evaluate((element) => element.scrollTo({ left: 0 }));
    await firstRow.locator('[role="gridcell"][aria-colindex="2"]').click();
    expect(await press(page, 'End')).toMatchObject({ row: 2, col: 301, label: 'c300: 300' });
    expect(await press(page, 'ArrowLeft', 2)).toMatchObject({ col: 299, label: 'c298: 298' });
    expect(await press(page, 'Home')).toMatchObject({ col: 1, role: 'rowheader' });
    expect(await press(page, 'ArrowRight')).toMatchObject({ col: 2, label: 'c001: 1' });
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('closes the completion popup when the statement runs, by Ctrl+Enter or by the Run button', async () => {
    const page = session.browser.page;
    const editor = page.locator('.sql-editor .cm-content');
    const popup = page.locator('.cm-tooltip-autocomplete');
    for (const how of ['Control+Enter', 'Run'] as const) {
      await editor.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText('SELECT * FROM Dyno');
      await page.keyboard.press('Control+Space');
      await popup.waitFor(slow);
      await popup.getByText('DynoTableSample').first().waitFor(slow);
      if (how === 'Run') await page.getByRole('button', { name: 'Run', exact: true }).click();
      else await page.keyboard.press(how);
      await expect.poll(() => popup.count(), slow).toBe(0);
      // The statement did run: it names no table, so it answers with a sentence.
      await page.getByRole('alert').first().waitFor(slow);
    }
  });
});
