import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { sampleItems } from '../../resources/playground/sample-table';
import { downloadedBytes } from './support/downloads';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';
import { openRowByKey } from './support/grid-rows';
import { rawScanAll } from '../support/copy-oracle';

// Export, import, bulk update and a staged delete from the Items tab, driven like a user: the
// real browser-mode server and core, the playground's DynamoDB Local, Debian's Chromium.
const table = 'DynoTableSample';
const slow = { timeout: 120_000 };
const shipped = sampleItems().filter(
  (item) => item.GSI1PK && 'S' in item.GSI1PK && item.GSI1PK.S === 'STATUS#SHIPPED',
);

const session = useAppInBrowser({ withPlayground: true });

async function stored(pk: string, sk: string) {
  const output = await session.playgroundClient.send(
    new GetItemCommand({ TableName: table, Key: { PK: { S: pk }, SK: { S: sk } }, ConsistentRead: true }),
  );
  return output.Item;
}

/**
 * Runs the shipped-orders Query (again), until the grid shows `cellText` in `column` (scrolled
 * into view sideways first, as a person would: rows render only the columns in view).
 */
async function queryShipped(column: string, cellText: string): Promise<void> {
  const { page } = session.browser;
  await page.getByRole('button', { name: 'Query', exact: true }).click();
  await page.locator('.item-grid-th', { hasText: new RegExp(`^${column}`) }).scrollIntoViewIfNeeded(slow);
  await page
    .locator('.item-grid-cell', { hasText: new RegExp(`^${cellText}$`) })
    .first()
    .waitFor(slow);
  await page
    .getByRole('status')
    .filter({ hasText: `${shipped.length} items` })
    .waitFor(slow);
}

const dialog = (name: string) => session.browser.page.getByRole('dialog', { name });

type Wire = Record<string, unknown>;

/** DynamoDB's wire value as plain JSON data, written here apart from the app's own conversion. */
function plainOfWire(value: Wire): unknown {
  const [[type, x]] = Object.entries(value) as [[string, unknown]];
  switch (type) {
    case 'N':
      return Number(x);
    case 'NS':
      return (x as string[]).map(Number);
    case 'NULL':
      return null;
    case 'L':
      return (x as Wire[]).map(plainOfWire);
    case 'M':
      return Object.fromEntries(
        Object.entries(x as Record<string, Wire>).map(([k, v]) => [k, plainOfWire(v)]),
      );
    default:
      return x;
  }
}

const byKey = (a: Wire, b: Wire) =>
  `${String(a.PK)}\u0000${String(a.SK)}`.localeCompare(`${String(b.PK)}\u0000${String(b.SK)}`);

