import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useColorScheme } from './support/browser';
import { useAppInBrowser } from './support/session';
import { canonicalItems, rawPutAll, rawScanAll } from '../support/copy-oracle';
import { rawDynamo } from '../support/raw-dynamo';
import { type ExportStack, startExportStack } from '../support/exports/export-stack';

// The Exports view driven like a user: the real browser-mode server and core, Debian's Chromium,
// s3rver as S3 and the tests' export server (ExportTableToPointInTime, DescribeExport,
// ListExports, ImportTable) in front of the playground's DynamoDB Local, on one endpoint.
const slow = { timeout: 60_000 };
const session = useAppInBrowser({ withPlayground: true });
const bucket = 'e2e-exports';
const label = 'Exports (local S3)';
const table = `Orders-${Date.now().toString(36)}`;
let stack: ExportStack;

beforeAll(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  const dynamoEndpoint = session.playgroundEndpoint;
  stack = await startExportStack(dynamoEndpoint, { buckets: [bucket], holdMs: 1_500 });
  await session.app.core.connections.save({
    label,
    color: '#1f6feb',
    kind: 'default-chain',
    region: 'us-east-1',
    endpoint: stack.server.endpoint,
    readOnly: false,
    isProduction: false,
  });
  await rawDynamo(dynamoEndpoint, 'CreateTable', {
    TableName: table,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'orderId', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'orderId', KeyType: 'HASH' }],
  });
  const items = Array.from({ length: 40 }, (_, i) => ({
    orderId: { S: `order-${String(i).padStart(3, '0')}` },
    product: { S: `widget-${i}` },
    total: { N: `${i}.25` },
  }));
  await rawPutAll(dynamoEndpoint, table, items);
}, 120_000);

afterAll(async () => {
  await stack.stop();
});

async function shots(name: string): Promise<void> {
  const page = session.browser.page;
  for (const [width, height] of [
    [1024, 700],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await session.browser.screenshotBothSchemes(`${name}-${width}x${height}`);
  }
  await useColorScheme(page, 'light');
}

describe('Exports view', () => {
  it('enables PITR, starts an export, follows it to COMPLETED, opens it and shows its items in the grid, then imports it', async () => {
    const page = await session.openPage();
    const card = page.getByTestId('connection-card').filter({ hasText: label });
    await card.getByRole('button', { name: 'Open', exact: true }).click(slow);
    await page.getByRole('button', { name: table, exact: true }).click(slow);
    await page.getByRole('tab', { name: 'Exports', exact: true }).click();

    await page.getByRole('button', { name: 'Enable point-in-time recovery' }).click(slow);
    await page.getByText('restorable from').waitFor(slow);
    await page.getByLabel('Export bucket').fill(bucket);
    await page.getByLabel('Folder in the bucket').fill('nightly');
    await page.getByLabel('Folder in the bucket').press('Enter');
    // Progress while DynamoDB (here the export server) writes the files, then the finished row.
    await page.getByRole('group', { name: `Exporting ${table}` }).waitFor(slow);
    const exportsTable = page.getByRole('table', { name: `Exports of ${table}` });
    const row = exportsTable.getByRole('row').filter({ hasText: 'completed' });
    await row.waitFor(slow);
    await expect.poll(() => row.innerText()).toContain('40');
    await shots('exports-view');
    // Browser mode opens a local folder too, by upload (exports-folder-upload.test.ts drives it).
    await expect.poll(() => page.getByRole('button', { name: 'Open export folder…' }).isEnabled()).toBe(true);

    await row.getByRole('button', { name: /^Open export .* as a result set$/ }).click();
    const dialog = page.getByRole('dialog', { name: /items from S3$/ });
    await dialog.waitFor(slow);
    await expect.poll(() => dialog.getByRole('heading').first().innerText()).toMatch(/40 items from S3/);
    await dialog.getByText('widget-0', { exact: true }).waitFor(slow);
    await dialog.getByText('order-000', { exact: true }).waitFor();
    await shots('exports-opened-grid');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    const target = `${table}-restored`;
    await row.getByRole('button', { name: /^Import export .* into a new table$/ }).click();
    const importDialog = page.getByRole('dialog', { name: 'Import from S3 into a new table' });
    await importDialog.getByLabel('New table name').fill(target);
    await shots('exports-import-dialog');
    await importDialog.getByRole('button', { name: 'Start import' }).click();
    await importDialog.getByText(`40 items in ${target}`, { exact: false }).waitFor(slow);
    await expect
      .poll(async () => canonicalItems(await rawScanAll(session.playgroundEndpoint, target)))
      .toEqual(canonicalItems(await rawScanAll(session.playgroundEndpoint, table)));
    expect(session.browser.pageErrors).toEqual([]);
  }, 300_000);
});
