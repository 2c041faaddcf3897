import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-run';
import { createTable, putItems } from '../support/dynamo-tables';
import { openPlaygroundTable } from './support/playground-table';
import { useAppInBrowser } from './support/session';

// Issue 11: a Date setting the data calls for, acknowledged in the Pre-flight view (who, when,
// why), kept across a reload, and honoured by the CI gate reading the very same file.
const table = 'EventsAcknowledge';
const slow = { timeout: 120_000 };
const session = useAppInBrowser({ withPlayground: true });

beforeAll(async () => {
  const client = session.playgroundClient;
  await createTable(client, table, { partitionKey: ['id', 'S'] });
  await putItems(
    client,
    table,
    ['2024-01-05T10:00:00.000Z', '2024-02-06T11:30:00Z', '2024-03-07'].map((occurredAt, i) => ({
      id: { S: `event#${i}` },
      occurredAt: { S: occurredAt },
    })),
  );
}, 120_000);

const cli = (extra: string[]) =>
  runCli(
    ['scan-migration', '--table', table, '--endpoint', session.playgroundEndpoint, '--quiet', ...extra],
    {
      AWS_REGION: 'us-east-1',
    },
  );

describe('acknowledging a model setting in the pre-flight view', () => {
  it('acknowledges a finding, keeps it across a reload, and the CLI gate agrees', async () => {
    // Before: the gate fails, and the page says a setting is needed.
    const before = await cli([]);
    expect(before.code).toBe(1);

    const page = await session.openPage();
    await openPlaygroundTable(page, table, 'Pre-flight');
    await page.getByRole('button', { name: 'Scan table' }).click();
    const verdict = page.locator('.mig-verdict');
    await verdict.waitFor(slow);
    await expect.poll(() => verdict.innerText(), slow).toContain('the models need a setting');

    await page.getByRole('button', { name: 'Acknowledge the setting for occurredAt' }).click();
    const form = page.getByRole('form', { name: 'Acknowledge the setting for occurredAt' });
    const acknowledge = form.getByRole('button', { name: 'Acknowledge', exact: true });
    // Who and when come from main; why must be said.
    await expect.poll(() => acknowledge.isDisabled()).toBe(true);
    await form
      .getByLabel(/Why: which model stores ISO strings at occurredAt/)
      .fill("EventModel: defaultDateStorage 'iso'");
    await acknowledge.click();
    await expect.poll(() => verdict.innerText(), slow).toContain('Ready: no data fix needed');
    // The scans list says the same as the open report.
    await expect.poll(() => page.locator('.mig-scans tbody tr').first().innerText(), slow).toContain('Ready');
    const card = page.locator('.mig-card').filter({ hasText: 'occurredAt' });
    await expect.poll(() => card.innerText(), slow).toContain("EventModel: defaultDateStorage 'iso'");
    await session.browser.screenshotBothSchemes('migration-acknowledged');

    // A reload: the acknowledgement was saved in main, not kept in the page.
    await page.reload();
    await openPlaygroundTable(page, table, 'Pre-flight');
    await page.locator('.mig-verdict').waitFor(slow);
    await expect
      .poll(() => page.locator('.mig-verdict').innerText(), slow)
      .toContain('Acknowledged model settings: occurredAt ISO strings');
    const list = page.getByRole('region', { name: /Acknowledged model settings/ });
    const row = await list.locator('tbody tr').innerText();
    expect(row).toContain('occurredAt');
    expect(row).toContain("EventModel: defaultDateStorage 'iso'");
    expect(row).toMatch(/\d{4}|\d{1,2}:\d{2}/);

    // The CI gate reads the file the page shows, as it is, and now passes.
    const file = await list.locator('.mig-acks-file code').innerText();
    const stored = JSON.parse(await readFile(file, 'utf8')) as {
      table: string;
      dateStorage: { path: string; storage: string; by: string; at: string; reason: string }[];
    };
    expect(stored.table).toBe(table);
    expect(stored.dateStorage).toEqual([
      expect.objectContaining({
        path: 'occurredAt',
        storage: 'iso',
        reason: "EventModel: defaultDateStorage 'iso'",
      }),
    ]);
    expect(stored.dateStorage[0]?.by.length).toBeGreaterThan(0);
    const after = await cli(['--expectations', file]);
    expect(after.code).toBe(0);
    const report = JSON.parse(after.stdout) as {
      verdict: { acknowledged: unknown[]; actionNeeded: boolean };
    };
    expect(report.verdict).toMatchObject({ actionNeeded: false });
    expect(report.verdict.acknowledged).toEqual([{ path: 'occurredAt', storage: 'iso' }]);

    // Withdrawn: the page and the gate both count the setting as needed again.
    await page.getByRole('button', { name: 'Withdraw the acknowledgement of occurredAt' }).click();
    await expect
      .poll(() => page.locator('.mig-verdict').innerText(), slow)
      .toContain('the models need a setting');
    expect((await cli(['--expectations', file])).code).toBe(1);
  });
});
