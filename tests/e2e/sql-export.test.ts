import { describe, expect, it } from 'vitest';
import { sampleItems } from '../../resources/playground/sample-table';
import { downloadedBytes } from './support/downloads';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';
import { runPlaygroundSql } from './support/sql-workbench';

// A SQL result exported from the workbench in browser mode: the one export path
// (GET /api/download/export?sqlResultId=), streamed from main as a download, every row. Real
// browser-mode server and core (the SQL worker included), the playground's DynamoDB Local,
// Chromium; no fixed sleeps.
const slow = { timeout: 60_000 };
const session = useAppInBrowser({ withPlayground: true });

describe('exporting SQL results', () => {
  it('downloads every row of a result as CSV and as a JSON array, as the seed data holds them', async () => {
    const page = await session.openPage();
    await page.setViewportSize({ width: 1024, height: 700 });
    await runPlaygroundSql(page, 'SELECT PK, SK FROM DynoTableSample ORDER BY PK, SK');

    // The independent oracle: the seed data's keys, sorted as ORDER BY sorts strings.
    const keys = sampleItems()
      .map((item) => [(item.PK as { S: string }).S, (item.SK as { S: string }).S] as const)
      .sort(([a, b], [c, d]) => (a !== c ? (a < c ? -1 : 1) : b < d ? -1 : b > d ? 1 : 0));
    const grid = page.getByRole('grid', { name: 'Query results' });
    await expect
      .poll(async () => Number(await grid.getAttribute('aria-rowcount')), slow)
      .toBe(keys.length + 1);

    const format = page.getByRole('combobox', { name: 'Export format' });
    const exportButton = page.getByRole('button', { name: 'Export', exact: true });
    await expect.poll(() => format.inputValue()).toBe('csv');
    let downloading = page.waitForEvent('download');
    await exportButton.click();
    let download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^sql-result-.*\.csv$/);
    expect((await downloadedBytes(download)).toString('utf8')).toBe(
      ['PK,SK', ...keys.map(([pk, sk]) => `${pk},${sk}`), ''].join('\r\n'),
    );

    // Keyboard only: the format and the button are reachable and named.
    await format.focus();
    await format.selectOption('json');
    downloading = page.waitForEvent('download');
    await page.keyboard.press('Tab');
    await expect.poll(() => exportButton.evaluate((b) => b === document.activeElement), slow).toBe(true);
    await page.keyboard.press('Enter');
    download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^sql-result-.*\.json$/);
    const rows = JSON.parse((await downloadedBytes(download)).toString('utf8')) as {
      PK: string;
      SK: string;
    }[];
    expect(rows.map((row) => [row.PK, row.SK])).toEqual(keys.map(([pk, sk]) => [pk, sk]));
    await screenshots(page, 'sql-export', page.locator('.sql-result-bar'));
  });
});
