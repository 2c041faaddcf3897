import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  openItemInEditor,
  orderKey as keyOf,
  ordersWithCurrency,
  rawSampleItem,
  rowWith,
  scanPlaygroundTable,
  showOnlyRowsWith,
  valueText,
} from './support/grid-rows';
import { screenshotSizes, screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// The newcomer's walk through Items, part 1 (session 21): edit an item, save it, undo it from
// History and with Ctrl+Z, filter by a type, refresh, and the editor at 1024×700. The real
// browser-mode server and core, the playground's DynamoDB Local (read raw, past the SDK, as the
// oracle of what is stored), Chromium.
const table = 'DynoTableSample';
const slow = { timeout: 60_000 };
const session = useAppInBrowser({ withPlayground: true });
const page = (): Page => session.browser.page;
const editor = () => page().getByRole('complementary', { name: 'Item editor' });
const history = () => page().getByRole('dialog', { name: `Undo history — ${table}` });
const entries = () => history().getByRole('list', { name: 'Recent writes' }).getByRole('listitem');

const orders = ordersWithCurrency();
const raw = (key: [string, string]) => rawSampleItem(session.playgroundEndpoint, key);
const currency = () => editor().getByLabel('currency', { exact: true });

/** How far an element scrolls beyond what it shows, down (0 when it does not scroll). */
const overflowDown = (selector: string) =>
  page().evaluate((s) => {
    const element = s === 'document' ? document.scrollingElement : document.querySelector(s);
    return element ? element.scrollHeight - element.clientHeight : -1;
  }, selector);

describe("a newcomer's walk through Items", () => {
  it('lists one save once in History, and its Undo puts back the stored item exactly', async () => {
    await session.openPage();
    await scanPlaygroundTable(page(), table, /^352 items/);
    const item = keyOf(0);
    const before = await raw(item);
    await openItemInEditor(page(), ...item);
    await currency().fill('XTS');
    await editor().getByRole('button', { name: 'Save', exact: true }).click();
    await editor().getByRole('status').filter({ hasText: 'Saved' }).waitFor(slow);
    const saved = await raw(item);
    expect(saved).not.toBe(before);

    await page().getByRole('button', { name: 'Undo history…' }).click();
    await entries().first().waitFor(slow);
    // This file's journal starts empty: the one save is one entry, and its row says what was
    // done once (it read "Write from the item editor · Item editor · … Saved in the item editor").
    expect(await entries().count()).toBe(1);
    const save = entries().first();
    expect(await save.locator('strong').innerText()).toBe('Saved in the item editor');
    expect((await save.innerText()).match(/item editor/gi)).toHaveLength(1);
    await screenshots(page(), 'newcomer-items-history', history());

    await save.getByRole('button', { name: /^Undo "Saved in the item editor" of / }).click();
    await expect.poll(() => raw(item), slow).toBe(before);
    // The undo is a write of its own, listed once on top.
    await expect.poll(() => entries().count(), slow).toBe(2);
    expect(await entries().first().locator('strong').innerText()).toBe('Undo of "Saved in the item editor"');
    // The open editor follows the undo: the old value, nothing unsaved.
    await expect.poll(() => currency().inputValue(), slow).toBe(valueText(orders[0]!.currency));

    // The save says it was undone and offers Redo: an Undo there (it still offered one) had
    // nothing left to do. Redo writes the save again, once, as an entry of its own.
    const saveRow = entries().filter({
      has: page().locator('strong', { hasText: /^Saved in the item editor$/ }),
    });
    await saveRow.getByText(/^Undone .*: 1 item put back$/).waitFor(slow);
    const redo = saveRow.getByRole('button', { name: /^Redo "Saved in the item editor" of / });
    await redo.waitFor(slow);
    expect(await saveRow.getByRole('button', { name: /^Undo / }).count()).toBe(0);
    await screenshots(page(), 'newcomer-items-history-undone', history());
    await redo.click();
    await expect.poll(() => raw(item), slow).toBe(saved);
    await expect.poll(() => entries().count(), slow).toBe(3);
    expect(await entries().first().locator('strong').innerText()).toBe('Redo of "Saved in the item editor"');
    await expect.poll(() => currency().inputValue(), slow).toBe('XTS');
    // Redone, the save is in place again: Undo is back, and the row says what happened when.
    await saveRow.getByRole('button', { name: /^Undo "Saved in the item editor" of / }).waitFor(slow);
    await saveRow.getByText(/^Undone .*, redone .*$/).waitFor();
    await history().getByRole('button', { name: 'Close', exact: true }).click();
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('takes Ctrl+Z right after a save as undoing the save, and Ctrl+Z after typing as undoing the typing', async () => {
    const item = keyOf(1);
    const before = await raw(item);
    const old = valueText(orders[1]!.currency);
    await openItemInEditor(page(), ...item);
    await currency().fill('XPD');
    await currency().press('Control+S');
    await editor().getByRole('status').filter({ hasText: 'Saved' }).waitFor(slow);
    await expect.poll(() => raw(item)).not.toBe(before);
    await screenshots(
      page(),
      'newcomer-items-saved',
      editor().getByRole('button', { name: 'Undo', exact: true }),
    );

    // Focus is still in the field, whose own undo would take the text back to before the save
    // and leave an unsaved edit nobody asked for: the save is undone instead.
    await currency().press('Control+Z');
    await expect.poll(() => raw(item), slow).toBe(before);
    await expect.poll(() => currency().inputValue(), slow).toBe(old);
    await editor().getByText('Shows what an undo stored just now.').waitFor(slow);
    expect(await editor().getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);

    // With typing of the user's in the field, Ctrl+Z is the field's: the typing goes, the table stays.
    await currency().press('End');
    await currency().pressSequentially('Q');
    await expect.poll(() => currency().inputValue()).toBe(`${old}Q`);
    await currency().press('Control+Z');
    await expect.poll(() => currency().inputValue()).toBe(old);
    expect(await raw(item)).toBe(before);

    // A save by mouse puts focus back in the field, where Ctrl+S leaves it (it fell to the page
    // as the Save button turned disabled): typing goes on there, and Ctrl+Z undoes the save.
    await currency().fill('XAG');
    await editor().getByRole('button', { name: 'Save', exact: true }).click();
    await editor().getByRole('status').filter({ hasText: 'Saved' }).waitFor(slow);
    await expect.poll(() => raw(item)).not.toBe(before);
    await expect.poll(() => currency().evaluate((field) => field === document.activeElement)).toBe(true);
    await page().keyboard.press('Control+Z');
    await expect.poll(() => raw(item), slow).toBe(before);
    await expect.poll(() => currency().inputValue(), slow).toBe(old);

    // Ctrl+Z at once, while the save is on its way: the save is undone once it lands. The field's
    // own undo took the text back while the save went on, and left the item saved.
    await currency().fill('XAU');
    await editor().getByRole('button', { name: 'Save', exact: true }).click();
    await page().keyboard.press('Control+Z');
    await expect.poll(() => raw(item), slow).toBe(before);
    await expect.poll(() => currency().inputValue(), slow).toBe(old);
    await editor().getByText('Shows what an undo stored just now.').waitFor(slow);
    expect(await raw(item)).toBe(before);
    await editor().getByRole('button', { name: 'Close the editor' }).click();
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('keeps focus in the JSON view after Ctrl+S there, where Ctrl+Z then undoes the save', async () => {
    const item = keyOf(4);
    const before = await raw(item);
    const old = valueText(orders[4]!.currency);
    await openItemInEditor(page(), ...item);
    await editor().getByRole('tab', { name: 'JSON', exact: true }).click();
    const text = editor().getByRole('textbox', { name: 'Item as JSON' });
    const shown = await text.innerText();
    expect(shown).toContain(`"currency": "${old}"`);
    await text.click();
    await page().keyboard.press('Control+A');
    await page().keyboard.insertText(shown.replace(`"currency": "${old}"`, '"currency": "XPT"'));
    await page().keyboard.press('Control+S');
    await editor().getByRole('status').filter({ hasText: 'Saved' }).waitFor(slow);
    await expect.poll(() => raw(item)).not.toBe(before);
    // The text starts again from the item saved, and focus stays in it (it fell to the page).
    await expect.poll(() => text.evaluate((node) => node === document.activeElement)).toBe(true);
    // Nothing of the user's is left for CodeMirror's undo: Ctrl+Z is the save's.
    await page().keyboard.press('Control+Z');
    await expect.poll(() => raw(item), slow).toBe(before);
    await expect.poll(() => text.innerText(), slow).toContain(`"currency": "${old}"`);

    // Saved by mouse, the text (started again from the item saved) takes focus as after Ctrl+S.
    const again = await text.innerText();
    await text.click();
    await page().keyboard.press('Control+A');
    await page().keyboard.insertText(again.replace(`"currency": "${old}"`, '"currency": "XPD"'));
    await editor().getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => raw(item), slow).not.toBe(before);
    await expect.poll(() => text.evaluate((node) => node === document.activeElement)).toBe(true);
    await page().keyboard.press('Control+Z');
    await expect.poll(() => raw(item), slow).toBe(before);
    await editor().getByRole('tab', { name: 'Form', exact: true }).click();
    await editor().getByRole('button', { name: 'Close the editor' }).click();
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('names value types in words in the filter builder, DynamoDB’s code beside them', async () => {
    await page().getByRole('button', { name: '+ Filter' }).click();
    const type = page().getByRole('combobox', { name: 'Value type' });
    await expect
      .poll(() => type.locator('option').allInnerTexts())
      .toEqual(['String (S)', 'Number (N)', 'Binary (B)', 'Boolean (BOOL)', 'Null (NULL)']);
    await page().getByRole('combobox', { name: 'Operator' }).selectOption({ label: 'is of type' });
    await expect.poll(() => type.locator('option').count()).toBe(10);
    await type.selectOption({ label: 'String set (SS)' });
    await screenshots(page(), 'newcomer-items-filter-types', type);
    await page().getByRole('button', { name: 'Remove the condition' }).click();
    await type.waitFor({ state: 'detached' });
  });

  it('has one Refresh on Items, which F5 presses too, and it reads the items again', async () => {
    const refresh = page().getByRole('button', { name: /Refresh/ });
    await expect.poll(() => refresh.count()).toBe(1);
    expect(await refresh.getAttribute('aria-keyshortcuts')).toBe('F5');
    expect(await refresh.getAttribute('title')).toBe(`Refresh: read ${table} and its items again (F5)`);

    // Someone else changes an item: the grid shows it after a Refresh, not before.
    const [pk, sk] = keyOf(2);
    await showOnlyRowsWith(page(), sk);
    const row = rowWith(page(), pk, sk);
    await expect.poll(() => row.innerText(), slow).toContain(valueText(orders[2]!.currency));
    const { Item: stored } = await session.playgroundClient.send(
      new GetItemCommand({ TableName: table, Key: { PK: { S: pk }, SK: { S: sk } }, ConsistentRead: true }),
    );
    await session.playgroundClient.send(
      new PutItemCommand({ TableName: table, Item: { ...stored, currency: { S: 'XBT' } } }),
    );
    // A mark the page keeps until it is reloaded: F5 must be the app's Refresh, not the browser's.
    await page().evaluate(() => Object.assign(window, { notReloaded: true }));
    await page().locator('.item-grid-scroller').focus();
    await page().keyboard.press('F5');
    await expect.poll(() => row.innerText(), slow).toContain('XBT');
    await page()
      .locator('.progress-line')
      .filter({ hasText: /352 items/ })
      .waitFor(slow);
    expect(await page().evaluate(() => 'notReloaded' in window)).toBe(true);
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('keeps one scrollbar beside the editor at 1024×700, with a filter, Options and staged changes', async () => {
    await page().setViewportSize(screenshotSizes[0]);
    const item = keyOf(5);
    await openItemInEditor(page(), ...item);
    await currency().fill('XAU');
    await editor().getByRole('button', { name: 'Stage', exact: true }).click();
    await page().getByRole('region', { name: 'Staged changes' }).waitFor(slow);
    await openItemInEditor(page(), ...item);
    await page().getByRole('button', { name: '+ Filter' }).click();
    const options = page().getByRole('button', { name: 'Options' });
    if ((await options.getAttribute('aria-expanded')) !== 'true') await options.click();
    await page().getByRole('textbox', { name: 'Max items' }).waitFor();
    // The items' column scrolls by itself; the table page did, a second scrollbar beside the
    // editor's that carried the editor out of view.
    await expect.poll(() => overflowDown('.table-page-body')).toBeLessThanOrEqual(0);
    expect(await overflowDown('document')).toBeLessThanOrEqual(0);
    expect(await overflowDown('.items-main')).toBeGreaterThan(0);
    const box = await editor().boundingBox();
    expect((box?.y ?? 0) + (box?.height ?? Infinity)).toBeLessThanOrEqual(screenshotSizes[0].height);
    await screenshots(page(), 'newcomer-items-editor-scrollbars', undefined, {
      check: async () => {
        await expect.poll(() => overflowDown('.table-page-body')).toBeLessThanOrEqual(0);
        expect(await overflowDown('document')).toBeLessThanOrEqual(0);
      },
    });
    await page().getByRole('button', { name: 'Remove the condition' }).click();
    expect(session.browser.pageErrors).toEqual([]);
  });
});
