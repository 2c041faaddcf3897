import { DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// Creating and changing tables like a user: the real browser-mode server and core, the
// playground's DynamoDB Local, Debian's Chromium. No fixed sleeps.
const slow = { timeout: 120_000 };
const session = useAppInBrowser({ withPlayground: true });
const table = `Shop-${Date.now().toString(36)}`;

async function describeStored(name: string) {
  return (await session.playgroundClient.send(new DescribeTableCommand({ TableName: name }))).Table;
}

/** Light and dark, at the two window sizes people use most. */
describe('Create and change tables', () => {
  it('creates a table from the single-table template and sees it ACTIVE in the list', async () => {
    const page = await session.openPage();
    await page.getByRole('button', { name: 'Open playground' }).click();
    await page.getByRole('button', { name: 'Create table' }).click(slow);
    const dialog = page.getByRole('dialog', { name: /Create table/ });
    await dialog.getByRole('radio', { name: /Single-table design/ }).click();
    await dialog.getByLabel('Table name').fill('x y');
    await dialog.getByRole('button', { name: 'Create table' }).click();
    // Bad input is said at its field and nothing is sent.
    await dialog.getByText('A table name may contain only letters, digits').waitFor();
    await dialog.getByLabel('Table name').fill(table);
    expect(
      await dialog.getByText(/DynamoDB Local accepts a table class and tags but keeps neither/).count(),
    ).toBe(1);
    const request = dialog.getByRole('tabpanel', { name: 'SDK v3' });
    expect(await request.innerText()).toContain(`"TableName": "${table}"`);
    expect(await request.innerText()).toContain('"IndexName": "GSI1"');
    await dialog.getByRole('tab', { name: 'AWS CLI' }).click();
    expect(await dialog.getByRole('tabpanel', { name: 'AWS CLI' }).innerText()).toMatch(
      /^aws dynamodb create-table --cli-input-json/,
    );
    await dialog.locator('.dialog-body').evaluate((body) => body.scrollTo(0, 0));
    await screenshots(page, 'tables-create-form');
    await dialog.getByRole('button', { name: 'Create table' }).click();
    await dialog
      .getByRole('status')
      .filter({ hasText: `${table} is ACTIVE` })
      .waitFor(slow);

    const stored = await describeStored(table);
    expect(stored?.KeySchema).toEqual([
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ]);
    expect(stored?.GlobalSecondaryIndexes?.map((g) => g.IndexName)).toEqual(['GSI1']);
    const ttl = await session.playgroundClient.send(new DescribeTimeToLiveCommand({ TableName: table }));
    expect(ttl.TimeToLiveDescription).toMatchObject({
      TimeToLiveStatus: 'ENABLED',
      AttributeName: 'expiresAt',
    });

    await dialog.getByRole('button', { name: 'Close' }).click();
    const row = page.getByRole('row').filter({ hasText: table });
    await row.waitFor(slow);
    expect(await row.innerText()).toContain('1 GSI');
    expect(session.browser.pageErrors).toEqual([]);
  });

  it("adds a GSI from the table's Overview and follows it until ACTIVE", async () => {
    const { page } = session.browser;
    await page.getByRole('button', { name: table, exact: true }).click();
    // A table opens on its items; Overview is one click away.
    await page.getByRole('tab', { name: 'Overview' }).click();
    const change = page.getByRole('region', { name: 'Change' });
    await change.getByLabel('What to change').selectOption('addIndex');
    await change.getByText(/Adds the global index GSI2: DynamoDB backfills it/).waitFor();
    await change.scrollIntoViewIfNeeded();
    await screenshots(page, 'tables-change-add-index');
    await change.getByRole('button', { name: 'Apply change' }).click();
    await change
      .getByRole('status')
      .filter({ hasText: `${table} is ACTIVE` })
      .waitFor(slow);
    const stored = await describeStored(table);
    expect(stored?.GlobalSecondaryIndexes?.map((g) => [g.IndexName, g.IndexStatus]).sort()).toEqual([
      ['GSI1', 'ACTIVE'],
      ['GSI2', 'ACTIVE'],
    ]);
    // The Overview shows the new index without a manual refresh.
    await page
      .getByRole('region', { name: /Indexes/ })
      .getByRole('cell', { name: 'GSI2', exact: true })
      .waitFor(slow);

    await change.getByLabel('What to change').selectOption('pitr');
    await change.getByText('DynamoDB Local does not implement point-in-time recovery').waitFor();
    expect(await change.getByRole('button', { name: 'Apply change' }).count()).toBe(0);

    const deleting = change.getByRole('group', { name: 'Delete table' });
    await deleting.getByLabel('Type the table name to confirm').fill(table);
    await deleting.getByRole('button', { name: 'Delete table' }).click();
    await page.getByRole('row').filter({ hasText: 'DynoTableSample' }).waitFor(slow);
    await expect(describeStored(table)).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    // The list reloads after the delete: wait for the row to leave rather than count a snapshot.
    await expect.poll(() => page.getByRole('row').filter({ hasText: table }).count(), slow).toBe(0);
    expect(session.browser.pageErrors).toEqual([]);
  });
});
