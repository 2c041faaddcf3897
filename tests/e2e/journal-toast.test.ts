import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { openItemInEditor, ordersWithCurrency, scanPlaygroundTable, valueText } from './support/grid-rows';
import { useAppInBrowser } from './support/session';

// The "Committed… [Undo]" confirmation: it goes away by itself, its Undo undoes the write it
// announced even after later writes, and History lists the writes newest first with their
// table and item count. Debian's Chromium, the browser-mode server, the playground.
const table = 'DynoTableSample';
const slow = { timeout: 60_000 };
const text = valueText;
const orders = ordersWithCurrency();

const session = useAppInBrowser({ withPlayground: true });
const page = () => session.browser.page;
const editor = () => page().getByRole('complementary', { name: 'Item editor' });
const staged = () => page().getByRole('region', { name: 'Staged changes' });
const toast = () => page().locator('.commit-done');

async function storedCurrency(pk: string, sk: string): Promise<string | undefined> {
  const output = await session.playgroundClient.send(
    new GetItemCommand({ TableName: table, Key: { PK: { S: pk }, SK: { S: sk } }, ConsistentRead: true }),
  );
  return output.Item?.currency?.S;
}

async function openOrder(pk: string, sk: string, how: 'mouse' | 'keyboard' = 'mouse'): Promise<void> {
  await openItemInEditor(page(), pk, sk, how);
  await expect.poll(() => editor().getByLabel('currency', { exact: true }).isEnabled(), slow).toBe(true);
}

async function commitCurrency(pk: string, sk: string, currency: string): Promise<void> {
  await openOrder(pk, sk);
  await editor().getByLabel('currency', { exact: true }).fill(currency);
  await editor().getByRole('button', { name: 'Stage', exact: true }).click();
  await staged().getByRole('button', { name: 'Commit' }).click();
  await toast().getByRole('status').filter({ hasText: 'Committed: 1 item written.' }).waitFor(slow);
}

describe('the commit confirmation and History', () => {
  it('undoes the commit it announced even after a later save, and goes away by itself', async () => {
    const p = await session.openPage();
    await scanPlaygroundTable(p, table, /^352 items/);

    const keyOf = (item: (typeof orders)[number]): [string, string] => [text(item.PK), text(item.SK)];
    const first = keyOf(orders[2]!);
    const second = keyOf(orders[3]!);
    const firstBefore = await storedCurrency(...first);
    await commitCurrency(...first, 'XTS');
    // A later write of the user's own, to another item, from the editor, by keyboard while the
    // pointer rests on the confirmation, which then stays (its ten seconds pause while hovered):
    // under load the save alone can take longer than that.
    await toast().hover();
    await openOrder(...second, 'keyboard');
    await editor().getByLabel('currency', { exact: true }).fill('XAU');
    await editor().getByRole('button', { name: 'Save' }).press('Enter');
    await editor().getByRole('status').filter({ hasText: 'Saved' }).waitFor(slow);
    await editor().getByRole('button', { name: 'Close the editor' }).press('Enter');

    await toast().getByRole('button', { name: 'Undo this commit' }).click();
    await toast().getByText('Undo: 1 item put back.').waitFor(slow);
    await expect.poll(() => storedCurrency(...first)).toBe(firstBefore);
    await expect.poll(() => storedCurrency(...second)).toBe('XAU');
    // Undone, the confirmation offers Redo (it offered nothing more): the undo's own entry undone,
    // as History's Redo does. Redone, Undo again.
    await toast().getByRole('button', { name: 'Redo this commit' }).click();
    await toast().getByText('Redo: 1 item put back.').waitFor(slow);
    await expect.poll(() => storedCurrency(...first)).toBe('XTS');
    await expect.poll(() => storedCurrency(...second)).toBe('XAU');
    await toast().getByRole('button', { name: 'Undo this commit' }).waitFor();
    // The report stays until closed.
    await toast().getByRole('button', { name: 'Close the undo report' }).click();
    await toast().waitFor({ state: 'detached' });

    // A new commit's confirmation goes away by itself (about ten seconds).
    await commitCurrency(...first, 'XPT');
    await toast().waitFor({ state: 'detached', timeout: 30_000 });
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('lists the writes newest first, each with its words, item count and time', async () => {
    await page().getByRole('button', { name: 'Undo history…' }).click();
    const dialog = page().getByRole('dialog', { name: `Undo history — ${table}` });
    const entries = dialog.getByRole('list', { name: 'Recent writes' }).getByRole('listitem');
    await entries.first().waitFor(slow);
    // The two commits; the editor save joins them once main journals every write.
    await expect.poll(() => entries.count()).toBeGreaterThanOrEqual(2);
    const times = await dialog
      .locator('time')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('datetime')));
    expect(times).toEqual([...times].sort().reverse());
    // The table is the dialog's title; each row says what was written, once.
    const newest = await entries.first().locator('.journal-line').innerText();
    expect(newest).toMatch(/^Committed 1 staged change\s+1 item\s/);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('undoes a later save of the same item first when the user asks, then the commit it changed', async () => {
    const third: [string, string] = [text(orders[4]!.PK), text(orders[4]!.SK)];
    const before = await storedCurrency(...third);
    await commitCurrency(...third, 'XAG');
    await openOrder(...third);
    await editor().getByLabel('currency', { exact: true }).fill('XPD');
    await editor().getByRole('button', { name: 'Save' }).click();
    await editor().getByRole('status').filter({ hasText: 'Saved' }).waitFor(slow);
    await editor().getByRole('button', { name: 'Close the editor' }).click();

    await page().getByRole('button', { name: 'Undo history…' }).click();
    const dialog = page().getByRole('dialog', { name: `Undo history — ${table}` });
    const entries = dialog.getByRole('list', { name: 'Recent writes' }).getByRole('listitem');
    // Newest first: the editor's save, then the grid commit it changed.
    await expect
      .poll(() => entries.first().locator('strong').innerText(), slow)
      .toBe('Saved in the item editor');
    await expect.poll(() => entries.nth(1).locator('strong').innerText()).toBe('Committed 1 staged change');
    // Found by its words, not its place: History lists each undo on top as it is made.
    const commit = entries
      .filter({ has: page().locator('strong', { hasText: /^Committed 1 staged change$/ }) })
      .first();
    await commit.getByRole('button', { name: /^Undo "/ }).click();
    await commit.getByText(/1 left as they are because they changed since your write/).waitFor(slow);
    await commit.getByText(/^Changed since by your later write: /).waitFor();
    await expect.poll(() => storedCurrency(...third)).toBe('XPD');
    await commit.getByRole('button', { name: /first, then this again$/ }).click();
    // Undone whole at last: the commit says so and offers Redo where its Undo was.
    await commit.getByText(/^Undone .*: 1 item put back$/).waitFor(slow);
    await commit.getByRole('button', { name: /^Redo "/ }).waitFor(slow);
    await expect.poll(() => storedCurrency(...third)).toBe(before);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    expect(session.browser.pageErrors).toEqual([]);
  });
});
