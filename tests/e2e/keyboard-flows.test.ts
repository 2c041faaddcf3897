import {
  type AttributeValue,
  CreateTableCommand,
  GetItemCommand,
  UpdateItemCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SAMPLE_TABLE } from '../../resources/playground/sample-table';
import { describeFocus, expectFocusVisible, isFocused, tabTo } from './support/keyboard';
import { useFakeBedrock, vipProposal } from './support/assistant';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// Every flow of issue #18 item 3 driven with the keyboard alone: no click, no fill, no
// selectOption; only Tab, Enter, Space, typed text and the app's shortcuts. Real server, core,
// playground on real Java, Chromium; the assistant talks to the fake Bedrock. No fixed sleeps.
const slow = { timeout: 120_000 };

const session = useAppInBrowser({ withPlayground: true });
const bedrock = useFakeBedrock();

const page = (): Page => session.browser.page;
const editor = () => page().getByRole('complementary', { name: 'Item editor' });

async function stored(pk: string, sk: string): Promise<Record<string, AttributeValue> | undefined> {
  const output = await session.playgroundClient.send(
    new GetItemCommand({
      TableName: SAMPLE_TABLE,
      Key: { PK: { S: pk }, SK: { S: sk } },
      ConsistentRead: true,
    }),
  );
  return output.Item;
}

/** Replaces a text field's value the way a person does: select all, type. */
async function retype(text: string): Promise<void> {
  await page().keyboard.press('Control+A');
  await page().keyboard.type(text);
}

async function press(target: ReturnType<Page['getByRole']>, key = 'Enter'): Promise<void> {
  await tabTo(page(), target);
  await page().keyboard.press(key);
}

/**
 * A tab strip is one stop for Tab (roving tabindex): walk to its selected tab, then arrow to
 * `name`, each arrow activating the tab it lands on.
 */
async function arrowToTab(strip: ReturnType<Page['getByRole']>, name: string): Promise<void> {
  await tabTo(page(), strip.getByRole('tab', { selected: true }));
  const target = strip.getByRole('tab', { name, exact: true });
  for (let i = 0; i < 10 && !(await isFocused(target)); i++) await page().keyboard.press('ArrowRight');
  expect(await isFocused(target), await describeFocus(page())).toBe(true);
  await strip.getByRole('tab', { name, exact: true, selected: true }).waitFor();
}

/** The name of each tab of a strip, and which one is selected, focused and in the Tab order. */
async function tabState(strip: ReturnType<Page['getByRole']>) {
  return strip.getByRole('tab').evaluateAll((tabs) =>
    tabs.map((tab) => ({
      name: tab.textContent.trim(),
      selected: tab.getAttribute('aria-selected') === 'true',
      focused: tab === document.activeElement,
      tabbable: (tab as HTMLElement).tabIndex === 0,
    })),
  );
}

