import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_TABLE, sampleItems } from '../../resources/playground/sample-table';
import { startBigTableAws, type BigTableAws } from '../support/athena/big-table-aws';
import type { Locator, Page } from 'playwright-core';
import { E2E_KEYS_ACCESS_KEY_ID } from './support/app';
import { seriousAxeViolations } from './support/axe';
import { useColorScheme } from './support/browser';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// Issue 17 as a user meets it: a table DescribeTable reports as 200 GB (the playground's sample
// table behind a local "AWS" endpoint: DynamoDB Local + the export server, Glue and Athena on
// the local Athena/Glue server over the export in a local S3). Run in the SQL workbench shows
// both paths and runs nothing; the user picks Athena, agrees to the export, and the rows land
// in the grid. Every AWS call is made by main's real SDK clients.
const slow = { timeout: 60_000 };
const session = useAppInBrowser({ withPlayground: true });
const statement = `SELECT PK, SK, status FROM "${SAMPLE_TABLE}" WHERE status = 'DELIVERED'`;
let aws: BigTableAws;

beforeAll(async () => {
  aws = await startBigTableAws({
    dynamoEndpoint: session.playgroundEndpoint,
    sizes: new Map([[SAMPLE_TABLE, { sizeBytes: 200e9, itemCount: 400_000_000 }]]),
    buckets: ['exports', 'results'],
    runMs: 300,
    // The connection signs with the e2e-keys profile; the run reads the export's files from S3.
    accessKeyIds: [E2E_KEYS_ACCESS_KEY_ID],
  });
}, 60_000);
afterAll(async () => {
  await aws.close();
});

/** The element's centre is inside the window and it is what a click there reaches. */
function onScreen(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return hit !== null && (hit === element || element.contains(hit));
  });
}

/** The restored workspace reopens Big tables; a fresh one shows the picker's card instead. */
async function openSql(page: Page): Promise<void> {
  const sqlTab = page.getByRole('tab', { name: 'SQL' });
  const open = page
    .getByTestId('connection-card')
    .filter({ hasText: 'Big tables' })
    .getByRole('button', { name: 'Open', exact: true });
  await Promise.race([sqlTab.waitFor(slow), open.waitFor(slow)]);
  if (!(await sqlTab.isVisible())) await open.click(slow);
  await sqlTab.click(slow);
  await page.getByRole('button', { name: 'orders', exact: true }).waitFor(slow);
}

async function typeStatement(page: Page, statement: string): Promise<void> {
  const editor = page.locator('.sql-editor .cm-content');
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(statement);
}

