import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTable, putItems } from '../support/dynamo-tables';
import { startFaultyDynamo, type FaultyDynamo } from '../support/faulty-dynamo';
import { canonical, rawScanItems } from '../support/raw-dynamo';
import { saveKeysConnection } from './support/app';
import { downloadedBytes } from './support/downloads';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// A whole table exported from the Items tab, driven like a user: the real browser-mode server and
// core, the playground's DynamoDB Local, Debian's Chromium. The table is larger than the rows the
// grid fetched, so only a read to the end gives every item.
const session = useAppInBrowser({ withPlayground: true });
const slow = { timeout: 120_000 };
const table = `Whole-${Date.now().toString(36)}`;
const ITEMS = 1200;
let faulty: FaultyDynamo;

beforeAll(async () => {
  faulty = await startFaultyDynamo(session.playgroundEndpoint);
  await saveKeysConnection(session.app, 'Held scans', faulty.endpoint);
  const client = session.playgroundClient;
  await createTable(client, table, {
    partitionKey: ['pk', 'S'],
    globalIndexes: [{ name: 'byKind', partitionKey: ['kind', 'S'] }],
  });
  await putItems(
    client,
    table,
    Array.from({ length: ITEMS }, (_, i) => ({
      pk: { S: `ITEM#${String(i).padStart(5, '0')}` },
      n: { N: String(i) },
      'a.b': { S: 'dotted' },
      ...(i % 4 === 0 ? { kind: { S: 'special' } } : {}),
      // About 6 KB each: the table is some 7 MB, so a Scan of it takes several pages.
      padding: { S: 'x'.repeat(6000) },
    })),
  );
}, 180_000);
afterAll(() => faulty.close());

const exportDialog = () => session.browser.page.getByRole('dialog', { name: 'Export' });

describe('exporting a whole table', () => {
  it('reads the whole table to a CSV file on the server and downloads it', async () => {
    const page = await session.openPage();
    await openPlaygroundTable(page, table, 'Items');
    await page
      .locator('.item-grid-row .item-grid-cell', { hasText: /^ITEM#/ })
      .first()
      .waitFor(slow);
    await page.getByRole('button', { name: 'Export…' }).click();
    const dialog = exportDialog();
    await dialog.getByRole('radio', { name: 'Whole table' }).check();
    await dialog.getByText(/Reading all of it is a full Scan: about [\d,]+ read units/).waitFor();
    await dialog.getByRole('radio', { name: 'CSV with a type row' }).check();
    const name = dialog.getByLabel("File name in DynoTable's export folder");
    await expect.poll(() => name.inputValue()).toBe(`${table}.csv`);
    await screenshots(page, 'items-table-export-choice', dialog);
    await dialog.getByRole('button', { name: 'Export table', exact: true }).click();
    await dialog.getByText(`Exported ${ITEMS.toLocaleString('en-US')} items`).waitFor(slow);

    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: `Download ${table}.csv` }).click();
    const lines = (await downloadedBytes(await downloading)).toString('utf8').trim().split('\r\n');
    // A names row, a types row, then one row per stored item.
    expect(lines).toHaveLength(ITEMS + 2);
    const saved = await readFile(path.join(session.app.dataDir, 'exports', `${table}.csv`), 'utf8');
    expect(saved.trim().split('\r\n')).toEqual(lines);
    await screenshots(page, 'items-table-export-done', dialog);
  });

  it('cancels, lists the stopped export, and resumes it to every item once', async () => {
    // The same table through a server that holds every Scan after the first page until the export
    // is cancelled: a 7 MB export can end before a Cancel click lands on a busy machine.
    const page = session.browser.page;
    const dialog = exportDialog();
    if (await dialog.isVisible())
      await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: '‹ Connections' }).click();
    const card = page.getByTestId('connection-card').filter({ hasText: 'Held scans' });
    await card.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('button', { name: table, exact: true }).click(slow);
    await page
      .locator('.item-grid-row .item-grid-cell', { hasText: /^ITEM#/ })
      .first()
      .waitFor(slow);
    await page.getByRole('button', { name: 'Export…' }).click();
    await dialog.getByRole('radio', { name: 'Whole table' }).check();
    await dialog.getByRole('radio', { name: 'JSON Lines (S3 export format)' }).check();
    await dialog.getByLabel("File name in DynoTable's export folder").fill('resumed.jsonl');
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const scansBefore = faulty.forwarded('Scan').length;
    faulty.script({ operation: 'Scan', fault: 'hold', after: 1, beforeForward: () => released });
    try {
      await dialog.getByRole('button', { name: 'Export table', exact: true }).click();
      // The export's first page read, its next one held.
      await expect.poll(() => faulty.calls.filter((call) => call.fault === 'hold').length, slow).toBe(1);
      await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
      await dialog.getByText('Cancelled.').waitFor(slow);
    } finally {
      release();
      faulty.heal();
    }
    expect(faulty.forwarded('Scan').length - scansBefore).toBe(1);
    const stopped = dialog.getByRole('region', { name: 'Stopped exports of this table' });
    await stopped.getByText(/Table as JSON Lines: stopped at [\d,]+ of ≈ [\d,]+ items/).waitFor(slow);
    const file = path.join(session.app.dataDir, 'exports', 'resumed.jsonl');
    await expect(readFile(file)).rejects.toThrow();
    await screenshots(page, 'items-table-export-stopped', dialog);

    await stopped.getByRole('button', { name: 'Resume' }).click();
    await dialog.getByText(`Exported ${ITEMS.toLocaleString('en-US')} items`).waitFor(slow);
    await stopped.waitFor({ state: 'detached', ...slow });
    const exported = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => canonical((JSON.parse(line) as { Item: unknown }).Item))
      .sort();
    const stored = (await rawScanItems(session.playgroundEndpoint, table))
      .map((item) => canonical(item))
      .sort();
    expect(exported).toEqual(stored);
  });

  it("exports an index: only the items that hold the index's key", async () => {
    const page = session.browser.page;
    const dialog = exportDialog();
    if (!(await dialog.isVisible())) await page.getByRole('button', { name: 'Export…' }).click();
    await dialog.getByRole('radio', { name: 'Whole index' }).check();
    await dialog.getByLabel('Index to export').selectOption('byKind');
    await dialog.getByRole('radio', { name: 'DynamoDB JSON' }).check();
    await dialog.getByLabel("File name in DynoTable's export folder").fill('by-kind.json');
    await dialog.getByRole('button', { name: 'Export index', exact: true }).click();
    await dialog.getByText(`Exported ${(ITEMS / 4).toLocaleString('en-US')} items`).waitFor(slow);
    const saved = JSON.parse(
      await readFile(path.join(session.app.dataDir, 'exports', 'by-kind.json'), 'utf8'),
    ) as { Items: { kind: { S: string } }[] };
    expect(saved.Items).toHaveLength(ITEMS / 4);
    expect(new Set(saved.Items.map((item) => item.kind.S))).toEqual(new Set(['special']));
  });
});
