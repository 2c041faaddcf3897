import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleItems } from '../../resources/playground/sample-table';
import { useAppInBrowser } from './support/session';

// A reload (browser mode) finds the workspace as it was left: the open connection, its tabs, the
// table's query form, the SQL editor's text. Saved in main's data folder, without secrets or items.
const table = 'DynoTableSample';
const slow = { timeout: 60_000 };
const sql = "SELECT PK, SK FROM DynoTableSample WHERE PK = 'USER#u3' -- kept across a reload";

const shipped = sampleItems().filter(
  (item) => (item.GSI1PK as { S?: string } | undefined)?.S === 'STATUS#SHIPPED',
);
const queried = new RegExp(`^${shipped.length} items? · 1 page`);

const session = useAppInBrowser({ withPlayground: true });

async function savedFile(): Promise<string> {
  return readFile(path.join(session.app.dataDir, 'workspace.json'), 'utf8').catch(() => '');
}

describe('the workspace survives a reload', () => {
  it('reopens the connection, the table tab, its query form and the SQL text', async () => {
    const page = await session.openPage();
    await page.getByRole('button', { name: 'Open playground' }).click();
    await page.getByRole('button', { name: table, exact: true }).click(slow);
    await page.getByRole('radio', { name: 'Query' }).click();
    await page.getByLabel('Table or index').selectOption('GSI1');
    await page.getByLabel('Partition key GSI1PK').fill('STATUS#SHIPPED');
    await page.getByRole('button', { name: 'Query', exact: true }).last().click();
    await page.locator('.progress-line').filter({ hasText: queried }).waitFor(slow);

    const tabs = page.getByRole('tablist', { name: 'Open tabs' });
    await tabs.getByRole('tab', { name: 'SQL', exact: true }).click();
    const editor = page.locator('.sql-editor .cm-content');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(sql);
    await tabs.getByRole('tab', { name: table, exact: true }).click();
    // One saved snapshot with the SQL text, the form and the table's tab active: the texts may be
    // saved while SQL was still the active tab, and the switch back 400 ms later.
    const isWhole = (text: string): boolean =>
      ['kept across a reload', 'STATUS#SHIPPED', `"active":"table:${table}"`].every((part) =>
        text.includes(part),
      );
    await expect.poll(async () => isWhole(await savedFile()), slow).toBe(true);

    await page.reload();
    // No picker: the playground's workspace, on the table's Items tab, with the form as typed.
    await tabs.getByRole('tab', { name: table, exact: true }).waitFor(slow);
    await expect.poll(() => page.getByRole('button', { name: 'Open playground' }).count()).toBe(0);
    await expect
      .poll(() => tabs.getByRole('tab', { name: table, exact: true }).getAttribute('aria-selected'))
      .toBe('true');
    await expect
      .poll(() => page.getByRole('tab', { name: 'Items' }).getAttribute('aria-selected'))
      .toBe('true');
    await expect.poll(() => page.getByRole('radio', { name: 'Query' }).isChecked()).toBe(true);
    await expect.poll(() => page.getByLabel('Table or index').inputValue()).toBe('GSI1');
    await expect.poll(() => page.getByLabel('Partition key GSI1PK').inputValue()).toBe('STATUS#SHIPPED');
    // The restored form is what the tab reads with on opening: the shipped orders, not a scan.
    await page.locator('.progress-line').filter({ hasText: queried }).waitFor(slow);

    await tabs.getByRole('tab', { name: 'SQL', exact: true }).click();
    await expect.poll(() => editor.innerText(), slow).toContain('kept across a reload');

    // Nothing secret and no item data: the form and the text are what the user typed.
    const saved = await savedFile();
    expect(saved).not.toMatch(/secret|accessKey|sessionToken|"S":|"N":/i);
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('shows no picker to click until the saved workspace is known, then opens straight into it', async () => {
    const { page } = session.browser;
    // Main is slow to answer workspace:load: the picker must not be there to be clicked, only to
    // vanish under the click when the restored connection opens.
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/api/workspace:load', async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Opening your workspace…' }).waitFor(slow);
    await expect.poll(() => page.getByRole('button', { name: 'Open playground' }).count()).toBe(0);

    answer();
    const tabs = page.getByRole('tablist', { name: 'Open tabs' });
    await tabs.getByRole('tab', { name: table, exact: true }).waitFor(slow);
    await expect.poll(() => page.getByRole('button', { name: 'Open playground' }).count()).toBe(0);
    await page.unroute('**/api/workspace:load');
  });
});
