import { describe, expect, it } from 'vitest';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';
import { createMultiKeyTable, MULTI_INDEX, rawIndexQuery } from '../support/multi-key-table';

// A table with a 2 + 2 multi-attribute GSI (made on the playground past the app), driven as a
// user would: its index shown with every key attribute, queried in the builder, planned in SQL.
const slow = { timeout: 120_000 };
const table = `MultiKey_${Date.now().toString(36)}`;
const session = useAppInBrowser({ withPlayground: true });

describe('a multi-attribute index key', () => {
  it('shows the index keys, queries every partition attribute and refuses a skipped sort attribute', async () => {
    const page = await session.openPage();
    await createMultiKeyTable(session.playgroundEndpoint, table);
    await openPlaygroundTable(page, table, 'Overview');
    const row = page.getByTestId('index-row').filter({ hasText: MULTI_INDEX });
    await row.waitFor(slow);
    expect((await row.innerText()).replace(/\s+/g, ' ')).toMatch(/tenant S \+ reg\.ion S #day S \+ seq N/);
    await screenshots(page, 'multi-key-index-table', page.getByRole('table', { name: 'Indexes' }));

    await page.getByRole('tab', { name: 'Items', exact: true }).click();
    await page.getByRole('radio', { name: 'Query' }).click();
    await page.getByRole('combobox', { name: 'Table or index' }).selectOption(MULTI_INDEX);
    await page.getByLabel('Partition attribute 1 of 2, tenant').fill('t1');
    // A condition on seq without one on #day: refused in the form, before any request.
    await page.getByRole('combobox', { name: 'Sort attribute 2 of 2, seq, condition' }).selectOption('>');
    await page.getByLabel('Sort attribute 2 of 2, seq, value').fill('3');
    await page.getByRole('button', { name: 'Query', exact: true }).click();
    const missing = page.getByText('needs every partition attribute; "reg.ion" has no value');
    await missing.waitFor(slow);
    await page.getByLabel('Partition attribute 2 of 2, reg.ion').fill('eu');
    await page.getByRole('button', { name: 'Query', exact: true }).click();
    const skipped = page.getByText(/"#day" needs a condition, because "seq" after it has one/);
    await skipped.waitFor(slow);
    await screenshots(page, 'multi-key-builder-refusal', page.getByRole('form', { name: 'Query builder' }));

    await page.getByRole('combobox', { name: 'Sort attribute 1 of 2, #day, condition' }).selectOption('=');
    await page.getByLabel('Sort attribute 1 of 2, #day, value').fill('d1');
    await page.getByRole('button', { name: 'Query', exact: true }).click();
    const expected = await rawIndexQuery(
      session.playgroundEndpoint,
      table,
      '#t = :t AND #r = :r AND #d = :d AND #s > :s',
      { '#t': 'tenant', '#r': 'reg.ion', '#d': '#day', '#s': 'seq' },
      { ':t': { S: 't1' }, ':r': { S: 'eu' }, ':d': { S: 'd1' }, ':s': { N: '3' } },
    );
    expect(expected.length).toBeGreaterThan(0);
    await page
      .getByRole('status')
      .filter({ hasText: new RegExp(`^${expected.length} items?\\b`) })
      .waitFor(slow);
    await page.locator('.item-grid-row .item-grid-cell').first().waitFor(slow);
    await screenshots(page, 'multi-key-builder-results');
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('plans a SQL statement naming every partition attribute as a Query on the index', async () => {
    const { page } = session.browser;
    await page.getByRole('tab', { name: 'SQL' }).click(slow);
    const editor = page.locator('.sql-editor .cm-content');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(
      `SELECT id, seq FROM ${table} WHERE tenant = 't0' AND "reg.ion" = 'us' AND "#day" = 'd1'`,
    );
    await page.getByRole('tab', { name: 'Plan' }).click();
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    const plan = page.locator('.sql-plan');
    await plan.waitFor(slow);
    await plan.getByText(/Query/).first().waitFor(slow);
    const text = await plan.innerText();
    expect(text).toMatch(new RegExp(`Query[\\s\\S]*${MULTI_INDEX}`));
    expect(text).toMatch(/every partition attribute of index byTenantRegion \(tenant, reg\.ion\)/);
    await screenshots(page, 'multi-key-sql-plan', plan);
    expect(session.browser.pageErrors).toEqual([]);
  });
});
