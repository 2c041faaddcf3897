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
    await expect
      .poll(() => dialog.getByText(/DynamoDB Local accepts a table class and tags but keeps neither/).count())
      .toBe(1);
    const request = dialog.getByRole('tabpanel', { name: 'SDK v3' });
    await expect.poll(() => request.innerText()).toContain(`"TableName": "${table}"`);
    await expect.poll(() => request.innerText()).toContain('"IndexName": "GSI1"');
    await dialog.getByRole('tab', { name: 'AWS CLI' }).click();
    await expect
      .poll(() => dialog.getByRole('tabpanel', { name: 'AWS CLI' }).innerText())
      .toMatch(/^aws dynamodb create-table --cli-input-json/);
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

    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    const row = page.getByRole('row').filter({ hasText: table });
    await row.waitFor(slow);
    await expect.poll(() => row.innerText()).toContain('1 GSI');
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('starts each Change form from the table as it is, and offers nothing to apply until the user changes it', async () => {
    const { page } = session.browser;
    await page.getByRole('button', { name: table, exact: true }).click();
    await page.getByRole('tab', { name: 'Overview' }).click();
    const change = page.getByRole('region', { name: 'Change' });
    const apply = change.getByRole('button', { name: 'Apply change' });
    const nothingYet = change.locator('.consequence').getByText(/Nothing yet: the form shows/);

    // Billing: the table is on-demand, and so is the form; no "already" error, nothing to apply.
    await expect.poll(() => change.getByLabel('New billing mode').inputValue()).toBe('PAY_PER_REQUEST');
    await nothingYet.waitFor();
    await expect.poll(() => apply.isDisabled()).toBe(true);
    await expect.poll(() => change.getByText(/already on-demand/).count()).toBe(0);
    await change.getByLabel('New billing mode').selectOption('PROVISIONED');
    // The capacity boxes say their units next to the numbers, not in a placeholder.
    await change.getByText('RCU', { exact: true }).waitFor();
    await change.getByText('WCU', { exact: true }).waitFor();
    await expect.poll(() => change.getByLabel('Capacity: read capacity units').inputValue()).toBe('5');
    await change.scrollIntoViewIfNeeded();
    await screenshots(page, 'tables-change-billing');
    await expect.poll(() => apply.isEnabled()).toBe(true);

    // TTL is on with expiresAt: the switch shows it on, and turning it off is the user's change.
    await change.getByLabel('What to change').selectOption('ttl');
    const ttlSwitch = change.getByRole('switch', { name: 'Time to live on' });
    await expect.poll(() => ttlSwitch.isChecked()).toBe(true);
    await expect.poll(() => change.getByLabel('TTL attribute').inputValue()).toBe('expiresAt');
    await nothingYet.waitFor();
    await expect.poll(() => apply.isDisabled()).toBe(true);
    // The switch is drawn over its checkbox: a user clicks its label.
    await change.locator('label.switch', { hasText: 'Time to live on' }).click();
    await expect.poll(() => ttlSwitch.isChecked()).toBe(false);
    await change.getByText(/stops deleting expired items/).waitFor();
    await expect.poll(() => apply.isEnabled()).toBe(true);

    // After "Changed." the form shows the new setting, and the reverse change is not ready to go.
    await change.getByLabel('What to change').selectOption('deletionProtection');
    const protection = change.getByRole('switch', { name: 'Deletion protection on' });
    await expect.poll(() => protection.isChecked()).toBe(false);
    const protectionLabel = change.locator('label.switch', { hasText: 'Deletion protection on' });
    await protectionLabel.click();
    await apply.click();
    await change.getByRole('status').filter({ hasText: 'Changed.' }).waitFor(slow);
    await expect.poll(async () => (await describeStored(table))?.DeletionProtectionEnabled).toBe(true);
    await expect.poll(() => protection.isChecked()).toBe(true);
    await nothingYet.waitFor();
    await expect.poll(() => apply.isDisabled()).toBe(true);
    await protectionLabel.click();
    await apply.click();
    await expect.poll(async () => (await describeStored(table))?.DeletionProtectionEnabled, slow).toBe(false);

    // A new index starts with a partition key only: a sort key is the user's choice.
    await change.getByLabel('What to change').selectOption('addIndex');
    await change.getByRole('button', { name: 'GSI2: add sort attribute' }).waitFor();
    await expect.poll(() => change.getByLabel(/sort attribute 1 name/).count()).toBe(0);
    await expect.poll(() => change.getByText('GSI2SK').count()).toBe(0);
    expect(session.browser.pageErrors).toEqual([]);
  });

  it("adds a GSI from the table's Overview and follows it until ACTIVE", async () => {
    const { page } = session.browser;
    await page.getByRole('tab', { name: 'Tables', exact: true }).click();
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
    await expect.poll(() => change.getByRole('button', { name: 'Apply change' }).count()).toBe(0);

    const deleting = change.getByRole('group', { name: 'Delete table' });
    await deleting.getByLabel('Type the table name to confirm').fill(table);
    await deleting.getByRole('button', { name: 'Delete table' }).click();
    // The table list takes the deleted table's place, focus in its filter, and says what happened.
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'deleted.' }).innerText(), slow)
      .toBe(`Table ${table} deleted.`);
    await expect
      .poll(() =>
        page.getByLabel('Filter tables', { exact: true }).evaluate((e) => e === document.activeElement),
      )
      .toBe(true);
    await page.getByRole('row').filter({ hasText: 'DynoTableSample' }).waitFor(slow);
    await expect(describeStored(table)).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    // The list reloads after the delete: wait for the row to leave rather than count a snapshot.
    await expect.poll(() => page.getByRole('row').filter({ hasText: table }).count(), slow).toBe(0);
    expect(session.browser.pageErrors).toEqual([]);
  });
});
