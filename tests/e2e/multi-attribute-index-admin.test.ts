import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openRowByKey } from './support/grid-rows';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';
import { rawPutAll } from '../support/copy-oracle';
import { HOSTILE_INDEX, HOSTILE_KEY_SCHEMA, hostileItem } from '../support/hostile-multi-key';
import { rawReadAll } from '../support/raw-dynamo';

// A multi-attribute index made by a user in table admin (2 + 2, hostile names), then DynamoDB
// Local's own DescribeTable and Query answers compared with what the app shows.
const slow = { timeout: 120_000 };
const session = useAppInBrowser({ withPlayground: true });
const table = `MultiAdmin-${Date.now().toString(36)}`;
const INDEX = HOSTILE_INDEX;

async function describeStored(name: string) {
  return (await session.playgroundClient.send(new DescribeTableCommand({ TableName: name }))).Table;
}

/** One key attribute row of an index's form: its name, and its type when given. */
async function setAttribute(
  group: Locator,
  title: string,
  kind: 'partition' | 'sort',
  position: number,
  name: string,
  type?: 'S' | 'N',
): Promise<void> {
  await group.getByLabel(`${title}: ${kind} attribute ${position} name`, { exact: true }).fill(name);
  if (type)
    await group
      .getByLabel(`${title}: ${kind} attribute ${position} type`, { exact: true })
      .selectOption(type);
}

