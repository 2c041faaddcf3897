import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPlaygroundTable } from './support/playground-table';
import { showOnlyRowsWith } from './support/grid-rows';
import { screenshotSizes, screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// The two layouts that broke at 1024×700 (#10 item 7), driven as a person would at both window
// sizes: the item grid with changes staged under it, and the SQL workbench with the assistant
// open. The real browser-mode server and core, the playground's DynamoDB Local, Chromium.
const table = 'DynoTableSample';
const slow = { timeout: 60_000 };
const session = useAppInBrowser({ withPlayground: true });
const page = (): Page => session.browser.page;

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
  width: number;
  height: number;
}

async function box(locator: Locator): Promise<Box> {
  const rect = await locator.boundingBox();
  if (!rect) throw new Error('not rendered');
  return {
    top: rect.y,
    bottom: rect.y + rect.height,
    left: rect.x,
    right: rect.x + rect.width,
    width: rect.width,
    height: rect.height,
  };
}

/** Item rows a person can see whole: inside the grid's scroller and inside the window. */
async function wholeRowsInView(): Promise<number> {
  return page().evaluate(() => {
    const scroller = document.querySelector('.item-grid-scroller');
    if (!scroller) return 0;
    const area = scroller.getBoundingClientRect();
    const head = scroller.querySelector('.item-grid-header')?.getBoundingClientRect().bottom ?? area.top;
    const bottom = Math.min(area.bottom, window.innerHeight);
    return [...scroller.querySelectorAll('.item-grid-row')].filter((row) => {
      const r = row.getBoundingClientRect();
      return r.top >= head - 1 && r.bottom <= bottom + 1;
    }).length;
  });
}

/** Stages a new value in the `status` cell of the grid's rows `first`..`last` (aria-rowindex), by keyboard. */
async function stageStatuses(rows: number[]): Promise<void> {
  const grid = page().getByRole('grid', { name: 'Items' });
  const header = grid.getByRole('columnheader', { name: /^status/ });
  // Rows render only the columns in view: scroll sideways to it, as a person would.
  await header.scrollIntoViewIfNeeded();
  const column = await header.getAttribute('aria-colindex');
  for (const [n, row] of rows.entries()) {
    const cell = grid.locator(`[role="row"][aria-rowindex="${row}"] [aria-colindex="${column}"]`);
    await cell.scrollIntoViewIfNeeded();
    await cell.click();
    await page().keyboard.press('Enter');
    const input = grid.getByRole('textbox', { name: /^New value of status/ });
    await input.waitFor();
    await page().keyboard.press('Control+A');
    await page().keyboard.type(`LAYOUT${n}`);
    await page().keyboard.press('Enter');
    await input.waitFor({ state: 'detached' });
  }
}

