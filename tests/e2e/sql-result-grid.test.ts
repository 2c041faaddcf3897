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
        await expect.poll(async () => (await seen()).rowNumber.isOnTop).toBe(true);
      },
    });
    expect(session.browser.pageErrors).toEqual([]);
  });
});
