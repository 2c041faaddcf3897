import { type AttributeValue, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SAMPLE_TABLE } from '../../resources/playground/sample-table';
import { describeFocus, expectFocusVisible, isFocused, tabTo as tabBackTo } from './support/keyboard';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// Issue #35 item 1: from the address to a cell edited and committed, keyboard only, counting every
// key press (typed characters included). Focus lands on each new view, skip links jump over the
// toolbars, and the grid edits a scalar in place. Real server, core, playground, Chromium.
const slow = { timeout: 120_000 };
const session = useAppInBrowser({ withPlayground: true });
const page = (): Page => session.browser.page;

const presses = { tab: 0, other: 0, typed: 0 };

async function press(key: string, times = 1): Promise<void> {
  for (let i = 0; i < times; i++) {
    await page().keyboard.press(key);
    if (key === 'Tab' || key === 'Shift+Tab') presses.tab++;
    else presses.other++;
  }
}

async function type(text: string): Promise<void> {
  await page().keyboard.type(text);
  presses.typed += text.length;
}

/** Tab until `target` has focus, counting the presses; every stop shows a ring. */
async function tabTo(target: Locator, max = 40): Promise<number> {
  await target.waitFor(slow);
  for (let i = 0; i <= max; i++) {
    if (await isFocused(target)) {
      await expectFocusVisible(page());
      return i;
    }
    await press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}; focus is on ${await describeFocus(page())}`);
}

const tabBack = (target: Locator): Promise<void> => tabBackTo(page(), target, { back: true, max: 60 });

interface Cell {
  row: number;
  col: number;
  label: string;
}

async function focusedCell(): Promise<Cell> {
  return page().evaluate(() => {
    const element = document.activeElement;
    return {
      row: Number(element?.closest('[role="row"]')?.getAttribute('aria-rowindex') ?? -1),
      col: Number(element?.getAttribute('aria-colindex') ?? -1),
      label: element?.getAttribute('aria-label') ?? '',
    };
  });
}

/** How many items of the sample table hold `total` = n, by a plain Scan (an independent tally). */
async function itemsWithTotal(n: string): Promise<number> {
  let count = 0;
  let start: Record<string, AttributeValue> | undefined;
  for (let page = 0; page < 100; page++) {
    const output = await session.playgroundClient.send(
      new ScanCommand({
        TableName: SAMPLE_TABLE,
        FilterExpression: '#t = :n',
        ExpressionAttributeNames: { '#t': 'total' },
        ExpressionAttributeValues: { ':n': { N: n } },
        ExclusiveStartKey: start,
      }),
    );
    count += output.Count ?? 0;
    start = output.LastEvaluatedKey;
    if (!start) break;
  }
  return count;
}

describe('the keyboard walk from the address to a committed cell', () => {
  it('opens the playground, a table, edits a number in its cell and commits it, counting the keys', async () => {
    await session.openPage();
    const tabsToPlayground = await tabTo(page().getByRole('button', { name: 'Open playground' }));
    await press('Enter');

    // The workspace opens with focus in the table filter, not on the page body.
    const filter = page().getByRole('searchbox', { name: 'Filter tables' });
    await page().getByTestId('table-row').filter({ hasText: SAMPLE_TABLE }).waitFor(slow);
    await expect.poll(() => isFocused(filter), slow).toBe(true);
    await type(SAMPLE_TABLE);
    await press('Enter');

    // The table opens with focus on its heading.
    const heading = page().getByRole('heading', { level: 1, name: SAMPLE_TABLE });
    await expect.poll(() => isFocused(heading), slow).toBe(true);
    await page()
      .locator('.progress-line')
      .filter({ hasText: /^100 items · 1 page/ })
      .waitFor(slow);

    // "Skip to the grid" is the first stop of the Items view and lands on the grid's cell.
    const skip = page().getByRole('button', { name: 'Skip to the grid' });
    const tabsToSkip = await tabTo(skip);
    await screenshots(page(), 'keyboard-skip-to-grid', undefined, { check: expectFocusVisible });
    await press('Enter');
    const grid = page().getByRole('grid', { name: 'Items' });
    await expect.poll(() => focusedCell()).toMatchObject({ row: 2, col: 2 });

    // To the first row's `total`, a number: arrows only.
    const totalCol = Number(
      await grid.getByRole('columnheader', { name: /^total$/ }).getAttribute('aria-colindex'),
    );
    await press('ArrowRight', totalCol - 2);
    let at = await focusedCell();
    for (let i = 0; i < 100 && !/^total: -?\d/.test(at.label); i++) {
      await press('ArrowDown');
      at = await focusedCell();
    }
    expect(at.col).toBe(totalCol);
    await expect.poll(() => itemsWithTotal('4321')).toBe(0);

    // Enter edits the number in its cell; Enter again stages it.
    await press('Enter');
    const input = grid.getByRole('textbox', { name: /^New value of total/ });
    await expect.poll(() => input.evaluate((e) => e === document.activeElement), slow).toBe(true);
    await press('Control+A');
    await type('4321');
    await press('Enter');
    await expect
      .poll(async () => (await focusedCell()).label, slow)
      .toBe('total: 4321 (staged, not committed yet)');

    // Tab on to the staged panel's Commit.
    const commit = page()
      .getByRole('region', { name: 'Staged changes' })
      .getByRole('button', { name: 'Commit', exact: true });
    const tabsToCommit = await tabTo(commit);
    await press('Enter');
    await page().getByRole('status').filter({ hasText: 'Committed: 1 item written.' }).waitFor(slow);
    // The oracle: a plain Scan of the table finds the one item now holding 4321.
    await expect.poll(() => itemsWithTotal('4321'), slow).toBe(1);

    const total = presses.tab + presses.other + presses.typed;
    // The figures docs/ACCESSIBILITY.md gives; a walk that grows past them is a regression.
    console.info(
      `keyboard walk: ${total} presses (${presses.tab} Tab, ${presses.other} other keys, ${presses.typed} typed characters); ` +
        `Tab to Open playground ${tabsToPlayground}, heading to Skip to the grid ${tabsToSkip}, grid to Commit ${tabsToCommit}`,
    );
    expect(tabsToSkip).toBeLessThanOrEqual(4);
    expect(presses.tab).toBeLessThanOrEqual(20);
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('double-click edits a scalar cell in place and opens the item on its key', async () => {
    const grid = page().getByRole('grid', { name: 'Items' });
    const totalCol = Number(
      await grid.getByRole('columnheader', { name: /^total$/ }).getAttribute('aria-colindex'),
    );
    const number = grid.locator(`.item-grid-cell.is-number[aria-colindex="${totalCol}"]`).first();
    const rowIndex = await number.evaluate((cell) =>
      cell.closest('[role="row"]')?.getAttribute('aria-rowindex'),
    );
    const row = grid.locator(`[role="row"][aria-rowindex="${rowIndex}"]`);
    await number.dblclick();
    const input = grid.getByRole('textbox', { name: /^New value of total/ });
    await expect.poll(() => input.evaluate((e) => e === document.activeElement), slow).toBe(true);
    await page().keyboard.press('Escape');
    await expect.poll(() => input.count()).toBe(0);
    await expect.poll(() => page().getByRole('complementary', { name: 'Item editor' }).count()).toBe(0);
    // Home brings the row's start (its key) back into view.
    await page().keyboard.press('Home');

    await row.locator('[aria-colindex="2"]').dblclick();
    await page().getByRole('complementary', { name: 'Item editor' }).waitFor();
  });

  it('lists the whole grid key map under F1, and the workspace starts with skip links', async () => {
    await page().getByRole('heading', { level: 1, name: SAMPLE_TABLE }).focus();
    await page().keyboard.press('F1');
    await screenshots(page(), 'keyboard-map');
    const help = page().getByRole('dialog', { name: 'Keyboard shortcuts' });
    const gridKeys = help.getByRole('region', { name: 'Item grid' });
    for (const does of [/^Next cell/, /^A page of rows/, /^Edit a text, number/, /^Select the row/])
      await gridKeys.getByText(does).waitFor();
    await help
      .getByRole('region', { name: 'Cell editor' })
      .getByText(/^Keep the value/)
      .waitFor();
    await screenshots(page(), 'keyboard-map-grid', gridKeys);
    await page().keyboard.press('Escape');

    // The skip links are the workspace's first stops: Shift+Tab back from the heading reaches them.
    const toList = page().getByRole('button', { name: 'Skip to the table list' });
    await tabBack(toList);
    await page().keyboard.press('Shift+Tab');
    await expect.poll(() => describeFocus(page())).toContain('Skip to main content');
    await page().keyboard.press('Tab');
    await screenshots(page(), 'keyboard-skip-links', undefined, { check: expectFocusVisible });
    await page().keyboard.press('Enter');
    await expect
      .poll(() => isFocused(page().getByRole('searchbox', { name: 'Filter tables' })), slow)
      .toBe(true);
    // ArrowDown from the filter goes to the first table.
    await page().keyboard.press('ArrowDown');
    await expect.poll(() => isFocused(page().locator('.data-table .table-link').first()), slow).toBe(true);
    expect(session.browser.pageErrors).toEqual([]);
  });
});
