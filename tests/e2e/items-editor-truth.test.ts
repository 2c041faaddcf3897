import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { openRowByKey, rowWith, showOnlyRowsWith } from './support/grid-rows';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// The item editor follows the truth: a write to the open item from elsewhere in DynoTable (an
// inline edit committed from the grid, a bulk delete) refreshes it when nothing is typed, and
// shows loaded / stored now / yours when something is. Debian's Chromium, the browser-mode
// server, the playground's DynamoDB Local.
const table = 'DynoTableSample';
const slow = { timeout: 60_000 };
const [pk, sk] = ['USER#u1', 'BALANCE'];

const session = useAppInBrowser({ withPlayground: true });
const page = () => session.browser.page;
const editor = () => page().getByRole('complementary', { name: 'Item editor' });
const staged = () => page().getByRole('region', { name: 'Staged changes' });
const field = (name: string) => editor().getByLabel(name, { exact: true });

const row = () => rowWith(page(), pk, sk);

async function stored() {
  const output = await session.playgroundClient.send(
    new GetItemCommand({ TableName: table, Key: { PK: { S: pk }, SK: { S: sk } }, ConsistentRead: true }),
  );
  return output.Item;
}

/** Edits the currency cell of the row in place and commits it from the staged panel. */
async function commitCurrencyInGrid(currency: string): Promise<void> {
  const header = page().locator('.item-grid-th', { hasText: /^currency/ });
  // The header is drawn again while the grid settles (a scroll or a new column replaces the
  // element): find it again until it can be scrolled to, rather than hold the element found first.
  await expect
    .poll(
      () =>
        header.scrollIntoViewIfNeeded({ timeout: 5_000 }).then(
          () => true,
          () => false,
        ),
      slow,
    )
    .toBe(true);
  const column = await page()
    .getByRole('columnheader', { name: /^currency/ })
    .getAttribute('aria-colindex');
  const target = row().locator(`[role="gridcell"][aria-colindex="${column}"]`);
  await target.click();
  await page().keyboard.press('Enter');
  const input = page().getByRole('textbox', { name: /^New value of currency/ });
  await input.fill(currency);
  await input.press('Enter');
  await staged().getByText('1 staged change').waitFor(slow);
  await staged().getByRole('button', { name: 'Commit' }).click();
  await page().getByRole('status').filter({ hasText: 'Committed: 1 item written.' }).waitFor(slow);
  await expect.poll(async () => (await stored())?.currency?.S).toBe(currency);
}

describe('the item editor follows what is stored', () => {
  it('shows an inline edit committed from the grid at once when nothing was typed in the editor', async () => {
    const p = await session.openPage();
    await p.getByRole('button', { name: 'Open playground' }).click();
    await p.getByRole('button', { name: table, exact: true }).click(slow);
    // The read has ended (its capacity is shown), so no page adds columns while the walk edits.
    await p.getByRole('status').filter({ hasText: /RCU/ }).waitFor(slow);
    await showOnlyRowsWith(p, '1498.29', sk);
    await row().waitFor(slow);
    await openRowByKey(row());
    await editor()
      .locator('h2')
      .filter({ hasText: `${pk} · ${sk}` })
      .waitFor();
    await expect.poll(() => field('currency').inputValue(), slow).toBe('EUR');

    await commitCurrencyInGrid('USD');
    await expect.poll(() => field('currency').inputValue(), slow).toBe('USD');
    await editor().getByText('No changes.').waitFor();
    await expect.poll(() => editor().getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await expect.poll(() => editor().getByRole('region', { name: 'Conflict' }).count()).toBe(0);
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('with unsaved edits shows loaded, stored now and yours, naming the other write, and keeps both', async () => {
    await field('balance').fill('1500.00');
    await commitCurrencyInGrid('GBP');

    const conflict = editor().getByRole('region', { name: 'Conflict' });
    await conflict.waitFor(slow);
    // Main names the write's source: the user's own inline edit, committed from the grid.
    await conflict
      .getByRole('heading', {
        name: /^This item was changed by your inline edit in the grid$/,
      })
      .waitFor();
    await conflict.getByText('Your edits are not saved yet.', { exact: false }).waitFor();
    const cells = (name: string) =>
      conflict.getByRole('row', { name: new RegExp(`^${name}`) }).getByRole('cell');
    await expect
      .poll(() => cells('currency').allInnerTexts())
      .toEqual([
        'currency',
        JSON.stringify({ S: 'USD' }),
        JSON.stringify({ S: 'GBP' }),
        JSON.stringify({ S: 'USD' }),
      ]);
    await expect
      .poll(() => cells('balance').allInnerTexts())
      .toEqual([
        'balance',
        JSON.stringify({ N: '1498.29' }),
        JSON.stringify({ N: '1498.29' }),
        JSON.stringify({ N: '1500.00' }),
      ]);
    await screenshots(page(), 'editor-changed-elsewhere', editor());

    await conflict.getByRole('button', { name: 'Apply my changes to the stored item' }).click();
    await expect.poll(() => field('currency').inputValue()).toBe('GBP');
    await expect.poll(() => field('balance').inputValue()).toBe('1500.00');
    await editor().getByRole('button', { name: 'Save' }).click();
    await editor().getByRole('status').filter({ hasText: 'Saved' }).waitFor(slow);
    const item = await stored();
    expect([item?.currency?.S, item?.balance?.N]).toEqual(['GBP', '1500.00']);
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('says so when the open item is deleted elsewhere', async () => {
    await showOnlyRowsWith(page(), '1500.00', sk);
    await page()
      .locator('.item-grid-scroller')
      .evaluate((element) => (element.scrollLeft = 0));
    await row().getByRole('checkbox').click(slow);
    await page().getByRole('button', { name: 'Delete / update…' }).click();
    const dialog = page().getByRole('dialog');
    await dialog.getByRole('radio', { name: 'Delete' }).check();
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByRole('button', { name: 'Delete 1' }).click();
    await expect.poll(async () => (await stored()) === undefined, slow).toBe(true);
    await dialog.getByRole('button', { name: 'Close the dialog' }).click();
    await editor()
      .getByText(/^This item was deleted by a bulk delete\. Saving creates it again\.$/)
      .waitFor(slow);
    expect(session.browser.pageErrors).toEqual([]);
  });
});
