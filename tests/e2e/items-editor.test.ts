import { GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { openPlaygroundTable } from './support/playground-table';
import { useAppInBrowser } from './support/session';
import { openRowByKey } from './support/grid-rows';

// The Items tab driven like a user: the real browser-mode server and core, the playground's
// DynamoDB Local with the seeded sample table, Debian's Chromium. No fixed sleeps.
const table = 'DynoTableSample';
const slow = { timeout: 120_000 };

const session = useAppInBrowser({ withPlayground: true });

async function storedCurrency(pk: string, sk: string): Promise<string | undefined> {
  const item = await session.playgroundClient.send(
    new GetItemCommand({ TableName: table, Key: { PK: { S: pk }, SK: { S: sk } }, ConsistentRead: true }),
  );
  return item.Item?.currency?.S;
}

describe('Items tab', () => {
  it("queries the playground's GSI, edits an attribute, saves, and sees the change", async () => {
    const page = await session.openPage();
    await openPlaygroundTable(page, table, 'Items');

    await page.getByRole('radio', { name: 'Query' }).click();
    await page.getByLabel('Table or index').selectOption('GSI1');
    await page.getByLabel('Partition key GSI1PK').fill('STATUS#SHIPPED');
    await page.getByRole('button', { name: 'Query', exact: true }).click();
    const rows = page.locator('.item-grid-row');
    await rows.first().locator('.item-grid-cell').first().waitFor(slow);
    await page.getByRole('status').filter({ hasText: /RCU/ }).waitFor();
    await expect
      .poll(() => page.locator('.progress-line').innerText())
      .toMatch(/\d+ items · 1 page · [\d.]+ RCU/);
    await session.browser.screenshot('items-query-gsi');

    // The whole, current item is read when the editor opens; typed before it arrives, an edit
    // would vanish under it, so the form waits for it (held here until checked).
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/api/items:get', async (route) => {
      await held;
      await route.continue();
    });
    await openRowByKey(rows.first());
    const editor = page.getByRole('complementary', { name: 'Item editor' });
    const title = editor.locator('h2');
    await editor.getByRole('status').filter({ hasText: 'Loading the current item…' }).waitFor();
    await expect.poll(() => editor.getByLabel('currency', { exact: true }).isDisabled()).toBe(true);
    answer();
    await editor
      .getByRole('status')
      .filter({ hasText: 'Loading the current item…' })
      .waitFor({ state: 'detached' });
    await page.unroute('**/api/items:get');
    await expect.poll(() => editor.getByLabel('currency', { exact: true }).isDisabled()).toBe(false);
    const [pk = '', sk = ''] = (await title.innerText()).split(' · ');
    expect(pk).toMatch(/^USER#/);
    expect(sk).toMatch(/^ORDER#/);
    await editor.getByLabel('currency', { exact: true }).fill('JPY');
    await expect
      .poll(() => editor.getByRole('list', { name: 'Changes' }).innerText(), slow)
      .toMatch(/currency\s*changed/i);
    await editor.getByRole('button', { name: 'Show the request' }).click();
    await expect
      .poll(() => editor.locator('.request-preview-text').innerText())
      .toContain('"UpdateExpression": "SET #n0 = :v0"');
    await session.browser.screenshot('items-editor-change');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await expect.poll(() => storedCurrency(pk, sk)).toBe('JPY');

    await page.getByRole('button', { name: 'Query', exact: true }).click();
    const row = rows.filter({ has: page.locator('.item-grid-cell', { hasText: new RegExp(`^${sk}$`) }) });
    const rowIndex = await row.getAttribute('aria-rowindex', slow);
    // Rows render only the columns in view: scroll sideways to the currency column, as a person would.
    await page.locator('.item-grid-th', { hasText: /^currency/ }).scrollIntoViewIfNeeded();
    const sameRow = page.locator(`.item-grid-row[aria-rowindex="${rowIndex}"]`);
    await expect.poll(() => sameRow.innerText(), slow).toContain('JPY');
    await session.browser.screenshot('items-grid-scrolled-sideways');
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('shows the conflict view when someone else changed the item, and saves mine on top of theirs', async () => {
    const { page } = session.browser;
    const editor = page.getByRole('complementary', { name: 'Item editor' });
    const [pk = '', sk = ''] = (await editor.locator('h2').innerText()).split(' · ');
    // Someone else changes the item while it is open in the editor.
    await session.playgroundClient.send(
      new UpdateItemCommand({
        TableName: table,
        Key: { PK: { S: pk }, SK: { S: sk } },
        UpdateExpression: 'SET #c = :usd, #n = :note',
        ExpressionAttributeNames: { '#c': 'currency', '#n': 'note' },
        ExpressionAttributeValues: { ':usd': { S: 'USD' }, ':note': { S: 'changed in another tab' } },
      }),
    );
    await editor.getByLabel('currency', { exact: true }).fill('GBP');
    await editor.getByRole('button', { name: 'Save' }).click();
    const conflict = editor.getByRole('region', { name: 'Conflict' });
    await conflict.waitFor();
    await expect
      .poll(() => conflict.innerText())
      .toMatch(/changed by someone else[\s\S]*Nothing was written/);
    const currencyRow = conflict.locator('tr', { hasText: 'currency' });
    await expect.poll(() => currencyRow.innerText()).toMatch(/both[\s\S]*"JPY"[\s\S]*"USD"[\s\S]*"GBP"/);
    await session.browser.screenshot('items-conflict');
    await expect.poll(() => storedCurrency(pk, sk)).toBe('USD');

    await conflict.getByRole('button', { name: 'Apply my changes to the stored item' }).click();
    await expect
      .poll(() => editor.getByLabel('note', { exact: true }).inputValue(), slow)
      .toBe('changed in another tab');
    await expect.poll(() => editor.getByLabel('currency', { exact: true }).inputValue()).toBe('GBP');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await expect.poll(() => storedCurrency(pk, sk)).toBe('GBP');
    const stored = await session.playgroundClient.send(
      new GetItemCommand({ TableName: table, Key: { PK: { S: pk }, SK: { S: sk } }, ConsistentRead: true }),
    );
    expect(stored.Item?.note?.S).toBe('changed in another tab');
    expect(session.browser.pageErrors).toEqual([]);
  });
});
