import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useColorScheme } from './support/browser';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// Issue #35: the key columns stay at the left while the item grid scrolls sideways. The grid
// renders only the columns in view (horizontal virtualization) and its rows are `contain:
// strict`: the key cells must survive both. Real browser-mode server and core, the playground's
// DynamoDB Local, Debian's Chromium; no fixed sleeps.
const table = 'DynoTableSample';
const slow = { timeout: 60_000 };
const session = useAppInBrowser({ withPlayground: true });
const page = (): Page => session.browser.page;

interface KeyCellsSeen {
  scrollLeft: number;
  gridLeft: number;
  /** Per key column: its cell's left edge, and whether the topmost element at its centre is that cell. */
  cells: { name: string; left: number; isOnTop: boolean; background: string }[];
}

/** Where the first row in view shows its PK and SK cells (aria-colindex 2 and 3), as a user sees them. */
async function keyCellsSeen(): Promise<KeyCellsSeen> {
  return page().evaluate(() => {
    const scroller = document.querySelector<HTMLElement>('.item-grid-scroller');
    if (!scroller) throw new Error('no grid');
    const box = scroller.getBoundingClientRect();
    // The first item row whose top is below the sticky header.
    const rows = [...scroller.querySelectorAll<HTMLElement>('.item-grid-row:not(.collection-row)')];
    const row = rows
      .filter((r) => r.getBoundingClientRect().top >= box.top + 30)
      .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0];
    const header = scroller.querySelector<HTMLElement>('.item-grid-header');
    const cellsOf = (parent: HTMLElement | null | undefined) =>
      ['2', '3'].map((col) => {
        const cell = parent?.querySelector<HTMLElement>(`[aria-colindex="${col}"]`);
        if (!cell) return { name: `col ${col} not rendered`, left: -1, isOnTop: false, background: '' };
        const rect = cell.getBoundingClientRect();
        const onTop = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
        return {
          name: cell.innerText.trim(),
          left: Math.round(rect.left - box.left),
          isOnTop: onTop !== null && cell.contains(onTop),
          background: getComputedStyle(cell).backgroundColor,
        };
      });
    return {
      scrollLeft: scroller.scrollLeft,
      gridLeft: Math.round(box.left),
      cells: [...cellsOf(header), ...cellsOf(row)],
    };
  });
}

describe('the item grid scrolled sideways', () => {
  it('keeps the partition and sort key columns pinned at the left edge, in light and dark', async () => {
    await session.openPage();
    await page().setViewportSize({ width: 1024, height: 700 });
    await openPlaygroundTable(page(), table, 'Items');
    await page()
      .locator('.progress-line')
      .filter({ hasText: /^100 items · 1 page/ })
      .waitFor(slow);
    const grid = page().getByRole('grid', { name: 'Items' });
    const scroller = page().locator('.item-grid-scroller');
    const lastHeader = grid.getByRole('columnheader').last();
    const lastName = (await lastHeader.innerText()).trim();

    // At the start the keys are where they always were: after the selection column.
    await expect.poll(async () => (await keyCellsSeen()).cells.every((c) => c.name !== ''), slow).toBe(true);
    const atStart = await keyCellsSeen();
    expect(atStart.cells.map((c) => [c.name, c.left, c.isOnTop])).toEqual([
      ['PK', 36, true],
      ['SK', 236, true],
      [expect.stringMatching(/\S/), 36, true],
      [expect.stringMatching(/\S/), 236, true],
    ]);
    const rowKeys = atStart.cells.slice(2).map((c) => c.name);

    // All the way right, as a wheel or the scrollbar would: the last column is in view...
    await scroller.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await expect.poll(async () => (await lastHeader.boundingBox())?.x ?? 0, slow).toBeGreaterThan(500);
    const scrolled = await keyCellsSeen();
    expect(scrolled.scrollLeft).toBeGreaterThan(1000);
    // ...and the key cells of the header and of the same row are still at the left edge, on top.
    for (const scheme of ['light', 'dark'] as const) {
      await useColorScheme(page(), scheme);
      const seen = await keyCellsSeen();
      expect(seen.cells.map((c) => [c.name, c.left, c.isOnTop])).toEqual([
        ['PK', 36, true],
        ['SK', 236, true],
        [rowKeys[0], 36, true],
        [rowKeys[1], 236, true],
      ]);
      // Opaque, so the cells scrolling under them do not show through.
      for (const cell of seen.cells) expect(cell.background).not.toBe('rgba(0, 0, 0, 0)');
    }
    await useColorScheme(page(), 'light');

    // By keyboard: Home then Right reaches the pinned PK cell without scrolling back.
    const firstKeyCell = page().locator(`.item-grid-row [aria-colindex="2"]`).first();
    await firstKeyCell.click();
    await page().keyboard.press('End');
    await expect
      .poll(() => page().evaluate(() => document.activeElement?.getAttribute('aria-colindex')), slow)
      .toBe(await grid.getAttribute('aria-colcount'));
    const scrollAtEnd = await scroller.evaluate((element) => element.scrollLeft);
    await page().keyboard.press('Home');
    await page().keyboard.press('ArrowRight');
    await expect
      .poll(() => page().evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toMatch(/^PK: /);
    await expect.poll(() => scroller.evaluate((element) => element.scrollLeft)).toBe(scrollAtEnd);
    expect(lastName).not.toBe('PK');

    await screenshots(page(), 'items-grid-pinned-keys', undefined, {
      check: async () => {
        await scroller.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
        await expect.poll(async () => (await keyCellsSeen()).cells.every((c) => c.isOnTop), slow).toBe(true);
      },
    });
    expect(session.browser.pageErrors).toEqual([]);
  });
});