describe('the plan for a 200 GB table in the SQL workbench', () => {
  it('offers the local scan and Athena, runs nothing until chosen, and shows Athena rows in the grid', async () => {
    const page = await session.openPage();
    const saved = await page.evaluate(async (endpoint) => {
      const response = await fetch('/api/connections:save', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          connection: {
            label: 'Big tables',
            color: '#1f6feb',
            kind: 'profile',
            profile: 'e2e-keys',
            region: 'us-east-1',
            endpoint,
            readOnly: false,
            isProduction: false,
          },
        }),
      });
      return response.ok;
    }, aws.endpoint);
    expect(saved).toBe(true);
    await page.reload();
    const card = page.getByTestId('connection-card').filter({ hasText: 'Big tables' });
    await card.getByRole('button', { name: 'Open', exact: true }).click(slow);
    await page.getByRole('tab', { name: 'SQL' }).click(slow);
    await page.getByRole('button', { name: 'orders', exact: true }).waitFor(slow);

    await typeStatement(page, statement);
    const callsBefore = aws.calls.length;
    await page.keyboard.press('Control+Enter');

    const choice = page.getByRole('region', { name: /choose how to run it/ });
    await choice.waitFor(slow);
    const local = choice.getByRole('group', { name: 'Local scan' });
    const athena = choice.getByRole('group', { name: 'Amazon Athena over an export' });
    await expect.poll(() => choice.innerText()).toMatch(/200 GB is more than the limit/);
    await expect.poll(() => local.innerText()).toMatch(/400,000,000 items, 200 GB/);
    await expect.poll(() => local.innerText()).toMatch(/24,414,063 RCU/);
    await expect.poll(() => athena.innerText()).toMatch(/none in the last 24 hours/);
    await expect.poll(() => athena.innerText()).toMatch(/\$0\.9095 at \$5 per TB/);
    const sql = await athena.locator('pre').innerText();
    expect(sql).toMatch(/FROM "dynotable"\."ddb_/);
    // Nothing ran: no Scan of the table past the small schema sample, no export, no Athena query.
    expect(
      aws.calls.slice(callsBefore).filter((c) => /Athena|Glue|ExportTableToPointInTime/.test(c)),
    ).toEqual([]);
    await expect.poll(() => page.locator('.sql-grid').count()).toBe(0);

    const run = choice.getByRole('button', { name: 'Run on Athena' });
    await expect.poll(() => run.isDisabled()).toBe(true);
    await expect.poll(() => choice.innerText()).toMatch(/Name the query results location/);
    // At the smallest window the choice is made from, the button is on screen, not under it.
    await page.setViewportSize({ width: 1024, height: 700 });
    await expect.poll(() => onScreen(run)).toBe(true);
    await expect.poll(() => onScreen(choice.getByRole('button', { name: 'Scan locally anyway' }))).toBe(true);
    await athena.getByRole('textbox', { name: 'Query results location' }).fill('s3://results/dynotable/');
    await athena.getByRole('textbox', { name: 'Export bucket' }).fill('exports');
    await expect.poll(() => run.isDisabled()).toBe(true);
    await athena.getByRole('checkbox', { name: /Start an export/ }).check();
    await expect.poll(() => onScreen(run)).toBe(true);
    await screenshots(page, 'sql-athena-choice', choice, { block: 'start' });
    await run.click();

    await page.locator('.sql-grid').waitFor(slow);
    const bar = page.locator('.sql-result-bar');
    await expect
      .poll(() => bar.innerText(), slow)
      .toMatch(/Amazon Athena: .* MB scanned · \$0\.0000 · query /);
    const expected = sampleItems().filter((i) => i.status && 'S' in i.status && i.status.S === 'DELIVERED');
    expect(expected.length).toBeGreaterThan(0);
    await expect.poll(() => bar.innerText()).toContain(`${expected.length.toLocaleString('en-US')} row`);
    expect(aws.exportRequests).toHaveLength(1);
    expect(aws.calls).toContain('AmazonAthena.StartQueryExecution');
    const firstKey = expected.map((i) => (i.PK && 'S' in i.PK ? i.PK.S : '')).sort()[0]!;
    await page.locator('.sql-grid').getByText(firstKey).first().waitFor(slow);
    await screenshots(page, 'sql-athena-results');
  });

  it('offers the recent export, and a fresh export the estimate counts, which the run starts', async () => {
    const page = await session.openPage();
    await openSql(page);
    await typeStatement(page, `SELECT PK, SK, status FROM "${SAMPLE_TABLE}" WHERE status = 'SHIPPED'`);
    await page.keyboard.press('Control+Enter');
    const choice = page.getByRole('region', { name: /choose how to run it/ });
    await choice.waitFor(slow);
    const athena = choice.getByRole('group', { name: 'Amazon Athena over an export' });
    // The first test's export is recent: it is what the run reads unless the user asks otherwise.
    await expect.poll(() => athena.innerText()).toMatch(/uses the export of .* \(\d+ min old, /);
    await expect.poll(() => athena.innerText()).toMatch(/Time\s+the query alone: the export is ready/);
    const fresh = athena.getByRole('checkbox', { name: /Start a fresh export instead/ });
    await expect.poll(() => fresh.isChecked()).toBe(false);
    await expect.poll(() => fresh.getAttribute('aria-describedby')).toBeTruthy();
    await expect.poll(() => athena.getByRole('textbox', { name: 'Export bucket' }).count()).toBe(0);
    // Main remembered the first run's settings.
    await expect
      .poll(() => athena.getByRole('textbox', { name: 'Query results location' }).inputValue())
      .toBe('s3://results/dynotable/');
    const reuseScanned = /Data scanned\s+up to ([\d.]+ GB)/.exec(await athena.innerText())?.[1];
    expect(reuseScanned).toBeDefined();
    expect(reuseScanned).not.toBe('200 GB');

    await page.setViewportSize({ width: 1024, height: 700 });
    await fresh.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => fresh.isChecked()).toBe(true);
    // The estimate is athena:plan's with freshExport: the export's time and the table's size.
    await expect
      .poll(() => athena.innerText(), slow)
      .toMatch(/Time\s+about \d+ min to export \(no read capacity used\), then the query/);
    await expect.poll(() => athena.innerText()).toMatch(/a new one, passing over the export of/);
    await expect.poll(() => athena.innerText()).toMatch(/Data scanned\s+up to 200 GB/);
    const bucket = athena.getByRole('textbox', { name: 'Export bucket' });
    await expect.poll(() => bucket.inputValue()).toBe('exports');
    const run = choice.getByRole('button', { name: 'Run on Athena' });
    await expect.poll(() => run.isEnabled()).toBe(true);
    await expect.poll(() => onScreen(run)).toBe(true);
    await expect.poll(() => onScreen(fresh)).toBe(true);
    await expect.poll(() => onScreen(bucket)).toBe(true);
    await screenshots(page, 'sql-athena-fresh-export', choice, { block: 'start' });
    for (const scheme of ['light', 'dark'] as const) {
      await useColorScheme(page, scheme);
      expect(await seriousAxeViolations(page, { include: '.athena-choice' })).toEqual([]);
    }
    await useColorScheme(page, 'light');

    // Unticked, the estimate goes back to reading the recent export.
    await fresh.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => athena.innerText(), slow).toMatch(/the query alone: the export is ready/);
    await page.keyboard.press('Space');
    await expect.poll(() => athena.innerText(), slow).toMatch(/about \d+ min to export/);

    const exportsBefore = aws.exportRequests.length;
    await run.click();
    await page.locator('.sql-grid').waitFor(slow);
    const bar = page.locator('.sql-result-bar');
    await expect.poll(() => bar.innerText(), slow).toMatch(/Amazon Athena: .* MB scanned/);
    const expected = sampleItems().filter((i) => i.status && 'S' in i.status && i.status.S === 'SHIPPED');
    expect(expected.length).toBeGreaterThan(0);
    await expect.poll(() => bar.innerText()).toContain(`${expected.length.toLocaleString('en-US')} row`);
    expect(aws.exportRequests.slice(exportsBefore)).toEqual([
      {
        tableArn: expect.stringMatching(new RegExp(`table/${SAMPLE_TABLE}$`)) as string,
        bucket: 'exports',
        format: 'DYNAMODB_JSON',
      },
    ]);
    const firstKey = expected.map((i) => (i.PK && 'S' in i.PK ? i.PK.S : '')).sort()[0]!;
    await page.locator('.sql-grid').getByText(firstKey).first().waitFor(slow);
  });

  it('cancels a statement running on Athena (StopQueryExecution) and keeps nothing of it', async () => {
    const page = await session.openPage();
    await openSql(page);
    await typeStatement(page, `SELECT PK, status FROM "${SAMPLE_TABLE}" WHERE status <> 'DELIVERED'`);
    aws.athena.setRunMs(20_000);
    try {
      await page.keyboard.press('Control+Enter');
      const choice = page.getByRole('region', { name: /choose how to run it/ });
      await choice.waitFor(slow);
      const athena = choice.getByRole('group', { name: 'Amazon Athena over an export' });
      // The export of the first run is recent, and main remembered where results go.
      await expect.poll(() => athena.innerText()).toMatch(/uses the export of/);
      await expect
        .poll(() => athena.getByRole('textbox', { name: 'Query results location' }).inputValue())
        .toBe('s3://results/dynotable/');
      const stopsBefore = aws.calls.filter((c) => c === 'AmazonAthena.StopQueryExecution').length;
      await choice.getByRole('button', { name: 'Run on Athena' }).click();
      const progress = page.getByRole('group', { name: 'Running' }).filter({ hasText: /Athena: RUNNING/ });
      await progress.waitFor(slow);
      await progress.getByRole('button', { name: 'Cancel' }).click();
      await page.getByText('Cancelled. Nothing partial was kept.').waitFor(slow);
      expect(aws.calls.filter((c) => c === 'AmazonAthena.StopQueryExecution').length).toBe(stopsBefore + 1);
      await expect.poll(() => page.locator('.sql-grid').count()).toBe(0);
      await expect.poll(() => page.getByRole('button', { name: 'Run', exact: true }).isEnabled()).toBe(true);
    } finally {
      aws.athena.setRunMs(300);
    }
  });

  it('sets the scan limit in the toolbar, keeps it after a reload, and runs locally within it', async () => {
    const page = await session.openPage();
    await openSql(page);
    const limitButton = page.getByRole('button', { name: /^Scan limit: / });
    await limitButton.waitFor(slow);
    await expect.poll(() => limitButton.innerText()).toMatch(/^Scan limit: [\d.]+ GB$/);
    await limitButton.click();
    const form = page.getByRole('form', { name: 'Scan limit' });
    await expect.poll(() => form.innerText()).toMatch(/a quarter of this machine's [\d.]+ GB of memory/);
    await form.getByRole('textbox', { name: 'Scan limit in GB' }).fill('300');
    await screenshots(page, 'sql-scan-limit', form);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => limitButton.innerText(), slow).toBe('Scan limit: 300 GB');

    await page.reload();
    await openSql(page);
    await expect.poll(() => limitButton.innerText(), slow).toBe('Scan limit: 300 GB');
    await typeStatement(page, statement);
    await page.keyboard.press('Control+Enter');
    const bar = page.locator('.sql-result-bar');
    await bar.waitFor(slow);
    await expect.poll(() => page.getByRole('region', { name: /choose how to run it/ }).count()).toBe(0);
    await expect.poll(() => bar.innerText(), slow).not.toMatch(/Amazon Athena/);

    await limitButton.click();
    await page
      .getByRole('form', { name: 'Scan limit' })
      .getByRole('button', { name: 'Use the default' })
      .click();
    await expect.poll(() => limitButton.innerText(), slow).not.toBe('Scan limit: 300 GB');
    await expect.poll(() => limitButton.innerText()).toMatch(/^Scan limit: [\d.]+ GB$/);
  });
});
