import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { rowWith, scanPlaygroundTable, showOnlyRowsWith } from './support/grid-rows';
import { useAppInBrowser } from './support/session';

// Selection means what the user picked: the playground's table in Debian's Chromium against the
// browser-mode server. After a delete, a sort, a filter or a refresh, no row the user did not
// tick is ticked, and an item that left the view leaves the selection with the count saying so.
const table = 'DynoTableSample';
const slow = { timeout: 60_000 };

const session = useAppInBrowser({ withPlayground: true });
const page = () => session.browser.page;
const progress = () => page().locator('.progress-line');
const toolbar = () => page().locator('.items-toolbar');
const tick = (pk: string, sk: string): Promise<void> =>
  rowWith(page(), pk, sk).getByRole('checkbox').click(slow);
/** The key cells of every ticked row in the DOM, "PK/SK". */
const tickedRows = async (): Promise<string[]> => {
  const rows = page().locator('.item-grid-row[aria-selected="true"]:not(.collection-row)');
  const keys: string[] = [];
  for (const row of await rows.all()) {
    const cells = await row.locator('.item-grid-cell').allInnerTexts();
    keys.push(`${cells[0]}/${cells[1]}`);
  }
  return keys.sort();
};

async function stored(pk: string, sk: string) {
  const output = await session.playgroundClient.send(
    new GetItemCommand({ TableName: table, Key: { PK: { S: pk }, SK: { S: sk } }, ConsistentRead: true }),
  );
  return output.Item;
}

describe('selection means what the user picked', () => {
  it('after deleting the one ticked item, nothing else is ticked and nothing is counted as selected', async () => {
    const p = await session.openPage();
    await scanPlaygroundTable(p, table, /^3\d\d items/);
    await showOnlyRowsWith(page(), 'USER#u16');
    await rowWith(page(), 'USER#u16', 'PROFILE').waitFor(slow);

    await tick('USER#u16', 'ORDER#o56');
    await toolbar().getByText('1 selected', { exact: true }).waitFor();
    await expect.poll(() => tickedRows()).toEqual(['USER#u16/ORDER#o56']);

    await p.getByRole('button', { name: 'Delete / update…' }).click();
    const dialog = p.getByRole('dialog');
    await dialog.getByRole('radio', { name: 'Delete' }).check();
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByRole('button', { name: 'Delete 1' }).click();
    await expect.poll(async () => (await stored('USER#u16', 'ORDER#o56')) === undefined, slow).toBe(true);
    await dialog
      .getByText(/deleted/i)
      .first()
      .waitFor(slow);
    await dialog.getByRole('button', { name: 'Close the dialog' }).click();
    await dialog.waitFor({ state: 'detached' });

    await rowWith(page(), 'USER#u16', 'ORDER#o56').waitFor({ state: 'detached', ...slow });
    await rowWith(page(), 'USER#u16', 'PROFILE').waitFor(slow);
    await expect.poll(() => tickedRows()).toEqual([]);
    await expect.poll(() => toolbar().innerText()).not.toMatch(/\d+ selected/);
    // The other items of the collection are still there, unticked: none became "the selection".
    await expect
      .poll(() => rowWith(page(), 'USER#u16', 'PROFILE').getAttribute('aria-selected'))
      .toBe('false');
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('keeps the ticked items ticked through a sort and a refresh, and drops one that a filter took out of view', async () => {
    await showOnlyRowsWith(page(), 'USER#u16');
    await tick('USER#u16', 'BALANCE');
    await tick('USER#u16', 'ORDER#o55');
    await toolbar().getByText('2 selected', { exact: true }).waitFor();

    // Sort by SK descending: the same two items stay ticked, at other positions.
    const skHeader = page().locator('.item-grid-th', { hasText: /^SK/ });
    await skHeader.click();
    await skHeader.click();
    await expect
      .poll(
        async () => (await page().locator('.item-grid-row').first().innerText()).includes('PROFILE'),
        slow,
      )
      .toBe(true);
    await expect.poll(tickedRows, slow).toEqual(['USER#u16/BALANCE', 'USER#u16/ORDER#o55']);
    await toolbar().getByText('2 selected', { exact: true }).waitFor();

    await page().getByRole('button', { name: 'Refresh', exact: true }).click();
    await progress()
      .filter({ hasText: /^\d+ of 3\d\d items/ })
      .waitFor(slow);
    await expect.poll(tickedRows, slow).toEqual(['USER#u16/BALANCE', 'USER#u16/ORDER#o55']);
    await toolbar().getByText('2 selected', { exact: true }).waitFor();

    // A filter that leaves only BALANCE in view: ORDER#o55 leaves the selection, and the count says so.
    await showOnlyRowsWith(page(), '857.56', 'BALANCE');
    await toolbar().getByText('1 selected', { exact: true }).waitFor(slow);
    await page().getByText('1 selected item left the view and is no longer selected.').waitFor(slow);
    await expect.poll(() => tickedRows()).toEqual(['USER#u16/BALANCE']);
    expect(session.browser.pageErrors).toEqual([]);
  });
});
