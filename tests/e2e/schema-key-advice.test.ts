import { describe, expect, it } from 'vitest';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';
import { createMultiKeyTable, MULTI_INDEX } from '../support/multi-key-table';
import { createSyntheticKeysTable } from '../support/synthetic-keys-table';
import { rawDynamo } from '../support/raw-dynamo';

// The Schema tab on tables made on the playground past the app: a 2 + 2 multi-attribute GSI shown
// in the diagram with every key attribute, and the advisor proposing (then creating, on
// confirmation) the native index for a GSI keyed on concatenated values.
const slow = { timeout: 120_000 };
const stamp = Date.now().toString(36);
const adviceTable = `SchemaAdvice_${stamp}`;
const session = useAppInBrowser({ withPlayground: true });

type Described = { Table: { GlobalSecondaryIndexes?: { IndexName: string; KeySchema: unknown }[] } };

async function fullScan(page: Awaited<ReturnType<typeof session.openPage>>): Promise<void> {
  await page.getByLabel('Items', { exact: true }).fill('5000');
  await page.getByRole('button', { name: 'Sample', exact: true }).click();
  await page.getByTestId('schema-draw').waitFor(slow);
}

describe('Schema tab and multi-attribute keys', () => {
  it('shows a multi-attribute index with its partition and sort attributes in order', async () => {
    const table = `SchemaMulti_${stamp}`;
    // Both tables before the page opens, so the app's first table list holds them.
    await createMultiKeyTable(session.playgroundEndpoint, table, 24);
    await createSyntheticKeysTable(session.playgroundEndpoint, adviceTable);
    const page = await session.openPage();
    await openPlaygroundTable(page, table, 'Schema');
    await fullScan(page);
    const keys = page.getByRole('definition').filter({ hasText: 'tenant + reg.ion / #day + seq' });
    await keys.waitFor(slow);
    const diagram = page.getByRole('img', { name: new RegExp(`^Design of ${table}: `) });
    await diagram.scrollIntoViewIfNeeded();
    const box = (await diagram.locator('[data-entity]').first().textContent()) ?? '';
    expect(box.replace(/\s+/g, ' ')).toContain(`${MULTI_INDEX}: tenant=… reg.ion=… #day=…`);
    await screenshots(page, 'schema-multi-key-diagram', page.getByRole('region', { name: 'Design' }), {
      block: 'start',
    });
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('proposes the native index for concatenated GSI keys and creates it on confirmation', async () => {
    const table = adviceTable;
    const page = session.browser.page;
    await openPlaygroundTable(page, table, 'Schema');
    await fullScan(page);
    const advisor = page.getByRole('region', { name: 'Key advisor' });
    await advisor.waitFor(slow);
    await advisor.scrollIntoViewIfNeeded();
    await expect
      .poll(() => advisor.getByTestId('advice-keys').innerText(), slow)
      .toBe('tenant + reg.ion / #day + seq');
    const text = (await advisor.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('GSI1PK (partition) = TENANT#{tenant}#REGION#{reg.ion}');
    expect(text).toContain('30 of the 36 items built this way already hold every part');
    expect(text).toContain('6 items lack reg.ion');
    // Counted exactly from the read: the 5 items outside GSI1 that hold every part, typed.
    expect(text).toContain(
      "5 items without GSI1's keys hold every attribute of the new key with its type: the new index would hold them too.",
    );
    await screenshots(page, 'schema-key-advice', advisor, { block: 'start' });

    await advisor.getByRole('button', { name: /^Create index by/ }).click();
    const confirm = advisor.getByRole('group', { name: /^Confirm creating / });
    await confirm.waitFor(slow);
    await screenshots(page, 'schema-key-advice-confirm', advisor, { block: 'start' });
    await confirm.getByRole('button', { name: /^Create by/ }).click();
    await advisor
      .getByRole('status')
      .filter({ hasText: /created on/ })
      .waitFor(slow);
    const described = await rawDynamo<Described>(session.playgroundEndpoint, 'DescribeTable', {
      TableName: table,
    });
    const created = described.Table.GlobalSecondaryIndexes?.find((g) => g.IndexName !== 'GSI1');
    expect(created?.KeySchema).toEqual([
      { AttributeName: 'tenant', KeyType: 'HASH' },
      { AttributeName: 'reg.ion', KeyType: 'HASH' },
      { AttributeName: '#day', KeyType: 'RANGE' },
      { AttributeName: 'seq', KeyType: 'RANGE' },
    ]);
    expect(session.browser.pageErrors).toEqual([]);
  });
});
