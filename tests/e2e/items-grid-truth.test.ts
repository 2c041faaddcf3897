import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyDynamo, type FaultyDynamo } from '../support/faulty-dynamo';
import { sampleItems } from '../../resources/playground/sample-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';
import { loaded, openRowByKey, showOnlyRowsWith } from './support/grid-rows';
import { saveKeysConnection } from './support/app';

// The grid shows what is stored: every write DynoTable makes is visible at once in the rows,
// counts, sorted, filtered and collection views and exports of what is open, without a re-read.
// The real browser-mode server and core, the playground's DynamoDB Local, Debian's Chromium.
const table = 'DynoTableSample';
const slow = { timeout: 60_000 };
const all = sampleItems().length;
const text = (value: unknown): string =>
  (value as { S?: string; N?: string }).S ?? (value as { N: string }).N;
const orders = sampleItems().filter((item) => text(item.SK).startsWith('ORDER#') && item.total);

const session = useAppInBrowser({ withPlayground: true });
let faulty: FaultyDynamo;

beforeAll(async () => {
  faulty = await startFaultyDynamo(session.playgroundEndpoint);
  await saveKeysConnection(session.app, 'Held scans', faulty.endpoint);
});
afterAll(() => faulty.close());

async function stored(pk: string, sk: string) {
  const output = await session.playgroundClient.send(
    new GetItemCommand({ TableName: table, Key: { PK: { S: pk }, SK: { S: sk } }, ConsistentRead: true }),
  );
  return output.Item;
}

const page = () => session.browser.page;
const progress = () => page().locator('.progress-line');
const editor = () => page().getByRole('complementary', { name: 'Item editor' });
/** A cell of the column at `column` (counting from 1) whose whole text is `value`; key columns come first. */
const cell = (column: number, value: string): Locator =>
  page().locator(`.item-grid-cell:nth-child(${column + 1})`, { hasText: new RegExp(`^${escape(value)}$`) });
/** The row of one item, found by its key cells (scrolled back to them first). */
const rowWith = (pk: string, sk: string): Locator =>
  page()
    .locator('.item-grid-row')
    .filter({ has: cell(1, pk) })
    .filter({ has: cell(2, sk) });
const rowAt = (index: string | null): Locator => page().locator(`.item-grid-row[aria-rowindex="${index}"]`);

async function rowIndex(pk: string, sk: string): Promise<string | null> {
  await page()
    .locator('.item-grid-scroller')
    .evaluate((element) => (element.scrollLeft = 0));
  return rowWith(pk, sk).getAttribute('aria-rowindex', slow);
}

