import type { Locator, Page } from 'playwright-core';
import { SAMPLE_TABLE, sampleItems } from '../../../resources/playground/sample-table';
import { canonical, rawGetItem } from '../../support/raw-dynamo';

const slow = { timeout: 60_000 };

const escape = (value: string): string => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A grid cell of the column at `column` (counting from 1) whose whole text is `value`; key columns come first. */
export function gridCell(page: Page, column: number, value: string): Locator {
  return page.locator(`.item-grid-cell:nth-child(${column + 1})`, {
    hasText: new RegExp(`^${escape(value)}$`),
  });
}

/** `rows` narrowed to those holding an item: rows whose block is still being read are left out. */
export function loaded(rows: Locator): Locator {
  return rows.and(rows.page().locator('.item-grid-row:not(.is-loading)'));
}

/** The grid row of one item, found by its key cells (the row must be rendered). */
export function rowWith(page: Page, pk: string, sk: string): Locator {
  return page
    .locator('.item-grid-row')
    .filter({ has: gridCell(page, 1, pk) })
    .filter({ has: gridCell(page, 2, sk) });
}

/**
 * From the picker: opens the playground's table and scans it whole (up to 1,000 items), then
 * waits until the progress line says `read` (the table's items, "352 items" when unchanged).
 */
export async function scanPlaygroundTable(page: Page, table: string, read: RegExp): Promise<void> {
  await page.getByRole('button', { name: 'Open playground' }).click();
  await page.getByRole('button', { name: table, exact: true }).click(slow);
  const options = page.getByRole('button', { name: 'Options' });
  if ((await options.getAttribute('aria-expanded')) !== 'true') await options.click();
  await page.getByRole('textbox', { name: 'Max items' }).fill('1000');
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  await page.locator('.progress-line').filter({ hasText: read }).waitFor(slow);
}

/** A sample item's S or N value as text. */
export const valueText = (value: unknown): string =>
  (value as { S?: string; N?: string }).S ?? (value as { N: string }).N;

/** The sample's orders that hold a currency, which the undo walks change. */
export const ordersWithCurrency = () =>
  sampleItems().filter((item) => valueText(item.SK).startsWith('ORDER#') && item.currency);

/** The key of the `index`-th of those orders, as the grid's first two cells show it. */
export function orderKey(index: number): [pk: string, sk: string] {
  const order = ordersWithCurrency()[index];
  if (!order) throw new Error(`The sample has no order with a currency at ${index}`);
  return [valueText(order.PK), valueText(order.SK)];
}

/** The sample table's item at that key as DynamoDB Local's wire JSON (canonical text): the oracle. */
export async function rawSampleItem(endpoint: string, [pk, sk]: [string, string]): Promise<string> {
  return canonical(await rawGetItem(endpoint, SAMPLE_TABLE, { PK: { S: pk }, SK: { S: sk } }));
}

/**
 * Opens a grid row's item as a person does: scrolls the grid back to its first columns and
 * double-clicks the row's partition key (a double-click on a text or number cell edits it in place),
 * or with `keyboard`, focuses that cell and presses Enter, leaving the mouse where it was.
 */
export async function openRowByKey(row: Locator, how: 'mouse' | 'keyboard' = 'mouse'): Promise<void> {
  // A row whose block of rows is still being read has the same cells, empty, and a double-click
  // on it opens nothing (under load the first window can arrive after the progress line).
  await loaded(row).waitFor(slow);
  await row.evaluate((element) => {
    const scroller = element.closest('.item-grid-scroller');
    if (scroller) scroller.scrollLeft = 0;
  });
  const key = row.locator('[role="gridcell"][aria-colindex="2"]');
  if (how === 'keyboard') await key.press('Enter');
  else await key.dblclick();
}

/**
 * Types `filter` into the filter box and waits until the grid has redrawn with only rows whose
 * drawn cells hold `shown` (the filter itself by default; pass a key when the filter matches a
 * column the grid may not draw). The filter applies as a view in main and the grid then redraws
 * its rows, so a click made right after typing can land on a row the redraw replaces.
 */
export async function showOnlyRowsWith(page: Page, filter: string, shown = filter): Promise<void> {
  await page.getByRole('searchbox', { name: 'Filter fetched rows' }).fill(filter);
  await page.waitForFunction(
    (wanted) => {
      const rows = [...document.querySelectorAll('.item-grid-row:not(.collection-row)')];
      return (
        rows.length > 0 &&
        rows.every((row) => !row.classList.contains('is-loading') && row.textContent.includes(wanted))
      );
    },
    shown,
    slow,
  );
}

/**
 * Narrows the fetched rows to one item with the filter box, opens it in the item editor by its
 * partition key (see openRowByKey) and waits for the editor to show it; returns its grid row.
 */
export async function openItemInEditor(
  page: Page,
  pk: string,
  sk: string,
  how: 'mouse' | 'keyboard' = 'mouse',
): Promise<Locator> {
  await showOnlyRowsWith(page, sk);
  const row = rowWith(page, pk, sk);
  await row.waitFor(slow);
  await openRowByKey(row, how);
  await page
    .getByRole('complementary', { name: 'Item editor' })
    .locator('h2')
    .filter({ hasText: `${pk} · ${sk}` })
    .waitFor(slow);
  return row;
}
