import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// Issue #35: the Items toolbar sat on two lines at 1440×900 once the item editor was open beside
// the grid, "Undo history…" alone on the second. Real browser-mode server and core, the
// playground's DynamoDB Local, Debian's Chromium; no fixed sleeps.
const table = 'DynoTableSample';
const slow = { timeout: 60_000 };
const session = useAppInBrowser({ withPlayground: true });
const page = (): Page => session.browser.page;

interface ToolbarLines {
  /** The distinct middles of the toolbar's controls, top to bottom: one per line. */
  lines: number[];
  /** The actions on each line, by their text. */
  actionsByLine: string[][];
  /** Whether every control lies inside the toolbar's box (nothing cut off or overflowing). */
  isInside: boolean;
}

async function toolbarLines(): Promise<ToolbarLines> {
  return page().evaluate(() => {
    const toolbar = document.querySelector<HTMLElement>('.items-toolbar');
    if (!toolbar) throw new Error('no toolbar');
    const box = toolbar.getBoundingClientRect();
    const controls = [...toolbar.querySelectorAll<HTMLElement>('.progress-line, button')];
    const lineOf = (c: HTMLElement): number => {
      const r = c.getBoundingClientRect();
      return Math.round((r.top + r.height / 2) / 8);
    };
    const tops = [...new Set(controls.map(lineOf))].sort((a, b) => a - b);
    const actions = [...toolbar.querySelectorAll<HTMLElement>('.items-toolbar-actions button')];
    return {
      lines: tops,
      actionsByLine: tops.map((top) =>
        actions.filter((a) => lineOf(a) === top).map((a) => a.innerText.trim()),
      ),
      isInside: controls.every((c) => {
        const r = c.getBoundingClientRect();
        return r.left >= box.left - 1 && r.right <= box.right + 1;
      }),
    };
  });
}

/** The grid controls' view options (Item collections, View as dates, Columns), by the line each sits on. */
async function viewOptionLines(): Promise<string[][]> {
  return page().evaluate(() => {
    const controls = document.querySelector<HTMLElement>('.grid-controls');
    if (!controls) throw new Error('no grid controls');
    const lineOf = (c: Element): number => {
      const r = c.getBoundingClientRect();
      return Math.round((r.top + r.height / 2) / 8);
    };
    const options = [...controls.querySelectorAll<HTMLElement>('label, button')].filter((c) =>
      /^(Item collections|View as dates|Columns)/.test(c.innerText.trim()),
    );
    const lines = [...new Set(options.map(lineOf))].sort((x, y) => x - y);
    return lines.map((line) => options.filter((c) => lineOf(c) === line).map((c) => c.innerText.trim()));
  });
}

describe('the Items toolbar', () => {
  it('sits on one line at 1440×900, also with the editor open, and wraps its actions as a group at 1024×700', async () => {
    await session.openPage();
    await page().setViewportSize({ width: 1440, height: 900 });
    await openPlaygroundTable(page(), table, 'Items');
    await page()
      .locator('.progress-line')
      .filter({ hasText: /^100 items · 1 page/ })
      .waitFor(slow);
    await page().getByRole('button', { name: 'Load more' }).waitFor();
    await expect.poll(async () => (await toolbarLines()).lines).toHaveLength(1);

    // The editor beside the grid takes ~560 px: the toolbar still fits its line.
    const firstRow = page().locator('.item-grid-row:not(.is-loading)').first();
    await firstRow.locator('.item-grid-cell').nth(1).dblclick();
    const editor = page().locator('.item-editor');
    await editor.waitFor();
    await expect.poll(async () => (await toolbarLines()).lines.length, slow).toBe(1);
    await expect.poll(async () => (await toolbarLines()).isInside).toBe(true);
    // The grid's own controls below: "View as dates" went down alone under the filter's line.
    // Now the view options move down together, and none stands alone on a line.
    await expect.poll(viewOptionLines).toEqual([['Item collections', 'View as dates', 'Columns']]);

    // At 1024×700 with the editor open the actions go to their own line(s), together and inside.
    await page().setViewportSize({ width: 1024, height: 700 });
    await expect.poll(async () => (await toolbarLines()).lines.length, slow).toBeGreaterThan(1);
    const narrow = await toolbarLines();
    expect(narrow.isInside).toBe(true);
    // The first line is what was read; no action is left alone on a line of its own.
    expect(narrow.actionsByLine[0]).toEqual([]);
    for (const line of narrow.actionsByLine.slice(1)) expect(line.length).toBeGreaterThan(1);
    // The filter does not stand alone on its line: the entity chips stay beside it (to its right),
    // wrapping among themselves, where as one block they went under it.
    await expect
      .poll(() =>
        page().evaluate(() => {
          const filter = document.querySelector('.grid-filter')?.getBoundingClientRect();
          const chips = document.querySelector('.entity-chips')?.getBoundingClientRect();
          return filter && chips ? chips.left >= filter.right && chips.top < filter.bottom : false;
        }),
      )
      .toBe(true);
    await screenshots(page(), 'items-toolbar-editor-open', page().locator('.items-toolbar'), {
      block: 'start',
    });

    // Without the editor, at 1024×700 too, everything sits on one line.
    await editor.getByRole('button', { name: /^Close/ }).click();
    await editor.waitFor({ state: 'detached' });
    await expect.poll(async () => (await toolbarLines()).lines.length, slow).toBe(1);
    // The entity column's header is whole: it read "type (key pr…".
    const entityHeader = page().getByRole('columnheader', { name: 'type (key prefix)' });
    expect(await entityHeader.evaluate((header) => header.scrollWidth <= header.clientWidth)).toBe(true);
    await screenshots(page(), 'items-toolbar', page().locator('.items-toolbar'), { block: 'start' });
    expect(session.browser.pageErrors).toEqual([]);
  });
});