describe('table admin and a multi-attribute index key', () => {
  it('creates a 2 + 2 index in the Create table form, in the order given, refusing what DynamoDB would', async () => {
    const page = await session.openPage();
    await page.getByRole('button', { name: 'Open playground' }).click();
    await page.getByRole('button', { name: 'Create table' }).click(slow);
    const dialog = page.getByRole('dialog', { name: /Create table/ });
    await dialog.getByLabel('Table name').fill(table);
    await dialog.getByLabel('Partition key name').fill('id');
    await dialog.getByRole('button', { name: 'Add global index' }).click();
    await dialog.getByLabel('GSI1: index name').fill(INDEX);
    const gsi = dialog.getByRole('group', { name: INDEX, exact: true });
    await setAttribute(gsi, INDEX, 'partition', 1, '__proto__');
    await gsi.getByRole('button', { name: `${INDEX}: add partition attribute` }).click();
    await setAttribute(gsi, INDEX, 'partition', 2, 'a.b');
    // Sort attributes given in the wrong order, then put right with Move up.
    await gsi.getByRole('button', { name: `${INDEX}: add sort attribute` }).click();
    await setAttribute(gsi, INDEX, 'sort', 1, '[0]', 'N');
    await gsi.getByRole('button', { name: `${INDEX}: add sort attribute` }).click();
    await setAttribute(gsi, INDEX, 'sort', 2, '#x');
    await gsi.getByRole('button', { name: `Move ${INDEX}: sort attribute 2 up` }).click();
    await expect.poll(() => gsi.getByLabel(`${INDEX}: sort attribute 1 name`).inputValue()).toBe('#x');
    await expect.poll(() => gsi.getByLabel(`${INDEX}: sort attribute 2 name`).inputValue()).toBe('[0]');
    await expect.poll(() => gsi.getByLabel(`${INDEX}: sort attribute 2 type`).inputValue()).toBe('N');

    // A repeated attribute is refused at its field, and nothing is sent.
    const addPartition = gsi.getByRole('button', { name: `${INDEX}: add partition attribute` });
    await addPartition.click();
    await setAttribute(gsi, INDEX, 'partition', 3, '#x');
    await dialog.getByRole('button', { name: 'Create table' }).click();
    await gsi.getByText(`"#x" appears twice in the index's key; each key attribute appears once.`).waitFor();
    await expect(describeStored(table)).rejects.toThrow(/not found|non-existent/i);
    // Four partition attributes at most: the fifth cannot be added.
    await addPartition.click();
    await expect.poll(() => addPartition.isDisabled()).toBe(true);
    await gsi.getByText("The index's partition attribute 4 needs a name.").waitFor();
    await dialog.locator('.dialog-body').evaluate((body) => body.scrollTo(0, 0));
    await gsi.scrollIntoViewIfNeeded();
    await screenshots(page, 'multi-key-create-index-refused', gsi);
    await gsi.getByRole('button', { name: `Remove ${INDEX}: partition attribute 4` }).click();
    await gsi.getByRole('button', { name: `Remove ${INDEX}: partition attribute 3` }).click();
    await expect.poll(() => addPartition.isDisabled()).toBe(false);

    const expectedKeySchema = HOSTILE_KEY_SCHEMA;
    await dialog.getByRole('tab', { name: 'CloudFormation' }).click();
    const template = JSON.parse(
      await dialog.getByRole('tabpanel', { name: 'CloudFormation' }).innerText(),
    ) as {
      Resources: Record<string, { Properties: { GlobalSecondaryIndexes: { KeySchema: unknown }[] } }>;
    };
    const [resource] = Object.values(template.Resources);
    expect(resource?.Properties.GlobalSecondaryIndexes[0]?.KeySchema).toEqual(expectedKeySchema);
    await gsi.scrollIntoViewIfNeeded();
    await screenshots(page, 'multi-key-create-index-form', gsi);

    // The CDK text of the same table: CDK's partitionKeys/sortKeys lists, in the order given,
    // following the form as the user types.
    await dialog.getByRole('tab', { name: 'CDK' }).click();
    const cdk = dialog.getByRole('tabpanel', { name: 'CDK' });
    const cdkKey = (sort: string) =>
      [
        '  partitionKeys: [',
        '    { name: "__proto__", type: dynamodb.AttributeType.STRING },',
        '    { name: "a.b", type: dynamodb.AttributeType.STRING },',
        '  ],',
        '  sortKeys: [',
        `    { name: "${sort}", type: dynamodb.AttributeType.STRING },`,
        '    { name: "[0]", type: dynamodb.AttributeType.NUMBER },',
        '  ],',
      ].join('\n');
    await expect.poll(() => cdk.innerText()).toContain(cdkKey('#x'));
    await setAttribute(gsi, INDEX, 'sort', 1, '#y');
    await expect.poll(async () => (await cdk.innerText()).includes(cdkKey('#y')), slow).toBe(true);
    await setAttribute(gsi, INDEX, 'sort', 1, '#x');
    await expect.poll(async () => (await cdk.innerText()).includes(cdkKey('#x')), slow).toBe(true);
    const copy = dialog.getByRole('button', { name: 'Copy CDK' });
    await copy.focus();
    await expect.poll(() => copy.evaluate((element) => element === document.activeElement)).toBe(true);
    // Scrolled within the code to the index, as a user would to read its key.
    const code = dialog.locator('.table-request .request-code');
    await screenshots(page, 'multi-key-create-index-cdk', dialog.locator('.table-request'), {
      block: 'end',
      check: () => code.evaluate((element) => element.scrollTo(0, 130)),
    });

    // The round trip: the CloudFormation the form shows, pasted back as a definition, fills the
    // form with the same index, and its CloudFormation is the same text.
    await dialog.getByRole('tab', { name: 'CloudFormation' }).click();
    const shownTemplate = await dialog.getByRole('tabpanel', { name: 'CloudFormation' }).innerText();
    const shownCdk = await (async () => {
      await dialog.getByRole('tab', { name: 'CDK' }).click();
      return cdk.innerText();
    })();
    await dialog.getByRole('radio', { name: /Paste JSON/ }).click();
    await dialog.getByLabel('CreateTable JSON or CloudFormation resource').fill(shownTemplate);
    await dialog.getByRole('button', { name: 'Read into the form' }).click();
    await dialog.getByText('Read as CloudFormation.').waitFor();
    const pasted = dialog.getByRole('group', { name: INDEX, exact: true });
    await expect
      .poll(() => pasted.getByLabel(`${INDEX}: partition attribute 1 name`).inputValue())
      .toBe('__proto__');
    await expect
      .poll(() => pasted.getByLabel(`${INDEX}: partition attribute 2 name`).inputValue())
      .toBe('a.b');
    await expect.poll(() => pasted.getByLabel(`${INDEX}: sort attribute 1 name`).inputValue()).toBe('#x');
    await expect.poll(() => pasted.getByLabel(`${INDEX}: sort attribute 2 name`).inputValue()).toBe('[0]');
    await expect.poll(() => pasted.getByLabel(`${INDEX}: sort attribute 2 type`).inputValue()).toBe('N');
    await expect.poll(() => cdk.innerText()).toBe(shownCdk);
    await dialog.getByRole('tab', { name: 'CloudFormation' }).click();
    await expect
      .poll(() => dialog.getByRole('tabpanel', { name: 'CloudFormation' }).innerText())
      .toBe(shownTemplate);

    await dialog.getByRole('button', { name: 'Create table' }).click();
    await dialog
      .getByRole('status')
      .filter({ hasText: `${table} is ACTIVE` })
      .waitFor(slow);
    const stored = await describeStored(table);
    expect(stored?.GlobalSecondaryIndexes?.find((g) => g.IndexName === INDEX)?.KeySchema).toEqual(
      expectedKeySchema,
    );
    expect(new Map(stored?.AttributeDefinitions?.map((a) => [a.AttributeName, a.AttributeType]))).toEqual(
      new Map([
        ['id', 'S'],
        ['__proto__', 'S'],
        ['a.b', 'S'],
        ['#x', 'S'],
        ['[0]', 'N'],
      ]),
    );
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    expect(session.browser.pageErrors).toEqual([]);
  });

  it("adds a second multi-attribute index from the table's Overview, refusing a key of another type", async () => {
    const { page } = session.browser;
    await openPlaygroundTable(page, table, 'Overview');
    const change = page.getByRole('region', { name: 'Change' });
    await change.getByLabel('What to change').selectOption('addIndex');
    const title = 'byOther';
    await change.getByLabel(/: index name$/).fill(title);
    const gsi = change.getByRole('group', { name: title, exact: true });
    await setAttribute(gsi, title, 'partition', 1, 'constructor');
    await gsi.getByRole('button', { name: `${title}: add partition attribute` }).click();
    await setAttribute(gsi, title, 'partition', 2, '[0]');
    await gsi.getByRole('button', { name: `${title}: add sort attribute` }).click();
    await setAttribute(gsi, title, 'sort', 1, 'a.b');
    // [0] is a number in the first index: DynamoDB keeps one type per attribute.
    const conflict = gsi.getByText(
      '"[0]" is already a key of type N; one attribute has one type in every key.',
    );
    await conflict.waitFor();
    await expect.poll(() => change.getByRole('button', { name: 'Apply change' }).isDisabled()).toBe(true);
    await gsi.scrollIntoViewIfNeeded();
    await screenshots(page, 'multi-key-add-index-refused', gsi);
    await gsi.getByLabel(`${title}: partition attribute 2 type`).selectOption('N');
    await conflict.waitFor({ state: 'detached' });
    const sdk = change.getByRole('tabpanel', { name: 'SDK v3' });
    const keySchemaText =
      '"KeySchema": [ { "AttributeName": "constructor", "KeyType": "HASH" }, { "AttributeName": "[0]", "KeyType": "HASH" }, { "AttributeName": "a.b", "KeyType": "RANGE" } ]';
    expect((await sdk.innerText()).replace(/\s+/g, ' ')).toContain(keySchemaText);
    // The index to add, for a template or a CDK stack too.
    await change.getByRole('tab', { name: 'CloudFormation' }).click();
    const cfn = await change.getByRole('tabpanel', { name: 'CloudFormation' }).innerText();
    expect(cfn.replace(/\s+/g, ' ')).toContain(keySchemaText);
    await change.getByRole('tab', { name: 'CDK' }).click();
    await expect
      .poll(() => change.getByRole('tabpanel', { name: 'CDK' }).innerText())
      .toContain(
        [
          `  indexName: "${title}",`,
          '  partitionKeys: [',
          '    { name: "constructor", type: dynamodb.AttributeType.STRING },',
          '    { name: "[0]", type: dynamodb.AttributeType.NUMBER },',
          '  ],',
          '  sortKey: { name: "a.b", type: dynamodb.AttributeType.STRING },',
        ].join('\n'),
      );
    await change.getByRole('button', { name: 'Apply change' }).click();
    await change
      .getByRole('status')
      .filter({ hasText: `${table} is ACTIVE` })
      .waitFor(slow);
    const stored = await describeStored(table);
    expect(stored?.GlobalSecondaryIndexes?.find((g) => g.IndexName === title)?.KeySchema).toEqual([
      { AttributeName: 'constructor', KeyType: 'HASH' },
      { AttributeName: '[0]', KeyType: 'HASH' },
      { AttributeName: 'a.b', KeyType: 'RANGE' },
    ]);
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('queries the index made in the form as DynamoDB Local does, and plans it in SQL', async () => {
    const { page } = session.browser;
    await rawPutAll(
      session.playgroundEndpoint,
      table,
      Array.from({ length: 24 }, (_, n) => hostileItem(n)),
    );
    await openPlaygroundTable(page, table, 'Items');
    await page.getByRole('radio', { name: 'Query' }).click();
    await page.getByRole('combobox', { name: 'Table or index' }).selectOption(INDEX);
    await page.getByLabel('Partition attribute 1 of 2, __proto__').fill('t1');
    await page.getByLabel('Partition attribute 2 of 2, a.b').fill('eu');
    await page.getByRole('combobox', { name: 'Sort attribute 1 of 2, #x, condition' }).selectOption('=');
    await page.getByLabel('Sort attribute 1 of 2, #x, value').fill('d1');
    await page.getByRole('button', { name: 'Query', exact: true }).click();
    const expected = await rawReadAll(session.playgroundEndpoint, 'Query', {
      TableName: table,
      IndexName: INDEX,
      KeyConditionExpression: '#p = :p AND #a = :a AND #x = :x',
      ExpressionAttributeNames: { '#p': '__proto__', '#a': 'a.b', '#x': '#x' },
      ExpressionAttributeValues: { ':p': { S: 't1' }, ':a': { S: 'eu' }, ':x': { S: 'd1' } },
    });
    expect(expected.length).toBeGreaterThan(0);
    await page
      .getByRole('status')
      .filter({ hasText: new RegExp(`^${expected.length} items?\\b`) })
      .waitFor(slow);

    await page.getByRole('tab', { name: 'SQL' }).click(slow);
    const editor = page.locator('.sql-editor .cm-content');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(`SELECT id FROM "${table}" WHERE "__proto__" = 't1' AND "a.b" = 'eu'`);
    await page.getByRole('tab', { name: 'Plan' }).click();
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    const plan = page.locator('.sql-plan');
    await plan.getByText(/Query/).first().waitFor(slow);
    const text = await plan.innerText();
    expect(text).toMatch(new RegExp(`Query[\\s\\S]*${INDEX}`));
    expect(text).toMatch(/every partition attribute of index byHostile \(__proto__, a\.b\)/);
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('marks every attribute of both index keys in the item editor, and warns that changing one moves the item', async () => {
    const { page } = session.browser;
    await openPlaygroundTable(page, table, 'Items');
    await page.getByRole('radio', { name: 'Scan' }).click();
    // The table itself, where `id` is the first column (the builder is still on the index).
    await page.getByRole('combobox', { name: 'Table or index' }).selectOption({ index: 0 });
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    // Any stored item (rows render as they scroll into view): the first one.
    const row = page.locator('.item-grid-row').first();
    await row.waitFor(slow);
    await openRowByKey(row);
    const editor = page.getByRole('complementary', { name: 'Item editor' });
    await editor.getByLabel('a.b', { exact: true }).waitFor(slow);
    // Every attribute of each multi-attribute key, not only the first of each kind.
    const tags = page.locator('.cell-type.is-index-key');
    await expect
      .poll(
        async () => (await editor.locator('.form-attr-name').filter({ has: tags }).allTextContents()).sort(),
        slow,
      )
      .toEqual(
        [
          '#xindex key: byHostile sort key, 1 of 2',
          '[0]index key: byHostile sort key, 2 of 2; byOther partition key, 2 of 2',
          '__proto__index key: byHostile partition key, 1 of 2',
          'a.bindex key: byHostile partition key, 2 of 2; byOther sort key',
          'constructorindex key: byOther partition key, 1 of 2',
        ].sort(),
      );
    await editor.getByLabel('a.b', { exact: true }).fill('zz');
    const moves = editor.getByRole('status', { name: 'Index keys changed' });
    await moves
      .getByText(
        'Changing "a.b" (byHostile partition key, 2 of 2; byOther sort key) moves the item in byHostile, byOther.',
      )
      .waitFor();
    await screenshots(page, 'multi-key-editor-index-move', editor);
    expect(session.browser.pageErrors).toEqual([]);
  });
});
