import { describe, expect, it } from 'vitest';
import { canonical, rawDynamo, rawGetItem } from '../support/raw-dynamo';
import { openPlaygroundTable } from './support/playground-table';
import { useAppInBrowser } from './support/session';
import { openRowByKey } from './support/grid-rows';

// Issue 11 in the Items tab: attribute names that JavaScript treats specially are ordinary
// columns. Items are written and checked with plain HTTP against the playground's DynamoDB Local.
const slow = { timeout: 120_000 };
const table = `HostileNames${Date.now().toString(36)}`;

const session = useAppInBrowser({ withPlayground: true });

describe('attribute names that JavaScript treats specially, in the Items tab', () => {
  it('scans them into the grid, and the editor adds an attribute called constructor', async () => {
    const endpoint = session.playgroundEndpoint;
    await rawDynamo(endpoint, 'CreateTable', {
      TableName: table,
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    });
    await rawDynamo(endpoint, 'PutItem', {
      TableName: table,
      Item: JSON.parse(
        '{"pk":{"S":"a"},"__proto__":{"S":"proto value"},"constructor":{"S":"ctor value"},"toString":{"N":"7"}}',
      ) as unknown,
    });
    await rawDynamo(endpoint, 'PutItem', { TableName: table, Item: { pk: { S: 'b' }, plain: { S: 'x' } } });

    const page = await session.openPage();
    await openPlaygroundTable(page, table, 'Items');
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.getByRole('status').filter({ hasText: /RCU/ }).waitFor(slow);
    const grid = page.getByRole('grid', { name: 'Items' });
    for (const column of ['__proto__', 'constructor', 'toString'])
      await grid.locator('.item-grid-th', { hasText: new RegExp(`^${column}`) }).waitFor();
    await expect.poll(() => grid.innerText(), slow).toContain('proto value');
    await expect.poll(() => grid.innerText()).toContain('ctor value');
    await session.browser.screenshot('items-hostile-names');

    const rowB = grid
      .locator('.item-grid-row')
      .filter({ has: page.locator('.item-grid-cell', { hasText: /^b$/ }) });
    await openRowByKey(rowB);
    const editor = page.getByRole('complementary', { name: 'Item editor' });
    await editor.getByLabel('plain', { exact: true }).waitFor();
    await editor.getByLabel('New attribute name').fill('constructor');
    await editor.getByRole('button', { name: '+ Attribute' }).click();
    await editor.getByLabel('constructor', { exact: true }).fill('added');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(canonical(await rawGetItem(endpoint, table, { pk: { S: 'b' } }))).toBe(
      canonical({ pk: { S: 'b' }, plain: { S: 'x' }, constructor: { S: 'added' } }),
    );
    expect(session.browser.pageErrors).toEqual([]);
  });
});