function escape(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Rows render only the columns in view: scroll sideways to one, as a person would. */
async function showColumn(column: string): Promise<void> {
  await page()
    .locator('.item-grid-th', { hasText: new RegExp(`^${escape(column)}`) })
    .scrollIntoViewIfNeeded(slow);
}

async function scanEverything(): Promise<void> {
  const options = page().getByRole('button', { name: 'Options' });
  if ((await options.getAttribute('aria-expanded')) !== 'true') await options.click();
  await page().getByRole('textbox', { name: 'Max items' }).fill('1000');
  await page().getByRole('textbox', { name: 'Page size' }).fill('100');
  await page().getByRole('button', { name: 'Scan', exact: true }).click();
  // Earlier tests may have created items: 352 and a few more, in four pages of 100.
  await progress()
    .filter({ hasText: /^35\d items · 4 pages/ })
    .waitFor(slow);
}

/** Rows shown and rows fetched, as the progress line says ("12 of 352 items", "352 items"). */
async function shownOfFetched(): Promise<{ shown: number; fetched: number }> {
  const match = /^([\d,]+)(?: of ([\d,]+))? items?/.exec(await progress().innerText());
  const shown = Number(match?.[1]?.replace(/,/g, '') ?? -1);
  return { shown, fetched: match?.[2] ? Number(match[2].replace(/,/g, '')) : shown };
}

/**
 * Types in the quick filter and waits until the grid shows the filtered rows (or all again). A
 * narrowed view is waited for in the drawn rows, not the progress line: the count arrives before
 * the rows, and a row index read in between is the old view's.
 */
async function filterRows(value: string): Promise<void> {
  if (value) await showOnlyRowsWith(page(), value);
  else await page().getByRole('searchbox', { name: 'Filter fetched rows' }).fill(value);
  await expect
    .poll(async () => {
      const { shown, fetched } = await shownOfFetched();
      return value ? shown < fetched : shown === fetched;
    }, slow)
    .toBe(true);
}

async function openRow(row: Locator): Promise<void> {
  await openRowByKey(row);
  await editor().locator('h2').waitFor();
}

async function saveAndClose(): Promise<void> {
  await editor().getByRole('button', { name: 'Save' }).click();
  await editor().getByRole('status').filter({ hasText: 'Saved' }).waitFor(slow);
  await editor().getByRole('button', { name: 'Close the editor' }).click();
}

async function createAsJson(item: object): Promise<void> {
  await page().getByRole('button', { name: 'New item' }).click();
  await editor().getByRole('tab', { name: 'DynamoDB JSON' }).click();
  await editor().getByLabel('Item as DynamoDB JSON').fill(JSON.stringify(item));
  await editor().getByRole('button', { name: 'Create' }).click();
  await editor().getByRole('status').filter({ hasText: 'Saved' }).waitFor(slow);
  await editor().getByRole('button', { name: 'Close the editor' }).click();
}

/** Sum of the entity chips' counts, and the items the progress line says were read. */
async function chipsAndRead(): Promise<{ chips: number; read: number }> {
  const chips = await page().getByRole('group', { name: 'Entity types' }).getByRole('button').allInnerTexts();
  const sum = chips.reduce((total, chip) => total + Number(/(\d+)\s*$/.exec(chip)?.[1] ?? 0), 0);
  const read = Number(/^([\d,]+) items?/.exec(await progress().innerText())?.[1]?.replace(/,/g, '') ?? -1);
  return { chips: sum, read };
}

describe('the grid shows what is stored', () => {
  it('opens a table on its Items tab with the first page read, without pressing Scan', async () => {
    const p = await session.openPage();
    await p.getByRole('button', { name: 'Open playground' }).click();
    await p.getByRole('button', { name: table, exact: true }).click(slow);
    await expect.poll(() => p.getByRole('tab', { name: 'Items' }).getAttribute('aria-selected')).toBe('true');
    await progress()
      .filter({ hasText: /^100 items · 1 page · [\d.]+ RCU/ })
      .waitFor(slow);
    await p.locator('.item-grid-row .item-grid-cell').first().waitFor();
    // The ARIA grid counts its header row too: 100 items are rows 2 to 101.
    await expect.poll(() => p.getByRole('grid', { name: 'Items' }).getAttribute('aria-rowcount')).toBe('101');
    // Overview stays one click away.
    await p.getByRole('tab', { name: 'Overview' }).click();
    await p.getByRole('region', { name: 'Keys' }).waitFor();
    await p.getByRole('tab', { name: 'Items' }).click();
    await progress()
      .filter({ hasText: /^100 items/ })
      .waitFor();
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('shows a saved item in the grid, in a filtered view and in an export, without reading again', async () => {
    await scanEverything();
    const order = orders[0]!;
    const [pk, sk] = [text(order.PK), text(order.SK)];
    const before = text((await stored(pk, sk))?.total);
    const after = String(Number(before) + 1);
    await filterRows(sk);
    const row = rowAt(await rowIndex(pk, sk));
    await openRow(row);
    await editor().getByLabel('total', { exact: true }).fill(after);
    await saveAndClose();
    await expect.poll(async () => text((await stored(pk, sk))?.total)).toBe(after);

    await showColumn('total');
    await expect.poll(() => row.innerText(), slow).toContain(after);
    await expect.poll(() => row.getAttribute('class')).toContain('is-changed');
    await row.getByRole('img', { name: 'Changed by you' }).waitFor();
    await progress()
      .filter({ hasText: new RegExp(`of ${all} items`) })
      .waitFor();

    // Browser mode writes only inside DynoTable's export folder; a bare name is a file there.
    const file = path.join(session.app.dataDir, 'exports', 'after-save.jsonl');
    await page().getByRole('button', { name: 'Export…' }).click();
    const exporting = page().getByRole('dialog', { name: 'Export' });
    await exporting.getByRole('radio', { name: 'JSON Lines (S3 export format)' }).check();
    await exporting
      .getByLabel("Or save on the server, in DynoTable's export folder, as")
      .fill('after-save.jsonl');
    await exporting.getByRole('button', { name: 'Save on the server', exact: true }).click();
    await exporting.getByText(`Saved ${all} items`).waitFor(slow);
    await exporting.getByRole('button', { name: 'Close', exact: true }).click();
    const exported = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { Item: Record<string, unknown> }).Item)
      .find((item) => text(item.PK) === pk && text(item.SK) === sk);
    expect(text(exported?.total)).toBe(after);
    await filterRows('');
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('places a created item at its sorted position and counts it; a committed delete and edit follow', async () => {
    const grid = page().getByRole('grid', { name: 'Items' });
    const pkHeader = grid.getByRole('columnheader', { name: /^PK[▲▼]?$/ });
    await pkHeader.click();
    await pkHeader.click();
    await expect.poll(() => pkHeader.getAttribute('aria-sort'), slow).toBe('descending');
    await createAsJson({ PK: { S: 'USER#u999' }, SK: { S: 'PROFILE' }, entity: { S: 'User' } });
    await progress()
      .filter({ hasText: new RegExp(`^${all + 1} of ${all + 1} items`) })
      .waitFor(slow);
    // The first row below the column headers.
    await expect.poll(() => rowIndex('USER#u999', 'PROFILE')).toBe('2');
    const first = rowAt('2');
    await expect.poll(() => first.getAttribute('class')).toContain('is-new');
    await screenshots(page(), 'items-grid-new-row');

    // Stage an edit of another order and the delete of the new item; both rows say so; commit.
    const order = orders[1]!;
    const [pk, sk] = [text(order.PK), text(order.SK)];
    await filterRows(sk);
    await openRow(rowAt(await rowIndex(pk, sk)));
    await editor().getByLabel('currency', { exact: true }).fill('NZD');
    await editor().getByRole('button', { name: 'Stage', exact: true }).click();
    await rowWith(pk, sk).getByRole('img', { name: 'Staged change, not committed yet' }).waitFor();
    await filterRows('USER#u999');
    await openRow(rowAt(await rowIndex('USER#u999', 'PROFILE')));
    await editor().getByRole('button', { name: 'Stage delete' }).click();
    await filterRows('');
    await rowWith('USER#u999', 'PROFILE')
      .getByRole('img', { name: 'Staged change, not committed yet' })
      .waitFor();
    await screenshots(page(), 'items-grid-staged-rows');
    const staged = page().getByRole('region', { name: 'Staged changes' });
    await staged.getByRole('button', { name: 'Commit' }).click();
    await page().getByRole('status').filter({ hasText: 'Committed: 2 items written.' }).waitFor(slow);
    await progress()
      .filter({ hasText: new RegExp(`^${all} of ${all} items`) })
      .waitFor(slow);
    await expect.poll(() => rowWith('USER#u999', 'PROFILE').count(), slow).toBe(0);
    await expect.poll(() => stored('USER#u999', 'PROFILE')).toBeUndefined();
    await filterRows(sk);
    const edited = rowAt(await rowIndex(pk, sk));
    await expect.poll(() => edited.getAttribute('class')).toContain('is-changed');
    await showColumn('currency');
    await expect.poll(() => edited.innerText(), slow).toContain('NZD');
    await filterRows('');
    await pkHeader.click();
    await expect.poll(() => pkHeader.getAttribute('aria-sort'), slow).toBeNull();
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('follows a save into a collapsed item collection: its header counts the new item', async () => {
    await page().getByRole('checkbox', { name: 'Item collections' }).check();
    const grid = page().getByRole('treegrid', { name: 'Items' });
    const header = grid.locator('.collection-row').first().locator('.collection-toggle');
    await header.waitFor();
    const user = /^\S*\s*(USER#\S+|ORDER#\S+)/.exec(await header.innerText())?.[1] ?? '';
    const count = Number(/(\d+) items?/.exec(await header.innerText())?.[1]);
    await header.click();
    await expect.poll(() => header.getAttribute('aria-expanded'), slow).toBe('false');
    await createAsJson({ PK: { S: user }, SK: { S: 'NOTE#grid-truth' }, note: { S: 'mine' } });
    await expect.poll(() => header.innerText(), slow).toContain(`${count + 1} items`);
    await expect.poll(() => header.getAttribute('aria-expanded')).toBe('false');
    await header.click();
    await rowWith('″', 'NOTE#grid-truth').getByRole('img', { name: 'Created by you' }).waitFor();
    await screenshots(page(), 'items-grid-collection-new-row');
    await page().getByRole('checkbox', { name: 'Item collections' }).uncheck();
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('shows a save and a bulk update on GSI query results at once', async () => {
    await page().getByRole('radio', { name: 'Query' }).click();
    await page().getByLabel('Table or index').selectOption('GSI1');
    await page().getByLabel('Partition key GSI1PK').fill('STATUS#SHIPPED');
    await page().getByRole('button', { name: 'Query', exact: true }).click();
    const rows = page().locator('.item-grid-row');
    await progress().filter({ hasText: /RCU/ }).waitFor(slow);
    // The index's first two items, found by their keys from here on.
    const keysOf = async (row: Locator): Promise<[string, string]> => {
      const cells = loaded(row).locator('.item-grid-cell');
      return [await cells.nth(0).innerText(slow), await cells.nth(1).innerText()];
    };
    const [pk, sk] = await keysOf(rows.nth(0));
    const [otherPk, otherSk] = await keysOf(rows.nth(1));
    await openRow(rowWith(pk, sk));
    await expect.poll(() => editor().locator('h2').innerText()).toBe(`${pk} · ${sk}`);
    await editor().getByLabel('currency', { exact: true }).fill('JPY');
    await saveAndClose();
    await expect.poll(async () => text((await stored(pk, sk))?.currency)).toBe('JPY');
    await showColumn('currency');
    // The grid hears of the write by an event of its own, after the save's answer.
    await expect.poll(() => rowWith(pk, sk).innerText(), slow).toContain('JPY');

    await rowWith(pk, sk).getByRole('checkbox').click();
    await rowWith(otherPk, otherSk).getByRole('checkbox').click();
    await page().getByRole('button', { name: 'Delete / update…' }).click();
    await page()
      .getByRole('dialog', { name: /^Delete (or update )?items$/ })
      .getByRole('radio', { name: 'Update' })
      .check();
    const updating = page().getByRole('dialog', { name: 'Update items' });
    await updating.getByRole('radio', { name: '2 selected' }).check();
    await updating.getByLabel('Attribute to set').fill('flag');
    await updating.getByRole('textbox', { name: 'New value' }).fill('grid-truth');
    await updating.getByRole('button', { name: 'Preview' }).click();
    await updating.getByRole('button', { name: 'Update 2' }).click();
    await updating.getByText('2 done, 0 changed since read', { exact: false }).waitFor(slow);
    // Done, the pressed "Update 2" turns disabled: focus goes to Close (it fell to the page), and
    // Enter there takes a keyboard user back to the grid.
    const close = updating.getByRole('button', { name: 'Close', exact: true });
    await expect.poll(() => close.evaluate((button) => button === document.activeElement)).toBe(true);
    await page().keyboard.press('Enter');
    await updating.waitFor({ state: 'detached' });
    await showColumn('flag');
    for (const [itemPk, itemSk] of [
      [pk, sk],
      [otherPk, otherSk],
    ] as const)
      await expect.poll(() => rowWith(itemPk, itemSk).innerText(), slow).toContain('grid-truth');
    await screenshots(page(), 'items-grid-changed-rows');
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('counts the entity chips of a cancelled scan from what it read, not from the scan before', async () => {
    // The same table through a server that holds the scan's 21st page until the scan is cancelled:
    // a scan of 353 one-item pages can end before a Cancel click lands on a busy machine.
    await page().getByRole('button', { name: '‹ Connections' }).click();
    const card = page().getByTestId('connection-card').filter({ hasText: 'Held scans' });
    await card.getByRole('button', { name: 'Open', exact: true }).click();
    await page().getByRole('button', { name: table, exact: true }).click(slow);
    await scanEverything();
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    faulty.script({ operation: 'Scan', fault: 'hold', after: 20, beforeForward: () => released });
    try {
      await page().getByRole('textbox', { name: 'Page size' }).fill('1');
      await page().getByRole('button', { name: 'Scan', exact: true }).click();
      // Twenty pages of one item read, the next one held.
      await expect.poll(() => faulty.calls.filter((call) => call.fault === 'hold').length, slow).toBe(1);
      await progress()
        .filter({ hasText: /^20 items · 20 pages/ })
        .waitFor(slow);
      await page().getByRole('button', { name: 'Cancel' }).click();
      await progress().filter({ hasText: 'Cancelled' }).waitFor(slow);
    } finally {
      release();
      faulty.heal();
    }
    await expect
      .poll(async () => {
        const { chips, read } = await chipsAndRead();
        return { chips, read };
      }, slow)
      .toEqual({ chips: 20, read: 20 });
    expect(session.browser.pageErrors).toEqual([]);
  });
});

/** Light and dark, at the smallest supported window and a common laptop one. */