describe('every flow without a mouse', () => {
  it('opens the playground and a table', async () => {
    await session.openPage();
    await tabTo(page(), page().getByRole('button', { name: 'Open playground' }));
    await screenshots(page(), 'focus-connections', undefined, { check: expectFocusVisible });
    await page().keyboard.press('Enter');
    await page().getByTestId('table-row').filter({ hasText: SAMPLE_TABLE }).waitFor(slow);
    await page().keyboard.press('Control+K');
    await page().keyboard.type(SAMPLE_TABLE);
    await page().keyboard.press('Enter');
    await page().getByRole('heading', { level: 1, name: SAMPLE_TABLE }).waitFor();
    await page().getByRole('tab', { name: 'Items', selected: true }).waitFor();
  });

  it('queries a partition with Ctrl+Enter', async () => {
    await press(page().getByRole('radio', { name: 'Query' }), 'Space');
    await tabTo(page(), page().getByLabel('Partition key PK'));
    await page().keyboard.type('USER#u1');
    await page().keyboard.press('Control+Enter');
    await page().locator('.item-grid-row').first().locator('.item-grid-cell').first().waitFor(slow);
    await page()
      .getByRole('status')
      .filter({ hasText: /\d+ items/ })
      .first()
      .waitFor();
  });

  it('opens an item through the editor, edits it and saves with Ctrl+S', async () => {
    await press(page().getByRole('button', { name: 'New item' }));
    await tabTo(page(), editor().getByLabel('PK', { exact: true }));
    await page().keyboard.type('USER#u1');
    await tabTo(page(), editor().getByLabel('SK', { exact: true }));
    await page().keyboard.type('PROFILE');
    await press(editor().getByRole('button', { name: 'Create' }));
    await press(editor().getByRole('button', { name: 'Open that item' }));
    await editor().getByRole('heading', { name: 'USER#u1 · PROFILE' }).waitFor();
    await tabTo(page(), editor().getByLabel('name', { exact: true }));
    await screenshots(page(), 'focus-item-editor', undefined, { check: expectFocusVisible });
    await retype('Keyboard Kim');
    await page().keyboard.press('Control+S');
    await editor().getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await expect.poll(async () => (await stored('USER#u1', 'PROFILE'))?.name?.S).toBe('Keyboard Kim');
  });

  it('resolves a conflict by applying my change on top of theirs', async () => {
    await session.playgroundClient.send(
      new UpdateItemCommand({
        TableName: SAMPLE_TABLE,
        Key: { PK: { S: 'USER#u1' }, SK: { S: 'PROFILE' } },
        UpdateExpression: 'SET #n = :n, #e = :e',
        ExpressionAttributeNames: { '#n': 'name', '#e': 'email' },
        ExpressionAttributeValues: { ':n': { S: 'Someone Else' }, ':e': { S: 'else@example.com' } },
      }),
    );
    await tabTo(page(), editor().getByLabel('name', { exact: true }), { back: true });
    await retype('Keyboard Kai');
    await page().keyboard.press('Control+S');
    const conflict = editor().getByRole('region', { name: 'Conflict' });
    await conflict.waitFor();
    await press(conflict.getByRole('button', { name: 'Apply my changes to the stored item' }));
    await expect
      .poll(() => editor().getByLabel('email', { exact: true }).inputValue(), slow)
      .toBe('else@example.com');
    await tabTo(page(), editor().getByRole('button', { name: 'Save' }));
    await page().keyboard.press('Enter');
    await editor().getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const item = await stored('USER#u1', 'PROFILE');
    expect([item?.name?.S, item?.email?.S]).toEqual(['Keyboard Kai', 'else@example.com']);
  });

  it('stages a change and commits it', async () => {
    await tabTo(page(), editor().getByLabel('name', { exact: true }), { back: true });
    await retype('Staged Sam');
    await press(editor().getByRole('button', { name: 'Stage', exact: true }));
    const staged = page().getByRole('region', { name: 'Staged changes' });
    await staged.getByText('1 staged change').waitFor();
    await expect.poll(async () => (await stored('USER#u1', 'PROFILE'))?.name?.S).toBe('Keyboard Kai');
    await press(staged.getByRole('button', { name: 'Commit' }));
    await expect.poll(async () => (await stored('USER#u1', 'PROFILE'))?.name?.S, slow).toBe('Staged Sam');
  });

  it('traps focus in a dialog and gives it back on Esc', async () => {
    const opener = page().getByRole('button', { name: 'Export…' });
    await press(opener);
    const dialog = page().getByRole('dialog', { name: 'Export' });
    await dialog.waitFor();
    for (let i = 0; i < 25; i++) {
      await page().keyboard.press('Tab');
      expect(await isFocused(dialog), await describeFocus(page())).toBe(true);
      await expectFocusVisible(page());
    }
    await page().keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(opener)).toBe(true);
  });

  it('shows the keyboard map on F1 and ?, and closes it with Esc', async () => {
    const before = await describeFocus(page());
    await page().keyboard.press('F1');
    const help = page().getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByRole('heading', { name: 'SQL', exact: true }).waitFor();
    await expect.poll(() => help.innerText()).toMatch(/Ctrl Enter\s+Run the statement/);
    await screenshots(page(), 'keyboard-help', undefined, { check: expectFocusVisible });
    await page().keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    await expect.poll(() => describeFocus(page())).toBe(before);
    await page().keyboard.press('?');
    await help.waitFor();
    await page().keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  });

  it('runs SQL with Ctrl+Enter and reads the plan with Ctrl+Shift+Enter', async () => {
    // Alt+n goes to the n-th tab: Tables, SQL, then the open table.
    await page().keyboard.press('Alt+2');
    await page().getByRole('tab', { name: 'SQL', selected: true }).waitFor();
    await page().getByRole('button', { name: 'orders', exact: true }).waitFor(slow);
    await tabTo(page(), page().getByRole('textbox', { name: 'SQL statement' }));
    await retype("SELECT SK, status FROM orders WHERE PK = 'USER#u1' ORDER BY SK");
    await page().keyboard.press('Control+Enter');
    await page().locator('.sql-grid [role="gridcell"]').first().waitFor(slow);
    await page().keyboard.press('Control+Shift+Enter');
    await page().getByRole('tab', { name: 'Plan', selected: true }).waitFor();
    await page().locator('.sql-plan').waitFor(slow);
    // The plan scrolls, so it is a tab stop of its own. Tab indents in the editor: Esc closes the
    // completion list typing opened, a second Esc lets the next Tab leave (CodeMirror's rule).
    await page().keyboard.press('Escape');
    await page().keyboard.press('Escape');
    await tabTo(page(), page().getByRole('region', { name: 'Plan' }));
    await screenshots(page(), 'focus-sql-plan', undefined, { check: expectFocusVisible });
    await expect.poll(() => page().locator('.sql-plan').innerText()).toMatch(/Query/);
  });

  it('runs the pre-flight scan', async () => {
    await page().keyboard.press('Alt+3');
    await page().getByRole('tab', { name: SAMPLE_TABLE, selected: true }).waitFor();
    await arrowToTab(page().getByRole('tablist', { name: `${SAMPLE_TABLE} views` }), 'Pre-flight');
    await press(page().getByRole('button', { name: 'Scan table' }));
    await page().locator('.mig-verdict').waitFor(slow);
  });

  it('asks the assistant and approves its write', async () => {
    // Ctrl+K lands in the table filter, just after the top bar: walk back to the Assistant toggle.
    await page().keyboard.press('Control+K');
    await tabTo(page(), page().getByTestId('top-bar').getByRole('button', { name: 'Assistant' }), {
      back: true,
    });
    await page().keyboard.press('Enter');
    const assistant = page().getByRole('complementary', { name: 'Assistant' });
    await press(assistant.getByRole('button', { name: 'Settings' }));
    await tabTo(page(), assistant.getByLabel('Bedrock endpoint (optional)'));
    await retype(bedrock.fake.endpoint);
    await press(assistant.getByRole('button', { name: 'Save' }));
    await assistant.getByLabel('Bedrock endpoint (optional)').waitFor({ state: 'detached' });
    bedrock.fake.script = vipProposal('Marked u1 as VIP.');
    await tabTo(page(), assistant.getByRole('textbox', { name: 'Question for the assistant' }));
    await page().keyboard.type('Mark u1 as VIP');
    await page().keyboard.press('Enter');
    const card = assistant.getByRole('region', { name: 'Approval needed' });
    await press(card.getByRole('button', { name: 'Approve and write' }));
    await assistant.getByText('Marked u1 as VIP.').waitFor(slow);
    await expect.poll(async () => (await stored('USER#u1', 'PROFILE'))?.vip?.BOOL).toBe(true);
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('moves between table tabs with the arrows, Home and End, and closes one with Delete', async () => {
    const second = 'KeyboardTabs';
    await session.playgroundClient.send(
      new CreateTableCommand({
        TableName: second,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      }),
    );
    await waitUntilTableExists({ client: session.playgroundClient, maxWaitTime: 60 }, { TableName: second });
    await page().keyboard.press('Alt+1');
    await press(page().getByRole('button', { name: 'Refresh' }));
    await page().getByTestId('table-row').filter({ hasText: second }).waitFor(slow);
    await page().keyboard.press('Control+K');
    await page().keyboard.type(second);
    await page().keyboard.press('Enter');
    await page().getByRole('heading', { level: 1, name: second }).waitFor();

    const strip = page().getByRole('tablist', { name: 'Open tabs' });
    const names = (await tabState(strip)).map((tab) => tab.name);
    expect(names.slice(-2)).toEqual([SAMPLE_TABLE, second]);
    // One stop for Tab, on the selected tab; Shift+Tab from outside comes back to it.
    await tabTo(page(), strip.getByRole('tab', { selected: true }), { back: true });
    // Exactly one tab is selected, focused and in the Tab order, and it is `name`.
    const expectOn = async (name: string) => {
      // Focus follows once the tab has rendered as selected: poll rather than race the effect.
      await expect
        .poll(
          async () => (await tabState(strip)).filter((tab) => tab.selected || tab.focused || tab.tabbable),
          slow,
        )
        .toEqual([{ name, selected: true, focused: true, tabbable: true }]);
      await expectFocusVisible(page());
    };
    await expectOn(second);

    await page().keyboard.press('ArrowLeft');
    await expectOn(SAMPLE_TABLE);
    await page().getByRole('heading', { level: 1, name: SAMPLE_TABLE }).waitFor();
    await page().keyboard.press('Home');
    await expectOn('Tables');
    await page()
      .getByRole('heading', { level: 1, name: /^Tables in/ })
      .waitFor();
    await page().keyboard.press('ArrowLeft');
    await expectOn(second);
    await page().keyboard.press('ArrowRight');
    await expectOn('Tables');
    await page().keyboard.press('End');
    await expectOn(second);
    await screenshots(page(), 'focus-table-tabs', undefined, { check: expectFocusVisible });

    // Delete closes a table tab and focus stays in the strip, on the tab selected next.
    await page().keyboard.press('Delete');
    await strip.getByRole('tab', { name: second }).waitFor({ state: 'detached' });
    await expectOn(SAMPLE_TABLE);
    // The table list is not a tab that closes.
    await page().keyboard.press('Home');
    await page().keyboard.press('Delete');
    await expectOn('Tables');
    await expect.poll(async () => (await tabState(strip)).map((tab) => tab.name)).toEqual(names.slice(0, -1));
    expect(session.browser.pageErrors).toEqual([]);
  });
});
