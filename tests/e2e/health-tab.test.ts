import { type AttributeValue, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOUDWATCH_ENDPOINT_ENV } from '../../src/main/health/cloudwatch';
import { createTable, putItems } from '../support/dynamo-tables';
import { type FakeCloudWatch, startFakeCloudWatch } from '../support/fake-cloudwatch';
import { rawScanItems } from '../support/raw-dynamo';
import { seriousAxeViolations } from './support/axe';
import { useColorScheme } from './support/browser';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// The Health tab driven like a user against the playground's DynamoDB Local, CloudWatch served by
// a local server speaking its JSON protocol to the app's real CloudWatch client.
const session = useAppInBrowser({ withPlayground: true });
const slow = { timeout: 120_000 };
const table = `Health-${Date.now().toString(36)}`;
const NOW = Math.floor(Date.now() / 1000);
let cw: FakeCloudWatch;

beforeAll(async () => {
  cw = await startFakeCloudWatch();
  process.env[CLOUDWATCH_ENDPOINT_ENV] = cw.endpoint;
  // A day of traffic with a shape: the table's reads rise and fall, byCustomer is read, byStatus
  // only written, and the table's reads were throttled in a few periods.
  cw.metricValue = ({ metric, index, t }) => {
    const hour = t / 3600;
    if (metric === 'ConsumedWriteCapacityUnits') return index ? 12 : 20 + 8 * Math.sin(hour / 2);
    if (metric === 'ConsumedReadCapacityUnits')
      return index === undefined ? 35 + 25 * Math.sin(hour / 3) : index === 'byCustomer' ? 14 : 0;
    if (metric === 'ReadThrottleEvents')
      return !index && Math.round(hour) % 7 === 0 && t % 3600 === 0 ? 30 : 0;
    return 0;
  };
  const client = session.playgroundClient;
  await createTable(client, table, {
    partitionKey: ['pk', 'S'],
    sortKey: ['sk', 'S'],
    globalIndexes: [
      { name: 'byStatus', partitionKey: ['status', 'S'] },
      { name: 'byCustomer', partitionKey: ['customer', 'S'] },
    ],
  });
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: table,
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    }),
  );
  const items: Record<string, AttributeValue>[] = [
    ...Array.from({ length: 24 }, (_, i) => ({
      pk: { S: 'TENANT#hot' },
      sk: { S: `ORDER#${i}` },
      status: { S: 'open' },
      customer: { S: `C#${i % 5}` },
      notes: { S: 'n'.repeat(2500) },
      expiresAt: { N: String((NOW + 86_400) * (i % 2 === 0 ? 1000 : 1)) },
    })),
    // Expired an hour ago, not yet deleted by DynamoDB.
    { pk: { S: 'SESSION#old' }, sk: { S: 'S' }, expiresAt: { N: String(NOW - 3600) } },
    ...Array.from({ length: 12 }, (_, i) => ({
      pk: { S: `TENANT#t${i}` },
      sk: { S: 'PROFILE' },
      expiresAt: { S: String(NOW + 60) },
    })),
    { pk: { S: 'BIG#1' }, sk: { S: 'BLOB' }, blob: { S: 'x'.repeat(380 * 1024) } },
  ];
  await putItems(client, table, items);
}, 120_000);
afterAll(async () => {
  Reflect.deleteProperty(process.env, CLOUDWATCH_ENDPOINT_ENV);
  await cw.close();
});

