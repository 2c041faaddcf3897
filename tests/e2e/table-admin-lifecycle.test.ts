import { DescribeTableCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { useAppInBrowser } from './support/session';

// One table's whole life like a user, in Chromium through browser mode against the playground's
// DynamoDB Local: created from the single-table template with a stream, an item added in the
// grid, that write seen in the stream tail, then the table deleted with its typed confirmation.
const slow = { timeout: 120_000 };
const session = useAppInBrowser({ withPlayground: true });
const table = `Life-${Date.now().toString(36)}`;

describe('a table from creation to deletion', () => {
  it('creates from the single-table template, adds an item, sees it in the stream tail, deletes it', async () => {
    const page = await session.openPage();
    await page.getByRole('button', { name: 'Open playground' }).click();
    await page.getByRole('button', { name: 'Create table' }).click(slow);
    const dialog = page.getByRole('dialog', { name: /Create table/ });
    await dialog.getByRole('radio', { name: /Single-table design/ }).click();
    await dialog.getByLabel('Table name').fill(table);
    await dialog.getByLabel('Stream').selectOption('NEW_AND_OLD_IMAGES');
    await dialog.getByRole('button', { name: 'Create table' }).click();
    await dialog
      .getByRole('status')
      .filter({ hasText: `${table} is ACTIVE` })
      .waitFor(slow);
    const stored = await session.playgroundClient.send(new DescribeTableCommand({ TableName: table }));
    expect(stored.Table?.StreamSpecification).toEqual({
      StreamEnabled: true,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    });
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();

    await page.getByRole('button', { name: table, exact: true }).click(slow);
    await page.getByRole('tab', { name: 'Items' }).click();
    const editor = page.getByRole('complementary', { name: 'Item editor' });
    await page.getByRole('button', { name: 'New item' }).click();
    await editor.getByRole('tab', { name: 'DynamoDB JSON' }).click();
    await editor
      .getByLabel('Item as DynamoDB JSON')
      .fill('{"PK": {"S": "USER#ada"}, "SK": {"S": "PROFILE"}, "name": {"S": "Ada"}}');
    await editor.getByRole('button', { name: 'Stage', exact: true }).click();
    const staged = page.getByRole('region', { name: 'Staged changes' });
    await staged.getByRole('button', { name: 'Commit' }).click();
    // What DynamoDB Local holds is the oracle: the item is there before the stream is read.
    await expect
      .poll(
        async () =>
          (await session.playgroundClient.send(new ScanCommand({ TableName: table }))).Items?.map(
            (i) => i.PK?.S,
          ),
        slow,
      )
      .toEqual(['USER#ada']);

    await page.getByRole('tab', { name: 'Stream' }).click();
    const panel = page.getByRole('region', { name: 'Stream tail' });
    await panel.getByLabel('Start from').selectOption('TRIM_HORIZON');
    await panel.getByRole('button', { name: 'Follow stream' }).click();
    const insert = panel.getByRole('article').filter({ hasText: 'USER#ada' });
    await insert.first().waitFor(slow);
    await expect.poll(() => panel.getByRole('article').count()).toBe(1);
    await expect.poll(() => insert.getAttribute('aria-label')).toMatch(/^INSERT .*USER#ada/);
    await expect.poll(() => insert.innerText()).toContain('Ada');
    await panel.getByRole('button', { name: 'Stop' }).click();

    await page.getByRole('tab', { name: 'Overview' }).click();
    const deleting = page.getByRole('group', { name: 'Delete table' });
    const remove = deleting.getByRole('button', { name: 'Delete table' });
    // Not before the name is typed exactly.
    await expect.poll(() => remove.isDisabled()).toBe(true);
    await deleting.getByLabel('Type the table name to confirm').fill(`${table}x`);
    await expect.poll(() => remove.isDisabled()).toBe(true);
    await deleting.getByLabel('Type the table name to confirm').fill(table);
    await remove.click();
    await expect
      .poll(
        () =>
          session.playgroundClient.send(new DescribeTableCommand({ TableName: table })).then(
            () => 'exists',
            (error: unknown) => (error as { name?: string }).name,
          ),
        slow,
      )
      .toBe('ResourceNotFoundException');
    await page.getByRole('tab', { name: 'Tables', exact: true }).click();
    await page.getByRole('row').filter({ hasText: 'DynoTableSample' }).waitFor(slow);
    await expect.poll(() => page.getByRole('row').filter({ hasText: table }).count(), slow).toBe(0);
    expect(session.browser.pageErrors).toEqual([]);
  }, 300_000);
});
