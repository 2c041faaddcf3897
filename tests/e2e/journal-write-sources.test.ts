import { describe, expect, it } from 'vitest';
import { ordersWithCurrency, scanPlaygroundTable, valueText } from './support/grid-rows';
import { useAppInBrowser } from './support/session';
import { writeWalk } from './support/write-walk';

// Write sources beyond the grid, the editor and bulk, each walked once in Debian's Chromium
// against the browser-mode server and the playground's DynamoDB Local: the write shows in the
// grid and in an open item editor, History lists it under its source, and its Undo puts back
// exactly what DynamoDB Local's raw wire JSON held before it.
const table = 'DynoTableSample';
const slow = { timeout: 60_000 };

const session = useAppInBrowser({ withPlayground: true });
const page = () => session.browser.page;
const staged = () => page().getByRole('region', { name: 'Staged changes' });

const order = ordersWithCurrency()[3]!;
const walk = writeWalk(page, () => session.playgroundEndpoint, {
  table,
  pk: valueText(order.PK),
  sk: valueText(order.SK),
  key: { PK: order.PK, SK: order.SK },
});
const row = walk.row;
const rawItem = walk.raw;
const editorCurrency = () => walk.field('currency').inputValue();

/** Edits the currency cell of the row in place and commits it from the staged panel. */
async function commitCurrencyInGrid(currency: string): Promise<void> {
  const column = await page()
    .getByRole('columnheader', { name: /^currency/ })
    .getAttribute('aria-colindex');
  const cell = row().locator(`[role="gridcell"][aria-colindex="${column}"]`);
  await cell.scrollIntoViewIfNeeded(slow);
  await cell.click();
  await page().keyboard.press('Enter');
  const input = page().getByRole('textbox', { name: /^New value of currency/ });
  await input.fill(currency);
  await input.press('Enter');
  await staged().getByText('1 staged change').waitFor(slow);
  await staged().getByRole('button', { name: 'Commit' }).click();
  await page().getByRole('status').filter({ hasText: 'Committed: 1 item written.' }).waitFor(slow);
}

describe('every write source shows everywhere and is undone exactly', () => {
  it('undo: an undo is a write of its own — grid and editor follow it, History lists it, and the commit’s Redo (undoing it) restores the raw item', async () => {
    const p = await session.openPage();
    await scanPlaygroundTable(p, table, /^\d+ items/);
    const loaded = valueText(order.currency);
    const original = await rawItem();
    await walk.openInGridAndEditor();
    await expect.poll(editorCurrency, slow).toBe(loaded);

    await commitCurrencyInGrid('XPT');
    // The confirmation goes away after 10 s unless hovered; under load the checks below take longer.
    await p.locator('.commit-done').hover();
    await expect.poll(editorCurrency, slow).toBe('XPT');
    const committed = await rawItem();

    // The toast's Undo is the source "undo": grid and the open editor follow it.
    await p.getByRole('button', { name: 'Undo this commit' }).click();
    await p.getByText('Undo: 1 item put back.').waitFor(slow);
    await walk.shows('currency', loaded);
    await expect.poll(() => rawItem()).toBe(original);

    // History lists the undo in its own words, on top. Undoing it is the commit's redo, offered
    // once, on the commit: the undo's row says so and has no button of its own doing the same.
    await page().getByRole('button', { name: 'Undo history…' }).click();
    const history = page().getByRole('dialog', { name: `Undo history — ${table}` });
    const entries = history.getByRole('list', { name: 'Recent writes' }).getByRole('listitem');
    const undoRow = entries.first();
    await expect
      .poll(() => undoRow.locator('.journal-reason').innerText(), slow)
      .toBe('Undo of "Committed 1 staged change"');
    await undoRow
      .getByText(/^To write "Committed 1 staged change" of .* again, use Redo on it\.$/)
      .waitFor(slow);
    expect(await undoRow.getByRole('button').count()).toBe(0);
    await history.getByRole('button', { name: /^Redo "Committed 1 staged change" of / }).click();
    await expect.poll(() => rawItem(), slow).toBe(committed);
    await history.getByRole('button', { name: 'Close', exact: true }).click();

    // Undoing the undo wrote the commit's result back, byte for byte, and every view shows it.
    await walk.shows('currency', 'XPT');
    expect(session.browser.pageErrors).toEqual([]);
  });
});
