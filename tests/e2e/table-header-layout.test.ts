import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTable } from '../support/dynamo-tables';
import { openPlaygroundTable } from './support/playground-table';
import { screenshotSizes, screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// An open table's header (its name, views, Query in SQL, Refresh) at the two window sizes, in both
// themes: at 1024×700 Refresh wrapped to a second line under a longer table's name. The real
// browser-mode server and core, the playground's DynamoDB Local, Chromium. Its workspace tab, too.
const table = `InvoicesByCustomerAndRegion_${Date.now().toString(36)}`;
const slow = { timeout: 90_000 };
const session = useAppInBrowser({ withPlayground: true });
const page = (): Page => session.browser.page;

beforeAll(async () => {
  await createTable(session.playgroundClient, table, { partitionKey: ['pk', 'S'] });
});

/** The header's controls' tops, relative to the table name's: one line when they all sit on it. */
async function linesOfHeader(): Promise<number> {
  return page().evaluate(() => {
    const header = document.querySelector('.table-page-header');
    if (!header) return 0;
    const tops = [...header.children]
      .filter((child) => (child as HTMLElement).offsetWidth > 0)
      .map((child) => {
        const r = child.getBoundingClientRect();
        return Math.round(r.top + r.height / 2);
      });
    // Children whose middles are within 8px share a line.
    return new Set(tops.map((top) => Math.round(top / 16))).size;
  });
}

describe('the table header', () => {
  it(
    'fits on one line at 1024×700 and 1440×900 in both themes, Refresh still named Refresh',
    slow,
    async () => {
      await session.openPage();
      await page().setViewportSize(screenshotSizes[0]);
      await openPlaygroundTable(page(), table, 'Items');
      const refresh = page().getByRole('button', { name: 'Refresh', exact: true });
      await refresh.waitFor();
      await screenshots(page(), 'table-header', page().locator('.table-page-header'), {
        block: 'start',
        check: async () => {
          await expect.poll(linesOfHeader).toBe(1);
          // Every view's tab whole: the long name gave way, not the views.
          const views = page().getByRole('tablist', { name: `${table} views` });
          await expect
            .poll(() => views.evaluate((nav) => nav.scrollWidth - nav.clientWidth))
            .toBeLessThanOrEqual(0);
          await expect.poll(() => refresh.isVisible()).toBe(true);
          // The workspace tab holds the same long name: it ends in an ellipsis, not a clipped letter.
          const tabName = page().locator('.tab.is-active .tab-name');
          await expect
            .poll(() =>
              tabName.evaluate(
                (name) =>
                  name.scrollWidth > name.clientWidth && getComputedStyle(name).textOverflow === 'ellipsis',
              ),
            )
            .toBe(true);
        },
      });
      // Refresh still works from the keyboard: the description is read again.
      await refresh.focus();
      await page().keyboard.press('Enter');
      await expect.poll(() => page().locator('.table-page-header').innerText()).toContain(table);
    },
  );
});
