import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { openRowByKey, rowWith, scanPlaygroundTable, showOnlyRowsWith } from './support/grid-rows';
import { useAppInBrowser } from './support/session';

// Never lose typing: with unsaved edits in the item editor, opening another item, closing the
// editor, leaving the table or the connection ask Save / Discard / Cancel, and a reload asks
// through the browser's own prompt. Debian's Chromium, the browser-mode server, the playground.
const table = 'DynoTableSample';
const slow = { timeout: 60_000 };

const session = useAppInBrowser({ withPlayground: true });
const page = () => session.browser.page;
const editor = () => page().getByRole('complementary', { name: 'Item editor' });
const currency = () => editor().getByLabel('currency', { exact: true });
const question = () => page().getByRole('dialog', { name: 'Save your changes?' });

async function storedCurrency(): Promise<string | undefined> {
  const output = await session.playgroundClient.send(
    new GetItemCommand({
      TableName: table,
      Key: { PK: { S: 'USER#u1' }, SK: { S: 'BALANCE' } },
      ConsistentRead: true,
    }),
  );
  return output.Item?.currency?.S;
}

/** Narrows the grid with the quick filter and opens one item by double-click. */
async function open(filter: string, sk: string): Promise<void> {
  await showOnlyRowsWith(page(), filter, sk);
  const row = rowWith(page(), 'USER#u1', sk);
  await row.waitFor(slow);
  await openRowByKey(row);
}

async function editBalance(value: string): Promise<void> {
  await open('1498.29', 'BALANCE');
  await editor().locator('h2').filter({ hasText: 'USER#u1 · BALANCE' }).waitFor(slow);
  await expect.poll(() => currency().isEnabled(), slow).toBe(true);
  await currency().fill(value);
}

describe('unsaved edits in the item editor', () => {
  it('asks before another item replaces them, and Cancel keeps them', async () => {
    const p = await session.openPage();
    await scanPlaygroundTable(p, table, /^352 items/);

    await editBalance('CHF');
    await open('aiko.suzuki1@', 'PROFILE');
    await question().waitFor();
    await question().getByRole('button', { name: 'Cancel' }).click();
    await question().waitFor({ state: 'detached' });
    await expect.poll(() => editor().locator('h2').innerText()).toBe('USER#u1 · BALANCE');
    await expect.poll(() => currency().inputValue()).toBe('CHF');
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('asks before the editor closes, and Discard drops the edits', async () => {
    await editor().getByRole('button', { name: 'Close the editor' }).click();
    await question().getByRole('button', { name: 'Discard' }).click();
    await editor().waitFor({ state: 'detached' });
    await expect.poll(() => storedCurrency()).toBe('EUR');
  });

  it('asks before leaving the table, and Save writes the edits, then leaves', async () => {
    await editBalance('CHF');
    const tabs = page().getByRole('tablist', { name: 'Open tabs' });
    await tabs.getByRole('tab', { name: 'Tables', exact: true }).click();
    await question().getByRole('button', { name: 'Save' }).click();
    await tabs.getByRole('tab', { name: 'Tables', exact: true, selected: true }).waitFor(slow);
    await expect.poll(() => storedCurrency()).toBe('CHF');
    await tabs.getByRole('tab', { name: table, exact: true }).click();
    await expect.poll(() => currency().inputValue()).toBe('CHF');
  });

  it("asks through the browser's prompt before a reload, and before switching connection", async () => {
    await currency().fill('NOK');
    const prompt = page().waitForEvent('dialog');
    const reloading = page().evaluate(() => location.reload());
    const dialog = await prompt;
    expect(dialog.type()).toBe('beforeunload');
    await dialog.dismiss();
    await reloading;
    await expect.poll(() => currency().inputValue()).toBe('NOK');

    await page()
      .getByRole('button', { name: /Connections/ })
      .click();
    await question().waitFor();
    await question().getByRole('button', { name: 'Discard' }).click();
    await page().getByRole('button', { name: 'Open playground' }).waitFor(slow);
    await expect.poll(() => storedCurrency()).toBe('CHF');
    expect(session.browser.pageErrors).toEqual([]);
  });
});
