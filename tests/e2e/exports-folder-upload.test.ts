import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_TABLE } from '../../resources/playground/sample-table';
import { generateExport, type GeneratedExport } from '../support/exports/generate-export';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// Browser mode's "Open export folder…": the page's folder picker (a webkitdirectory input, filled
// through Chromium's file chooser), the upload to the real browser-mode server, the opened export
// in the grid, and SQL over it. The playground is DynamoDB Local, which has no S3 exports: the
// folder opens there all the same.
const slow = { timeout: 60_000 };
const ITEMS = 1_200;
const session = useAppInBrowser({ withPlayground: true });
let folder: string;
let partial: string;
let generated: GeneratedExport;
let large: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'e2e-export-folder-'));
  generated = await generateExport(folder, ITEMS, 3);
  // The same export with one data file lost on the way.
  partial = await mkdtemp(path.join(tmpdir(), 'e2e-export-partial-'));
  await cp(folder, partial, { recursive: true });
  const lost = path.relative(folder, generated.dataFiles[1]!);
  await rm(path.join(partial, lost));
  // One data file of about 750 KB: long enough to upload, on a throttled link, to be cancelled midway.
  large = await mkdtemp(path.join(tmpdir(), 'e2e-export-large-'));
  await generateExport(large, 60_000, 1);
}, 60_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
  await rm(partial, { recursive: true, force: true });
  await rm(large, { recursive: true, force: true });
});

async function pickFolder(page: Page, chosen: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Open export folder…' }).click();
  await (await chooser).setFiles(chosen);
}

async function runSql(page: Page, sql: string): Promise<void> {
  await page.locator('.sql-editor .cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(sql);
  await page.keyboard.press('Control+Enter');
}

describe('opening an export folder in browser mode', () => {
  it('refuses a folder without the layout, naming what is missing, then uploads and opens a whole one', async () => {
    const page = await session.openPage();
    await openPlaygroundTable(page, SAMPLE_TABLE, 'Exports');
    await page.getByText(/copied to this machine opens/).waitFor(slow);
    // DynamoDB Local has no S3 exports: said as a fact, with the client-side copy one click away.
    await expect
      .poll(() => page.locator('.exports-unavailable').innerText())
      .toMatch(/no point-in-time recovery and no S3 exports .*use Copy/);
    await page.getByRole('button', { name: 'Copy to…' }).click();
    const copy = page.getByRole('dialog', { name: new RegExp(`^Copy ${SAMPLE_TABLE}`) });
    await copy.waitFor(slow);
    await page.keyboard.press('Escape');
    await copy.waitFor({ state: 'hidden' });

    await pickFolder(page, path.join(generated.root, 'data'));
    await page.getByText(/holds no DynamoDB export: there is no manifest-summary\.json/).waitFor(slow);

    await pickFolder(page, partial);
    const lacking = page.getByText(/is not a whole export: it lacks 1 of the 3 data files/);
    await lacking.waitFor(slow);
    await expect.poll(() => lacking.innerText()).toContain('data/part1.json.gz');
    await screenshots(page, 'exports-folder-incomplete');

    await pickFolder(page, folder);
    const name = path.basename(folder);
    const dialog = page.getByRole('dialog', { name: `Orders-2026-11-30 · 1,200 items from ${name}` });
    await dialog.waitFor(slow);
    // The lowest key comes first in the grid: customer 0's first order.
    await dialog.getByText('ORDER#00000000', { exact: true }).waitFor(slow);
    await expect.poll(() => page.getByText(/is not a whole export/).count()).toBe(0);
    await screenshots(page, 'exports-folder-opened');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    const note = page.getByText(/^Opened Orders-2026-11-30 · 1,200 items/);
    await expect.poll(() => note.innerText()).toContain('SQL reads it as export."Orders-2026-11-30"');
    await screenshots(page, 'exports-folder-after');

    await page.getByRole('tab', { name: 'SQL', exact: true }).click();
    await runSql(page, 'SELECT COUNT(*) AS n FROM export."Orders-2026-11-30"');
    // The result of this statement (one row, column n), not whatever the grid showed before it.
    const bar = page.locator('.sql-result-bar').filter({ hasText: /^1 row .*ReadExport/ });
    await bar.waitFor(slow);
    await expect.poll(() => bar.innerText()).toContain(`${ITEMS.toLocaleString('en-US')} items`);
    const firstRow = page.locator('.sql-grid [role="row"][aria-rowindex="2"]');
    await expect.poll(() => firstRow.locator('[role="gridcell"]').allInnerTexts()).toEqual([String(ITEMS)]);
    expect(session.browser.pageErrors).toEqual([]);
  }, 300_000);

  it('shows the upload’s progress and cancels it, leaving nothing on the server', async () => {
    const { page } = session.browser;
    await page.getByRole('tab', { name: SAMPLE_TABLE, exact: true }).click();
    await page.getByRole('tab', { name: 'Exports', exact: true }).click();
    // Chromium's own throttling: the upload's bytes leave at 64 KB/s, so there is time to cancel.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 64 * 1024,
    });
    // The export opened before stays (SQL reads it again); the cancelled upload must not.
    const uploads = path.join(session.app.dataDir, 'export-uploads');
    const before = await readdir(uploads);
    expect(before).toHaveLength(1);
    try {
      await pickFolder(page, large);
      const progress = page.getByRole('group', { name: /^Uploading export folder/ });
      await progress.getByText(/2 of 3 files/).waitFor(slow);
      await expect.poll(() => progress.innerText()).toMatch(/· [\d.]+ (B|KB) of [\d.]+ KB$/m);
      await screenshots(page, 'exports-folder-uploading');
      await progress.getByRole('button', { name: 'Cancel upload' }).click();
      await page
        .getByText(/cancelled: what was sent is removed from the server, and nothing was opened/)
        .waitFor(slow);
      await progress.waitFor({ state: 'hidden' });
    } finally {
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
    }
    await expect.poll(() => readdir(uploads), { timeout: 15_000 }).toEqual(before);
    expect(session.browser.pageErrors).toEqual([]);
  }, 120_000);
});
