import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type AttributeValue, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTable, putItems } from '../support/dynamo-tables';
import { rawGetItem } from '../support/raw-dynamo';
import { ordersWithCurrency, valueText } from './support/grid-rows';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';
import { untilShows, writeWalk } from './support/write-walk';

// The write sources not walked in journal-write-sources.test.ts: a file import that replaces an
// item, a copy into a table that holds the item, the pre-flight's "Run fix" and the Health tab's
// TTL fix. Each in Debian's Chromium against the browser-mode server and the playground's
// DynamoDB Local: the item shown in the grid and open in the item editor, the write made through
// the feature's own UI, then the grid and the editor follow it without a reload, History lists it
// under its source, and its Undo puts back exactly the raw wire JSON DynamoDB Local held before.
const sample = 'DynoTableSample';
const stamp = Date.now().toString(36);
const copySource = `CopyWalk-${stamp}`;
const fixTable = `FixWalk-${stamp}`;
const ttlTable = `TtlWalk-${stamp}`;
const slow = { timeout: 120_000 };
const walkTime = 300_000;
const NOW = Math.floor(Date.now() / 1000);

const session = useAppInBrowser({ withPlayground: true });
const page = () => session.browser.page;
const endpoint = () => session.playgroundEndpoint;

/**
 * Opens one of the sample's orders in the grid and the editor: its walk, its currency as loaded,
 * its raw wire JSON (canonical, to compare after Undo) and as stored (to write a changed copy).
 */
async function openSampleOrder(index: number) {
  const order = ordersWithCurrency()[index]!;
  const key = { PK: order.PK, SK: order.SK };
  const walk = writeWalk(page, endpoint, {
    table: sample,
    pk: valueText(order.PK),
    sk: valueText(order.SK),
    key,
  });
  await walk.openInGridAndEditor();
  const loaded = valueText(order.currency);
  await expect.poll(() => walk.field('currency').inputValue(), slow).toBe(loaded);
  const stored = (await rawGetItem(endpoint(), sample, key))!;
  return { walk, loaded, before: await walk.raw(), stored };
}

beforeAll(async () => {
  const client = session.playgroundClient;
  await createTable(client, copySource, { partitionKey: ['PK', 'S'], sortKey: ['SK', 'S'] });
  await createTable(client, fixTable, { partitionKey: ['pk', 'S'], sortKey: ['sk', 'N'] });
  // A dynamoose 4.x nested update left a top-level "address.city" beside the map it meant.
  await putItems(client, fixTable, [
    ...[1, 2].map((i) => ({
      pk: { S: `order#00${i}` },
      sk: { N: String(i) },
      address: { M: { city: { S: 'Madrid' }, zip: { S: '46001' } } },
      'address.city': { S: 'Valencia' },
    })),
    { pk: { S: 'order#003' }, sk: { N: '3' }, address: { M: { city: { S: 'Lyon' } } } },
  ]);
  await createTable(client, ttlTable, { partitionKey: ['pk', 'S'], sortKey: ['sk', 'S'] });
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: ttlTable,
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    }),
  );
  // Two sessions with their TTL in milliseconds (they would never expire), one in seconds.
  await putItems(client, ttlTable, [
    { pk: { S: 'SESSION#a' }, sk: { S: 'S' }, expiresAt: { N: String((NOW + 86_400) * 1000) } },
    { pk: { S: 'SESSION#b' }, sk: { S: 'S' }, expiresAt: { N: String((NOW + 7_200) * 1000) } },
    { pk: { S: 'SESSION#c' }, sk: { S: 'S' }, expiresAt: { N: String(NOW + 3_600) } },
  ]);
}, 120_000);

/** Opens a table's Items tab (the playground's first open scans it) and waits for its rows. */
async function showTable(table: string): Promise<void> {
  await openPlaygroundTable(page(), table, 'Items');
  await page()
    .locator('.progress-line')
    .filter({ hasText: /^\d+ items/ })
    .waitFor(slow);
}

/** Imports one JSON line (S3 export format) that replaces the stored item, through the Import dialog. */
async function importReplacing(item: Record<string, unknown>): Promise<void> {
  const file = path.join(session.app.dataDir, 'walk-import.jsonl');
  await writeFile(file, `${JSON.stringify({ Item: item })}\n`);
  await page().getByRole('button', { name: 'Import…' }).click();
  const importing = page().getByRole('dialog', { name: `Import into ${sample}` });
  await importing.getByRole('radio', { name: 'Replace existing items' }).check();
  await importing.getByLabel('File to upload and import').setInputFiles(file);
  await importing.getByText('Uploaded walk-import.jsonl').waitFor(slow);
  await importing.getByRole('button', { name: 'Dry run' }).click();
  await importing.getByText('Dry run: 1 read · 1 would be written').waitFor(slow);
  await importing.getByRole('button', { name: 'Import', exact: true }).click();
  await importing.getByText('1 read · 1 written', { exact: false }).waitFor(slow);
  await importing.getByRole('button', { name: 'Close', exact: true }).click();
}

