import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations as axeViolationsOf, describeViolations, isSeriousOrCritical } from './support/axe';
import { useColorScheme } from './support/browser';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';
import { rawScanAll } from '../support/copy-oracle';

// The item grid driven by keyboard only, as an ARIA grid: the real browser-mode server and core,
// the playground's DynamoDB Local, Debian's Chromium. No fixed sleeps.
const table = 'DynoTableSample';
const slow = { timeout: 60_000 };
const session = useAppInBrowser({ withPlayground: true });
const page = (): Page => session.browser.page;
// A narrower window may leave the focused cell (or its editor) out of view: the shots scroll to it.
const focusedCell = () =>
  page().locator('.item-grid [role="gridcell"]:focus, .item-grid .cell-editor').first();

interface Focused {
  role: string | null;
  row: number;
  col: number;
  label: string;
  text: string;
}

/** The focused element as the grid describes it: its role, aria-rowindex of its row, aria-colindex, name. */
async function focused(): Promise<Focused> {
  return page().evaluate(() => {
    const element = document.activeElement;
    const row = element?.closest('[role="row"]');
    return {
      role: element?.getAttribute('role') ?? element?.tagName.toLowerCase() ?? null,
      row: Number(row?.getAttribute('aria-rowindex') ?? -1),
      col: Number(element?.getAttribute('aria-colindex') ?? -1),
      label: element?.getAttribute('aria-label') ?? '',
      text: (element instanceof HTMLElement ? element.innerText : '').trim().slice(0, 60),
    };
  });
}

async function press(key: string, times = 1): Promise<Focused> {
  for (let i = 0; i < times; i++) await page().keyboard.press(key);
  return focused();
}

/** Tab until `isThere` holds for the focused element (a keyboard user's way there). */
async function tabUntil(isThere: (at: Focused) => boolean, key = 'Tab'): Promise<Focused> {
  for (let i = 0; i < 80; i++) {
    const at = await focused();
    if (isThere(at)) return at;
    await page().keyboard.press(key);
  }
  throw new Error(`Tabbing never reached the element; last focused: ${JSON.stringify(await focused())}`);
}

/** Serious and critical axe-core violations inside `selector`; with `rules`, every violation of those rules. */
async function axeViolations(selector: string, rules?: string[]): Promise<string[]> {
  const found = await axeViolationsOf(page(), { include: selector, rules });
  return describeViolations(rules ? found : found.filter(isSeriousOrCritical));
}

/** The same, in the dark scheme and then the light one (where the page stays). */
async function axeInBothSchemes(selector: string): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['dark', 'light'] as const) {
    await useColorScheme(page(), scheme);
    found.push(...(await axeViolations(selector)).map((v) => `${scheme}: ${v}`));
  }
  return found;
}

async function storedTotal(pk: string, sk: string): Promise<string | undefined> {
  const output = await session.playgroundClient.send(
    new GetItemCommand({ TableName: table, Key: { PK: { S: pk }, SK: { S: sk } }, ConsistentRead: true }),
  );
  return output.Item?.total?.N;
}

const valueOf = (label: string): string => label.slice(label.indexOf(': ') + 2);