describe('moving items in and out of the Items tab', () => {
  it('exports the queried items to the export folder, then uploads an edited copy and imports it after a dry run', async () => {
    const page = await session.openPage();
    await openPlaygroundTable(page, table, 'Items');
    await page.getByRole('radio', { name: 'Query' }).click();
    await page.getByLabel('Table or index').selectOption('GSI1');
    await page.getByLabel('Partition key GSI1PK').fill('STATUS#SHIPPED');
    await queryShipped('GSI1PK', 'STATUS#SHIPPED');

    // Browser mode writes only inside DynoTable's export folder; a bare name is a file there.
    const file = path.join(session.app.dataDir, 'exports', 'shipped.jsonl');
    await page.getByRole('button', { name: 'Export…' }).click();
    const exporting = dialog('Export');
    await exporting.getByRole('radio', { name: 'JSON Lines (S3 export format)' }).check();
    // The file name is a real value that follows the format, so saving needs no typing; the
    // browser download is a button whose download streams the whole result.
    const saveAs = exporting.getByLabel("Or save on the server, in DynoTable's export folder, as");
    await expect.poll(() => saveAs.inputValue()).toBe(`${table}.jsonl`);
    await expect
      .poll(() => exporting.getByRole('button', { name: 'Save on the server', exact: true }).isEnabled())
      .toBe(true);
    const downloading = page.waitForEvent('download');
    await exporting.getByRole('button', { name: `Download ${shipped.length} rows` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${table}-.*\\.jsonl$`));
    const downloaded = (await downloadedBytes(download)).toString('utf8');
    expect(downloaded.trim().split('\n')).toHaveLength(shipped.length);
    await exporting
      .getByRole('status')
      .filter({ hasText: 'Saving the export in your browser’s downloads folder' })
      .waitFor();
    await screenshots(page, 'items-export-dialog', exporting);
    await exporting
      .getByLabel("Or save on the server, in DynoTable's export folder, as")
      .fill('shipped.jsonl');
    await exporting.getByRole('button', { name: 'Save on the server', exact: true }).click();
    await exporting.getByText(`Saved ${shipped.length} items`).waitFor(slow);
    await session.browser.screenshot('items-export-done');
    await exporting.getByRole('button', { name: 'Close', exact: true }).click();

    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(shipped.length);
    const first = JSON.parse(lines[0]!) as { Item: Record<string, Record<string, string>> };
    const pk = first.Item.PK!.S!;
    const sk = first.Item.SK!.S!;
    first.Item.currency = { S: 'CHF' };
    await writeFile(file, [JSON.stringify(first), ...lines.slice(1)].join('\n'));

    await page.getByRole('button', { name: 'Import…' }).click();
    const importing = dialog(`Import into ${table}`);
    await importing.getByRole('radio', { name: 'Replace existing items' }).check();
    // The page uploads the file's bytes; the server reads no path the page chose.
    await importing.getByLabel('File to upload and import').setInputFiles(file);
    await importing.getByText('Uploaded shipped.jsonl').waitFor(slow);
    await session.browser.screenshotBothSchemes('items-import-uploaded');
    const importButton = importing.getByRole('button', { name: 'Import', exact: true });
    await expect.poll(() => importButton.isDisabled()).toBe(true);
    await importing.getByRole('button', { name: 'Dry run' }).click();
    await importing
      .getByText(`Dry run: ${shipped.length} read · ${shipped.length} would be written`)
      .waitFor(slow);
    await expect.poll(async () => (await stored(pk, sk))?.currency?.S).not.toBe('CHF');
    await importButton.click();
    await importing
      .getByText(`${shipped.length} read · ${shipped.length} written`, { exact: false })
      .waitFor(slow);
    await session.browser.screenshot('items-import-done');
    await expect.poll(async () => (await stored(pk, sk))?.currency?.S).toBe('CHF');
    await importing.getByRole('button', { name: 'Close', exact: true }).click();
    // The grid shows what the upload wrote once the query runs again.
    await queryShipped('currency', 'CHF');
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('downloads the queried items as a JSON array, the same items as a raw Scan of the table', async () => {
    const { page } = session.browser;
    await queryShipped('currency', 'CHF');
    await page.getByRole('button', { name: 'Export…' }).click();
    const exporting = dialog('Export');
    // A whole-table export is typed and resumable: it offers no JSON array.
    await exporting.getByRole('radio', { name: 'Whole table' }).check();
    await expect.poll(() => exporting.getByRole('radio', { name: 'JSON array' }).isDisabled()).toBe(true);
    await exporting.getByRole('radio', { name: `All ${shipped.length} rows fetched` }).check();
    await exporting.getByRole('radio', { name: 'JSON array' }).check();
    await expect
      .poll(() =>
        exporting.getByLabel("Or save on the server, in DynoTable's export folder, as").inputValue(),
      )
      .toBe(`${table}.json`);
    const downloading = page.waitForEvent('download');
    await exporting.getByRole('button', { name: `Download ${shipped.length} rows` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${table}-.*\\.json$`));
    const downloaded = JSON.parse((await downloadedBytes(download)).toString('utf8')) as Wire[];
    expect(Array.isArray(downloaded)).toBe(true);
    const raw = (await rawScanAll(session.playgroundEndpoint, table)).filter(
      (item) => (item.GSI1PK as { S?: string } | undefined)?.S === 'STATUS#SHIPPED',
    );
    const expected = raw.map((item) => plainOfWire({ M: item }) as Wire);
    expect(downloaded).toHaveLength(shipped.length);
    expect([...downloaded].sort(byKey)).toEqual(expected.sort(byKey));
    // The import dialog reads only typed files: it offers no JSON array.
    await exporting.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('button', { name: 'Import…' }).click();
    const importing = dialog(`Import into ${table}`);
    await importing.getByRole('radio', { name: 'JSON Lines (S3 export format)' }).waitFor();
    await expect.poll(() => importing.getByRole('radio', { name: 'JSON array' }).count()).toBe(0);
    await importing.getByRole('button', { name: 'Cancel' }).click();
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('updates every queried item after a preview, then commits a staged delete', async () => {
    const { page } = session.browser;
    // Read again: the bulk update's condition expects what the import wrote.
    await queryShipped('currency', 'CHF');
    await page.getByRole('button', { name: 'Delete / update…' }).click();
    // Nothing is selected, so the dialog chooses neither the scope's widest reach nor an action.
    const choosing = dialog('Delete or update items');
    await choosing.getByRole('radio', { name: 'Every queried item' }).check();
    await choosing.getByRole('radio', { name: 'Update' }).check();
    const updating = dialog('Update items');
    await updating.getByLabel('Attribute to set').fill('flag');
    await updating.getByRole('textbox', { name: 'New value' }).fill('yes');
    await updating.getByRole('button', { name: 'Preview' }).click();
    await updating.getByText(`${shipped.length} items will be updated`, { exact: false }).waitFor(slow);
    await updating.getByRole('button', { name: `Update ${shipped.length}` }).click();
    await updating.getByText(`${shipped.length} done, 0 changed since read`, { exact: false }).waitFor(slow);
    await session.browser.screenshot('items-bulk-update-done');
    await updating.getByRole('button', { name: 'Close', exact: true }).click();
    const some = shipped[0]!;
    const somePk = (some.PK as { S: string }).S;
    const someSk = (some.SK as { S: string }).S;
    await expect.poll(async () => (await stored(somePk, someSk))?.flag?.S).toBe('yes');

    // Read again, so the staged delete's condition expects the flag the update wrote.
    await queryShipped('flag', 'yes');
    await openRowByKey(page.locator('.item-grid-row').first());
    const editor = page.getByRole('complementary', { name: 'Item editor' });
    await editor.getByLabel('flag', { exact: true }).waitFor();
    const [pk = '', sk = ''] = (await editor.locator('h2').innerText()).split(' · ');
    await editor.getByRole('button', { name: 'Stage delete' }).click();
    const staged = page.getByRole('region', { name: 'Staged changes' });
    await staged.getByText('1 staged change').waitFor();
    await expect.poll(() => stored(pk, sk)).toBeDefined();
    await staged.getByRole('button', { name: 'Commit' }).click();
    await expect.poll(() => stored(pk, sk), slow).toBeUndefined();
    expect(session.browser.pageErrors).toEqual([]);
  });
});