describe('more write sources show everywhere and are undone exactly', () => {
  it(
    'import: a file line that replaces the open item shows in the grid and the editor, and History undoes it',
    async () => {
      await session.openPage();
      await showTable(sample);
      const { walk, loaded, before, stored } = await openSampleOrder(4);
      const since = Date.now();
      await importReplacing({ ...stored, currency: { S: 'XAU' } });

      await walk.shows('currency', 'XAU');
      await walk.editor().getByText('Shows what an import stored just now.').waitFor(slow);
      await walk.undoNewestFromHistory({ before, reason: /^Import( from | \()/, count: '1 item', since });
      await walk.shows('currency', loaded);
      expect(session.browser.pageErrors).toEqual([]);
    },
    walkTime,
  );

  it(
    'import, with unsaved edits in the editor: the three-way view names the import, and History undoes it',
    async () => {
      const { walk, loaded, before, stored } = await openSampleOrder(6);
      await walk.field('status').fill('ON HOLD');
      const since = Date.now();
      await importReplacing({ ...stored, currency: { S: 'XPD' } });

      await untilShows(walk.row(), 'XPD');
      const conflict = walk.editor().getByRole('region', { name: 'Conflict' });
      await conflict.getByRole('heading', { name: /^This item was changed by an import$/ }).waitFor(slow);
      const cells = (name: string) =>
        conflict.getByRole('row', { name: new RegExp(`^${name}`) }).getByRole('cell');
      await expect
        .poll(() => cells('currency').allInnerTexts())
        .toEqual([
          'currency',
          JSON.stringify({ S: loaded }),
          JSON.stringify({ S: 'XPD' }),
          JSON.stringify({ S: loaded }),
        ]);
      await screenshots(page(), 'editor-changed-by-import', walk.editor());
      await conflict.getByRole('button', { name: 'Discard mine, keep theirs' }).click();
      await expect.poll(() => walk.field('currency').inputValue(), slow).toBe('XPD');
      await walk.editor().getByText('No changes.').waitFor(slow);

      await walk.undoNewestFromHistory({ before, reason: /^Import( from | \()/, count: '1 item', since });
      await walk.shows('currency', loaded);
      expect(session.browser.pageErrors).toEqual([]);
    },
    walkTime,
  );

  it(
    'copy: a copy that overwrites the open item in an existing table shows in the grid and the editor, and History undoes it',
    async () => {
      const { walk, loaded, before, stored } = await openSampleOrder(5);
      await putItems(session.playgroundClient, copySource, [
        { ...(stored as Record<string, AttributeValue>), currency: { S: 'XAG' } },
      ]);
      const since = Date.now();

      await openPlaygroundTable(page(), copySource, 'Items');
      await page().getByRole('button', { name: 'Copy to…' }).click();
      const dialog = page().getByRole('dialog', { name: `Copy ${copySource} to…` });
      await dialog.getByRole('radio', { name: 'The whole table' }).check();
      await dialog.getByLabel('Target table').fill(sample);
      await dialog.getByRole('radio', { name: 'Overwrite existing items' }).check();
      await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
      // The report: the target existed (not "(created)"), so its replaced item is journaled.
      const report = dialog.getByRole('status').filter({ hasText: `Copied ${copySource} to ${sample}.` });
      await report.waitFor(slow);
      await expect.poll(() => report.innerText()).toMatch(/Written\s*1\s*Skipped\s*0\s*Failed\s*0/);
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();

      await page()
        .getByRole('tablist', { name: 'Open tabs' })
        .getByRole('tab', { name: sample, exact: true })
        .click();
      await page().getByRole('tab', { name: 'Items', exact: true }).click();
      await walk.shows('currency', 'XAG');
      await walk.editor().getByText('Shows what a copy into this table stored just now.').waitFor(slow);
      await walk.undoNewestFromHistory({
        before,
        reason: new RegExp(`^Copy from ${copySource} `),
        count: '1 item',
        since,
      });
      await walk.shows('currency', loaded);
      expect(session.browser.pageErrors).toEqual([]);
    },
    walkTime,
  );

  it(
    "fix: the pre-flight's Run fix rewrites the open item, the grid and the editor follow, and History undoes it",
    async () => {
      const walk = writeWalk(page, endpoint, {
        table: fixTable,
        pk: 'order#001',
        sk: '1',
        key: { pk: { S: 'order#001' }, sk: { N: '1' } },
      });
      await showTable(fixTable);
      await walk.openInGridAndEditor('order#001');
      // The JSON view shows the whole item; the grid the top-level "address.city" beside the map.
      await walk.editor().getByRole('tab', { name: 'DynamoDB JSON' }).click();
      const json = async () =>
        (await walk.editor().getByLabel('Item as DynamoDB JSON').innerText()).replace(/\s+/g, '');
      await expect.poll(json, slow).toContain('"city":{"S":"Madrid"}');
      expect(await json()).toContain('"address.city":{"S":"Valencia"}');
      await untilShows(walk.row(), 'Valencia');
      const before = await walk.raw();
      const since = Date.now();

      await page().getByRole('tab', { name: 'Pre-flight', exact: true }).click();
      await page().getByRole('button', { name: 'Scan table' }).click();
      await page().locator('.mig-verdict').waitFor(slow);
      await page()
        .getByRole('radio', { name: /Top-level wins/ })
        .check();
      await page().getByRole('button', { name: 'Dry run' }).click();
      await page().locator('.mig-plan').waitFor(slow);
      await page()
        .getByRole('button', { name: /Run fix/ })
        .click();
      await page()
        .locator('.mig-result')
        .filter({ hasText: /Fix finished\. 2 written/ })
        .waitFor(slow);

      await page().getByRole('tab', { name: 'Items', exact: true }).click();
      // Top-level wins: the map takes Valencia and the top-level attribute goes, in both views (the
      // editor, shown again, opens on its form: back to its JSON).
      await walk.editor().getByText("Shows what the pre-flight's fix stored just now.").waitFor(slow);
      await walk.editor().getByRole('tab', { name: 'DynamoDB JSON' }).click();
      await expect.poll(() => walk.row().innerText(), slow).not.toContain('Valencia');
      await expect.poll(json, slow).toContain('"city":{"S":"Valencia"}');
      expect(await json()).not.toContain('"address.city"');
      await walk.undoNewestFromHistory({
        before,
        reason: new RegExp(`^Pre-flight fix of ${fixTable}$`),
        count: '2 items',
        since,
      });
      await untilShows(walk.row(), 'Valencia');
      await expect.poll(json, slow).toContain('"city":{"S":"Madrid"}');
      expect(session.browser.pageErrors).toEqual([]);
    },
    walkTime,
  );

  it(
    "health: the Health tab's TTL fix rewrites the open item, the grid and the editor follow, and History undoes it",
    async () => {
      const walk = writeWalk(page, endpoint, {
        table: ttlTable,
        pk: 'SESSION#a',
        sk: 'S',
        key: { pk: { S: 'SESSION#a' }, sk: { S: 'S' } },
      });
      const inMs = String((NOW + 86_400) * 1000);
      const inSeconds = String(NOW + 86_400);
      await showTable(ttlTable);
      await walk.openInGridAndEditor('SESSION#a');
      await walk.shows('expiresAt', inMs);
      const before = await walk.raw();
      const since = Date.now();

      await page().getByRole('tab', { name: 'Health', exact: true }).click();
      await page().getByLabel('Read').selectOption('full');
      await page().getByRole('button', { name: 'Check health' }).click();
      const findings = page().getByRole('region', { name: /^Findings/ });
      await findings.waitFor(slow);
      await findings.getByRole('button', { name: 'Stage the fix (dry run)' }).click();
      await findings.getByRole('button', { name: 'Convert 2 values to seconds' }).click(slow);
      await findings.getByText('Converted 2 values of expiresAt to seconds').waitFor(slow);

      await page().getByRole('tab', { name: 'Items', exact: true }).click();
      await walk.shows('expiresAt', inSeconds);
      await walk.editor().getByText("Shows what the Health tab's TTL fix stored just now.").waitFor(slow);
      await walk.undoNewestFromHistory({
        before,
        count: '2 items',
        since,
        reason: new RegExp(`^Health fix of ${ttlTable}: TTL values in milliseconds written as seconds$`),
        screenshot: 'history-health-fix',
      });
      await walk.shows('expiresAt', inMs);
      expect(session.browser.pageErrors).toEqual([]);
    },
    walkTime,
  );

  it(
    'purge and table deletion, not journaled item by item, say in their confirmation that they cannot be undone',
    async () => {
      // A page of its own: a walk that failed may have left a dialog open.
      await session.openPage();
      await openPlaygroundTable(page(), ttlTable, 'Overview');
      const purge = page().getByRole('group', { name: 'Purge items' });
      await purge.scrollIntoViewIfNeeded(slow);
      await expect.poll(() => purge.innerText()).toMatch(/It cannot be undone\./);
      const deleting = page().getByRole('group', { name: 'Delete table' });
      await expect.poll(() => deleting.innerText()).toMatch(/it cannot be\s+undone\./);
    },
    walkTime,
  );
});