describe('layouts at 1024×700 and 1440×900', () => {
  it('keeps the item grid usable with changes staged: the panel folds to its summary line', async () => {
    await session.openPage();
    await page().setViewportSize(screenshotSizes[0]);
    await openPlaygroundTable(page(), table, 'Items');
    await page()
      .locator('.progress-line')
      .filter({ hasText: /^100 items · 1 page/ })
      .waitFor(slow);
    // Orders have a status: the quick filter keeps only them while five are edited in their cells.
    // The cells are found by position: wait until the grid has drawn the filtered rows there.
    await showOnlyRowsWith(page(), 'ORDER#');
    await stageStatuses([2, 3, 4, 5, 6]);
    await page().getByRole('searchbox', { name: 'Filter fetched rows' }).fill('');
    const panel = page().getByRole('region', { name: 'Staged changes' });
    await panel.getByRole('heading', { name: '5 staged changes' }).waitFor();

    await screenshots(page(), 'layout-staged-panel');
    for (const size of screenshotSizes) {
      await page().setViewportSize(size);
      // The summary line says what is staged and keeps Commit in reach.
      await expect.poll(() => panel.innerText(), slow).toMatch(/5 staged changes/);
      await expect.poll(() => panel.getByRole('button', { name: 'Commit' }).isVisible()).toBe(true);
      await expect.poll(() => wholeRowsInView()).toBeGreaterThanOrEqual(size.height >= 900 ? 14 : 9);
      // Folded: the list is out of the way (and out of the accessibility tree).
      await expect.poll(() => panel.getByRole('listitem').count()).toBe(0);
    }

    // Unfolded, the list scrolls inside its part of the window and the grid keeps rows above it.
    await page().setViewportSize(screenshotSizes[0]);
    const toggle = panel.getByRole('button', { name: 'Show list' });
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await panel.getByRole('button', { name: 'Hide list' }).waitFor();
    await expect.poll(() => panel.getByRole('listitem').count()).toBe(5);
    await expect.poll(() => panel.getByRole('listitem').first().isVisible()).toBe(true);
    await expect.poll(() => wholeRowsInView()).toBeGreaterThanOrEqual(4);
    await expect.poll(async () => (await box(panel)).bottom).toBeLessThanOrEqual(screenshotSizes[0].height);
    await screenshots(page(), 'layout-staged-panel-open');
    await panel.getByRole('button', { name: 'Discard' }).last().click();
    await panel.getByRole('heading', { name: '4 staged changes' }).waitFor();
    await panel.getByRole('button', { name: 'Hide list' }).click();
    await expect.poll(() => panel.getByRole('listitem').count()).toBe(0);
    await expect.poll(() => wholeRowsInView()).toBeGreaterThanOrEqual(9);
  });

  it('shows the SQL editor and its results beside the open assistant', async () => {
    await page().setViewportSize(screenshotSizes[0]);
    await page().getByRole('tab', { name: 'SQL', exact: true }).click(slow);
    await page().getByRole('button', { name: 'orders', exact: true }).waitFor(slow);
    await page().getByRole('button', { name: 'Assistant', exact: true }).click();
    const assistant = page().getByRole('complementary', { name: 'Assistant' });
    await assistant.getByRole('heading', { name: 'Assistant' }).waitFor();
    await page().locator('.sql-editor .cm-content').click();
    await page().keyboard.press('Control+A');
    await page().keyboard.press('Delete');
    await page().keyboard.insertText('SELECT PK, SK, status, total, orderId FROM orders');
    await page().keyboard.press('Escape');
    await page().keyboard.press('Control+Enter');
    const firstRow = page().locator('.sql-grid [role="row"][aria-rowindex="2"]');
    await firstRow.waitFor(slow);
    await screenshots(page(), 'layout-sql-assistant');
    for (const size of screenshotSizes) {
      await page().setViewportSize(size);
      const editor = await box(page().locator('.sql-editor'));
      const results = await box(page().locator('.sql-grid'));
      const side = await box(assistant);
      // The editor and the results are wide enough to read a statement and a few columns, inside
      // the window and not under the assistant.
      expect(editor.width).toBeGreaterThanOrEqual(480);
      expect(results.width).toBeGreaterThanOrEqual(480);
      expect(results.right).toBeLessThanOrEqual(side.left + 1);
      expect(editor.height).toBeGreaterThanOrEqual(100);
      expect(results.bottom).toBeLessThanOrEqual(size.height + 1);
      // At least five result rows show whole.
      const rows = await page().evaluate(() => {
        const grid = document.querySelector('.sql-grid')?.getBoundingClientRect();
        if (!grid) return 0;
        return [...document.querySelectorAll('.sql-grid [role="row"]:not(.sql-header)')].filter((row) => {
          const r = row.getBoundingClientRect();
          return r.top >= grid.top && r.bottom <= Math.min(grid.bottom, window.innerHeight);
        }).length;
      });
      expect(rows).toBeGreaterThanOrEqual(5);
      // The assistant's question box is usable too.
      await expect.poll(() => assistant.getByRole('textbox').first().isVisible()).toBe(true);
    }
    expect(session.browser.pageErrors).toEqual([]);
  });
});