describe('Health tab', () => {
  it('finds the hot key, the big item, the TTL in ms and the unread index, and fixes the TTL on confirmation', async () => {
    const page = await session.openPage();
    await openPlaygroundTable(page, table, 'Health');
    await page.getByLabel('Read').selectOption('full');
    await page.getByRole('button', { name: 'Check health' }).click();
    const findings = page.getByRole('region', { name: /^Findings/ });
    await findings.waitFor(slow);
    const text = await findings.innerText();
    expect(text).toContain('12 items have their TTL in milliseconds: they never expire');
    expect(text).toContain('One partition key holds 63% of the items');
    expect(text).toContain('1 item past its TTL still present');
    // No SQL of this connection reads byCustomer: the proposal says it rests on no record.
    expect(text).toContain(
      'Index byCustomer projects more than keys, with no recorded read of it: KEYS_ONLY would do',
    );
    expect(text).toContain('DynoTable has no record of what reads this index');
    expect(text).toContain('1 item is within 12.5% of the 400 KB item limit');
    expect(text).toContain('Index byStatus is written but never read');
    expect(text).toContain('12 items have a TTL that is not a number');
    const figures = page.getByRole('region', { name: 'Figures' });
    // The charts' numbers, as a screen reader reads them.
    await expect
      .poll(() => figures.getByRole('table', { name: /Top partition keys/ }).innerText())
      .toContain('TENANT#hot');
    // Each line of the capacity chart is a column of its numbers table, throttling included.
    const reads = figures.getByRole('table', { name: /^Read capacity per 15-minute period/ });
    const headers = await reads.getByRole('columnheader').allInnerTexts();
    expect(headers.slice(0, 3)).toEqual([
      'Period',
      `${table} (table) consumed`,
      `${table} (table) throttled requests`,
    ]);
    expect(headers.slice(3).sort()).toEqual(['byCustomer (index) consumed', 'byStatus (index) consumed']);
    await expect.poll(() => figures.innerText()).toContain('(us-east-1)');
    // axe-core on the tab in both themes: contrast of badges, charts' text and the notes.
    for (const scheme of ['light', 'dark'] as const) {
      await useColorScheme(page, scheme);
      expect(await seriousAxeViolations(page, { include: '.health-page' }), scheme).toEqual([]);
    }
    await useColorScheme(page, 'light');
    await screenshots(page, 'health-findings', findings, { block: 'start' });
    // The projection finding's change: a new index with KEYS_ONLY, since a projection cannot change in place.
    const projection = findings.getByRole('listitem').filter({ hasText: 'Index byCustomer projects more' });
    await projection.getByText('Show the CloudFormation / CDK change').click();
    await expect
      .poll(() => projection.getByLabel('CloudFormation').innerText())
      .toContain('ProjectionType: KEYS_ONLY');
    await screenshots(page, 'health-projection', projection, { block: 'start' });
    await screenshots(page, 'health-figures', figures, { block: 'start' });

    // The hot key's items: its item collection as a Query in the Items tab.
    await findings.getByRole('button', { name: 'Query pk=TENANT#hot in the Items tab' }).click();
    await page.getByRole('tab', { name: 'Items', exact: true, selected: true }).waitFor(slow);
    await page.getByText('ORDER#23', { exact: true }).first().waitFor(slow);
    await page.getByRole('tab', { name: 'Health', exact: true }).click();

    // The expired item opens in the item editor too.
    await findings.getByRole('button', { name: 'Open pk=SESSION#old · sk=S in the item editor' }).click();
    await page.getByRole('tab', { name: 'Items', exact: true, selected: true }).waitFor(slow);
    await page.getByRole('tab', { name: 'Health', exact: true }).click();

    // The big item opens in the item editor.
    await findings.getByRole('button', { name: 'Open pk=BIG#1 · sk=BLOB in the item editor' }).click();
    await page.getByRole('tab', { name: 'Items', exact: true, selected: true }).waitFor(slow);
    await page.getByRole('tab', { name: 'Health', exact: true }).click();

    // The TTL fix: staged first (a dry run), written only on confirmation.
    await findings.getByRole('button', { name: 'Stage the fix (dry run)' }).click();
    const convert = findings.getByRole('button', { name: 'Convert 12 values to seconds' });
    await convert.waitFor(slow);
    const before = await rawScanItems(session.playgroundEndpoint, table);
    expect(before.filter((i) => (i.expiresAt as { N?: string } | undefined)?.N?.length === 13)).toHaveLength(
      12,
    );
    await convert.click();
    await findings.getByText('Converted 12 values of expiresAt to seconds').waitFor(slow);
    const after = await rawScanItems(session.playgroundEndpoint, table);
    expect(after.filter((i) => (i.expiresAt as { N?: string } | undefined)?.N?.length === 13)).toHaveLength(
      0,
    );
  });

  it('shows the last report after a reload, and says plainly when CloudWatch is unreachable', async () => {
    Reflect.deleteProperty(process.env, CLOUDWATCH_ENDPOINT_ENV);
    const page = await session.openPage();
    await openPlaygroundTable(page, table, 'Health');
    // The report of the first test, from the data folder, with its time.
    await page.getByText(/^Last checked .+ \(full scan, CloudWatch 24h\)\.$/).waitFor(slow);
    await page.getByRole('region', { name: /^Findings/ }).waitFor(slow);
    await screenshots(page, 'health-last-report', page.getByRole('region', { name: 'Health' }), {
      block: 'start',
    });
    await page.getByRole('button', { name: 'Run again' }).click();
    const note = page.getByRole('note').filter({ hasText: 'CloudWatch unreachable' });
    await note.waitFor(slow);
    await expect.poll(() => note.innerText()).toContain('DynamoDB Local has no CloudWatch');
    await page.getByRole('region', { name: /^Findings/ }).waitFor(slow);
    await screenshots(page, 'health-no-cloudwatch', note, { block: 'start' });
    process.env[CLOUDWATCH_ENDPOINT_ENV] = cw.endpoint;
  });
});