describe('the item grid by keyboard', () => {
  it('moves through every row, edits a number in its cell, stages and commits it, and Escape cancels', async () => {
    await session.openPage();
    await openPlaygroundTable(page(), table, 'Items');
    const grid = page().getByRole('grid', { name: 'Items' });
    // A scan of the whole table, started from the keyboard, once the table's first page is in.
    await page()
      .locator('.progress-line')
      .filter({ hasText: /^100 items · 1 page/ })
      .waitFor(slow);
    await page().getByRole('button', { name: 'Options' }).press('Enter');
    await page().getByRole('textbox', { name: 'Max items' }).fill('1000');
    await page().getByRole('button', { name: 'Scan', exact: true }).press('Enter');
    await page()
      .locator('.progress-line')
      .filter({ hasText: /^35\d items · \d+ pages?/ })
      .waitFor(slow);
    const rowCount = Number(await grid.getAttribute('aria-rowcount'));
    // Columns are those of the rows fetched so far: the count can grow as windows arrive.
    const colCount = async (): Promise<number> => Number(await grid.getAttribute('aria-colcount'));
    expect(rowCount).toBeGreaterThan(352);
    await expect.poll(() => colCount()).toBeGreaterThan(5);

    // Tab from the Scan button reaches the grid's one tab stop: the first item's first attribute.
    const start = await tabUntil((at) => at.role === 'gridcell');
    expect(start).toMatchObject({ row: 2, col: 2 });
    expect(start.label).toMatch(/^PK: \S+/);
    // One tab stop: Tab again leaves the grid.
    expect((await press('Tab')).role).not.toBe('gridcell');
    expect(await press('Shift+Tab')).toMatchObject({ row: 2, col: 2 });

    expect(await press('ArrowDown', 2)).toMatchObject({ row: 4, col: 2 });
    expect((await press('ArrowRight')).label).toMatch(/^SK: /);
    expect(await press('ArrowUp', 5)).toMatchObject({ row: 1, col: 3, role: 'columnheader' });
    const paged = await press('PageDown', 2);
    expect(paged.row).toBeGreaterThan(20);
    // Ctrl+End: the last cell of the last row, fetched from the result set as a scroll would.
    const end = await press('Control+End');
    expect(end).toMatchObject({ row: rowCount, role: 'gridcell' });
    expect(end.col).toBeGreaterThan(5);
    await expect.poll(async () => (await focused()).label, slow).not.toMatch(/: loading$/);
    expect((await press('End')).col).toBe(await colCount());
    expect(await press('Control+Home')).toMatchObject({ row: 2, col: 1 });
    expect((await press('End')).col).toBe(await colCount());
    expect((await press('Home')).col).toBe(1);

    // To the total column, then down to the first row that has one (an order).
    const totalCol = Number(
      await grid.getByRole('columnheader', { name: /^total$/ }).getAttribute('aria-colindex'),
    );
    let at = await press('ArrowRight', totalCol - 1);
    expect(at.col).toBe(totalCol);
    for (let i = 0; i < 200 && !/^total: -?\d/.test(at.label); i++) at = await press('ArrowDown');
    expect(at.label).toMatch(/^total: -?\d/);
    const before = valueOf(at.label);
    const { row } = at;
    // The row's key, read from its cells as a screen reader user would.
    await press('Home');
    const pk = valueOf((await press('ArrowRight')).label);
    const sk = valueOf((await press('ArrowRight')).label);
    expect(await press('ArrowRight', totalCol - 3)).toMatchObject({ row, col: totalCol });

    // Enter opens the in-cell editor with the stored number; a word is refused with a sentence
    // next to the cell, and what was typed stays.
    await page().keyboard.press('Enter');
    const input = grid.getByRole('textbox', { name: /^New value of total/ });
    await expect.poll(() => input.evaluate((e) => e === document.activeElement), slow).toBe(true);
    await expect.poll(() => input.inputValue()).toBe(before);
    await page().keyboard.type('abc');
    await page().keyboard.press('Enter');
    const problem = grid.getByRole('alert');
    await problem.filter({ hasText: /"abc" is not a number/ }).waitFor();
    await expect.poll(() => input.inputValue()).toBe('abc');
    await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
    expect(await axeInBothSchemes('.item-grid')).toEqual([]);
    await screenshots(page(), 'items-grid-inline-problem', focusedCell());
    await page().keyboard.press('Control+A');
    await page().keyboard.type('1234.5');
    await page().keyboard.press('Enter');
    at = await focused();
    expect(at).toMatchObject({ row, col: totalCol, role: 'gridcell' });
    expect(at.label).toBe('total: 1234.5 (staged, not committed yet)');
    const stagedRow = grid.locator(`[role="row"][aria-rowindex="${row}"]`);
    await expect
      .poll(() => stagedRow.getByRole('img', { name: 'Staged change, not committed yet' }).count())
      .toBe(1);
    await page().getByRole('region', { name: 'Staged changes' }).getByText('1 staged change').waitFor();

    // Escape leaves the cell as it was (the staged value), typing and all.
    await page().keyboard.press('F2');
    await expect.poll(() => input.evaluate((e) => e === document.activeElement), slow).toBe(true);
    await page().keyboard.type('999');
    await screenshots(page(), 'items-grid-inline-editor', focusedCell());
    await page().keyboard.press('Escape');
    await expect.poll(() => input.count()).toBe(0);
    await expect.poll(async () => (await focused()).label).toBe('total: 1234.5 (staged, not committed yet)');
    await page().getByRole('region', { name: 'Staged changes' }).getByText('1 staged change').waitFor();
    await expect.poll(() => storedTotal(pk, sk)).toBe(before);

    // The grid passes axe-core with a focused cell, a staged row and an editor open.
    expect(await axeInBothSchemes('.item-grid')).toEqual([]);
    await page().keyboard.press('Enter');
    await input.waitFor();
    expect(await axeInBothSchemes('.item-grid')).toEqual([]);
    await page().keyboard.press('Escape');

    // Commit from the keyboard: Tab on from the grid to the staged panel's Commit.
    await tabUntil((a) => a.role === 'button' && a.text === 'Commit');
    await page().keyboard.press('Enter');
    await page().getByRole('status').filter({ hasText: 'Committed: 1 item written.' }).waitFor(slow);
    await expect.poll(() => storedTotal(pk, sk)).toBe('1234.5');
    // Back in the grid on the same cell: the committed value, the row marked as changed by you.
    at = await tabUntil((a) => a.role === 'gridcell', 'Shift+Tab');
    expect(at).toMatchObject({ row, col: totalCol, label: 'total: 1234.5' });
    await stagedRow.getByRole('img', { name: 'Changed by you' }).waitFor();
    await screenshots(page(), 'items-grid-focused-cell', focusedCell());
    await expect
      .poll(() => stagedRow.getByRole('gridcell', { name: 'total: 1234.5' }).innerText())
      .toBe('1234.5');
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('collapses, expands and selects an item collection from the keyboard', async () => {
    await page().getByRole('checkbox', { name: 'Item collections' }).check();
    const tree = page().getByRole('treegrid', { name: 'Items' });
    await tree.locator('.collection-row').first().waitFor(slow);
    await tabUntil((at) => at.role === 'gridcell');
    // The first row is the first collection's header: its selection cell, then one cell spanning the attributes.
    expect((await press('Control+Home')).label).toMatch(/^\S+: all \d+ items not selected$/);
    const header = tree.locator('[role="row"][aria-rowindex="2"]');
    expect(await press('ArrowRight')).toMatchObject({ row: 2, col: 2 });
    await expect.poll(() => header.getAttribute('aria-expanded')).toBe('true');
    const expanded = Number(await tree.getAttribute('aria-rowcount'));
    await page().keyboard.press('ArrowLeft');
    await expect.poll(() => header.getAttribute('aria-expanded'), slow).toBe('false');
    await expect
      .poll(async () => Number(await tree.getAttribute('aria-rowcount')), slow)
      .toBeLessThan(expanded);
    await page().keyboard.press('ArrowRight');
    await expect.poll(() => header.getAttribute('aria-expanded'), slow).toBe('true');
    await expect.poll(async () => Number(await tree.getAttribute('aria-rowcount')), slow).toBe(expanded);
    await page().keyboard.press(' ');
    await expect.poll(() => header.getAttribute('aria-selected'), slow).toBe('true');
    // Down into the collection's first item, a row one level deeper.
    const item = await press('ArrowDown');
    expect(item).toMatchObject({ row: 3, role: 'gridcell' });
    // Polled: under load the rows after the selection are drawn a moment after focus moves.
    await expect
      .poll(() => tree.locator('[role="row"][aria-rowindex="3"]').getAttribute('aria-level'), slow)
      .toBe('2');
    expect(await axeViolations('.item-grid')).toEqual([]);
    await page().getByRole('checkbox', { name: 'Item collections' }).uncheck();
  });

  it('selects a range of cells with Shift and copies it as tab-separated text, rows not loaded included', async () => {
    await session.browser.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const grid = page().getByRole('grid', { name: 'Items' });
    // The oracle: the table's items in DynamoDB Local's scan order, which the grid's Scan kept.
    const raw = await rawScanAll(session.playgroundEndpoint, table);
    const keyLine = (item: Record<string, unknown>) =>
      `${(item.PK as { S: string }).S}\t${(item.SK as { S: string }).S}`;
    await expect
      .poll(async () => Number(await grid.getAttribute('aria-rowcount')), slow)
      .toBe(raw.length + 1);
    const clipboard = () => page().evaluate(() => navigator.clipboard.readText());
    const status = (text: string) => page().getByRole('status').filter({ hasText: text });
    const inRange = grid.locator('[role="gridcell"][aria-selected="true"]');

    await tabUntil((at) => at.role === 'gridcell');
    await press('Control+Home');
    expect(await press('ArrowRight')).toMatchObject({ row: 2, col: 2 });
    await press('Shift+ArrowRight');
    expect(await press('Shift+ArrowDown', 4)).toMatchObject({ row: 6, col: 3 });
    await status('5 rows × 2 columns selected.').waitFor();
    await expect.poll(() => inRange.count()).toBe(10);
    await screenshots(page(), 'items-grid-range', focusedCell());

    await page().keyboard.press('Control+C');
    await status('Copied 5 rows × 2 columns.').waitFor(slow);
    await expect.poll(() => clipboard()).toBe(raw.slice(0, 5).map(keyLine).join('\n'));
    await page().keyboard.press('Control+Shift+C');
    await status('Copied 5 rows × 2 columns with column names.').waitFor(slow);
    await expect.poll(() => clipboard()).toBe(['PK\tSK', ...raw.slice(0, 5).map(keyLine)].join('\n'));

    // A click without Shift clears the range; Shift+click draws one from the focused cell.
    await grid.locator('[role="row"][aria-rowindex="3"] [aria-colindex="2"]').click();
    await expect.poll(() => inRange.count(), slow).toBe(0);
    await grid.locator('[role="row"][aria-rowindex="6"] [aria-colindex="3"]').click({ modifiers: ['Shift'] });
    await status('4 rows × 2 columns selected.').waitFor();
    await expect.poll(() => inRange.count()).toBe(8);
    await page().keyboard.press('Control+C');
    await status('Copied 4 rows × 2 columns.').waitFor(slow);
    await expect.poll(() => clipboard()).toBe(raw.slice(1, 5).map(keyLine).join('\n'));
    await page().keyboard.press('Escape');
    await status('Selection cleared.').waitFor();
    await expect.poll(() => inRange.count()).toBe(0);

    // From the selection column, Ctrl+Shift+End takes every row whole, most not in the page: the
    // copy reads them through the window cache and holds no placeholder.
    await press('Control+Home');
    const cols = Number(await grid.getAttribute('aria-colcount')) - 1;
    await press('Control+Shift+End');
    await status(`${raw.length} rows × ${cols} columns selected.`).waitFor();
    await page().keyboard.press('Control+C');
    await status(`Copied ${raw.length} rows × ${cols} columns.`).waitFor(slow);
    const lines = (await clipboard()).split('\n');
    expect(lines).toHaveLength(raw.length);
    expect(lines.map((line) => line.split('\t').slice(0, 2).join('\t'))).toEqual(raw.map(keyLine));
    expect(lines.every((line) => line.split('\t').length >= cols)).toBe(true);
    await page().keyboard.press('Escape');
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('leaves no rows or tab lists holding what their roles forbid, on the items and overview screens', async () => {
    const structure = ['aria-required-children', 'aria-allowed-role', 'aria-required-parent'];
    expect(await axeViolations('body', structure)).toEqual([]);
    await page().getByRole('tab', { name: 'Overview' }).click();
    await page().getByRole('region', { name: 'Keys' }).waitFor();
    expect(await axeViolations('body', structure)).toEqual([]);
    // The tab strip's × is for the mouse; a keyboard closes the focused tab with Delete.
    const tab = page().getByRole('tab', { name: table });
    await tab.press('Delete');
    await tab.waitFor({ state: 'detached' });
  });
});

/** The grid as a user sees it now, light and dark, at the two window sizes we hold layouts to. */
