import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sampleItems } from '../../resources/playground/sample-table';
import { useColorScheme } from './support/browser';
import { useAppInBrowser } from './support/session';

// Statement tabs, rows that open their item, and results that say they are out of date after a
// failed statement: driven like a user, on the playground's sample table, in Chromium.
const slow = { timeout: 60_000 };
const session = useAppInBrowser({ withPlayground: true });

const text = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null && 'S' in value ? (value as { S: string }).S : undefined;

/** The orders of USER#u1 by total, largest first, from the sample items themselves. */
function ordersOfU1(): { PK: string; SK: string; orderId: string; cents: number }[] {
  return sampleItems()
    .filter((i) => text(i.PK) === 'USER#u1' && text(i.SK)?.startsWith('ORDER#'))
    .map((i) => ({
      PK: text(i.PK)!,
      SK: text(i.SK)!,
      orderId: text(i.orderId)!,
      cents: Math.round(Number((i.total as { N: string }).N) * 100),
    }))
    .sort((a, b) => b.cents - a.cents || (a.orderId < b.orderId ? -1 : 1));
}

async function typeStatement(page: Page, sql: string): Promise<void> {
  await page.locator('.sql-editor .cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(sql);
}

async function openWorkbench(): Promise<Page> {
  const page = await session.openPage();
  await page.getByRole('button', { name: 'Open playground' }).click();
  await page.getByRole('tab', { name: 'SQL', exact: true }).click(slow);
  await page.getByRole('button', { name: 'orders', exact: true }).waitFor(slow);
  return page;
}

const statements = (page: Page) => page.getByRole('tablist', { name: 'Statements' });
const firstCells = (page: Page) =>
  page.locator('.sql-grid [role="row"][aria-rowindex="2"] [role="gridcell"]').allInnerTexts();

describe('SQL workbench: tabs, item links, out-of-date results', () => {
  it('keeps a statement and its results per tab; tabs are added, renamed, switched and closed by keyboard', async () => {
    const page = await openWorkbench();
    const tabs = statements(page);
    await expect.poll(() => tabs.getByRole('tab').allInnerTexts()).toEqual(['Query 1']);

    await typeStatement(page, "SELECT orderId FROM orders WHERE PK = 'USER#u1' ORDER BY orderId");
    await page.keyboard.press('Control+Enter');
    const orders = ordersOfU1()
      .map((o) => o.orderId)
      .sort();
    await page
      .locator('.sql-grid [role="gridcell"]', { hasText: new RegExp(`^${orders[0]}$`) })
      .waitFor(slow);

    await page.getByRole('button', { name: '+ New tab' }).click();
    await expect.poll(() => tabs.getByRole('tab').allInnerTexts()).toEqual(['Query 1', 'Query 2']);
    await expect.poll(() => tabs.getByRole('tab', { selected: true }).innerText()).toBe('Query 2');
    await expect.poll(() => page.locator('.sql-grid').count()).toBe(0);
    await typeStatement(page, 'SELECT COUNT(*) AS n FROM users');
    await page.keyboard.press('Control+Enter');
    const users = sampleItems().filter((i) => text(i.SK) === 'PROFILE').length;
    await page.locator('.sql-grid [role="columnheader"]', { hasText: /^n$/ }).waitFor(slow);
    await expect.poll(() => firstCells(page), slow).toEqual([String(users)]);
    // One value is not a chart: no chart toggle and no empty chart column beside the grid.
    await expect.poll(() => page.getByRole('button', { name: 'Hide chart' }).count()).toBe(0);
    await expect.poll(() => page.locator('.sql-result-body.has-chart').count()).toBe(0);

    // Rename by keyboard: F2 on the focused tab, a name, Enter.
    await tabs.getByRole('tab', { name: 'Query 2' }).focus();
    await page.keyboard.press('F2');
    await page.getByRole('textbox', { name: 'New name for Query 2' }).fill('User count');
    await page.keyboard.press('Enter');
    await expect.poll(() => tabs.getByRole('tab').allInnerTexts()).toEqual(['Query 1', 'User count']);

    // Arrow keys move between tabs; each keeps its own statement and result.
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => tabs.getByRole('tab', { selected: true }).innerText()).toBe('Query 1');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent), slow).toBe('Query 1');
    // The editor takes the tab's text as it draws the switch: wait for that drawing, not a fixed time.
    const editorText = () => page.locator('.sql-editor .cm-content').innerText();
    await expect.poll(editorText, slow).toContain("WHERE PK = 'USER#u1'");
    await expect.poll(() => firstCells(page), slow).toEqual([orders[0]]);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => firstCells(page), slow).toEqual([String(users)]);
    await expect.poll(editorText, slow).toContain('FROM users');

    // Ctrl+Alt+T adds a tab anywhere in the workbench; Delete on a tab closes it.
    await page.locator('.sql-editor .cm-content').click();
    await page.keyboard.press('Control+Alt+KeyT');
    await expect
      .poll(() => tabs.getByRole('tab').allInnerTexts())
      .toEqual(['Query 1', 'User count', 'Query 2']);
    await useColorScheme(page, 'light');
    for (const [width, height] of [
      [1024, 700],
      [1440, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await tabs.getByRole('tab', { name: 'User count' }).click();
      await session.browser.screenshotBothSchemes(`sql-tabs-${width}x${height}`);
    }
    await page.setViewportSize({ width: 1360, height: 820 });
    await tabs.getByRole('tab', { name: 'Query 2' }).focus();
    await page.keyboard.press('Delete');
    await expect.poll(() => tabs.getByRole('tab').allInnerTexts()).toEqual(['Query 1', 'User count']);
    await expect.poll(() => tabs.getByRole('tab', { selected: true }).innerText()).toBe('User count');
    await page.getByRole('button', { name: 'Close User count' }).click();
    await expect.poll(() => tabs.getByRole('tab').allInnerTexts()).toEqual(['Query 1']);
    await expect.poll(() => firstCells(page), slow).toEqual([orders[0]]);
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('opens the item a result row comes from in the item editor, and does not link grouped rows', async () => {
    const { page } = session.browser;
    await typeStatement(
      page,
      "SELECT orderId, total FROM orders WHERE PK = 'USER#u1' ORDER BY total DESC, orderId",
    );
    await page.keyboard.press('Control+Enter');
    const [largest] = ordersOfU1();
    if (!largest) throw new Error('USER#u1 has no orders in the sample');
    await expect
      .poll(() => firstCells(page), slow)
      .toEqual([largest.orderId, (largest.cents / 100).toString()]);
    await session.browser.screenshot('sql-row-links');
    await page.getByRole('button', { name: 'Open the item of row 1 in DynoTableSample' }).click();

    const editor = page.getByRole('complementary', { name: 'Item editor' });
    await expect.poll(() => editor.locator('h2').innerText(), slow).toBe(`${largest.PK} · ${largest.SK}`);
    await editor.getByRole('tab', { name: 'DynamoDB JSON' }).click();
    // The whole stored item is loaded, not only the key the row carried (the JSON view shows its
    // first lines). Its attributes follow the grid's columns, which may not have arrived yet when
    // the view is first drawn, so no order is asserted past the key.
    const json = editor.getByLabel('Item as DynamoDB JSON');
    const shown = async () => (await json.innerText()).replace(/\s+/g, '');
    await expect.poll(shown, slow).toContain(`"PK":{"S":"${largest.PK}"},"SK":{"S":"${largest.SK}"}`);
    await expect.poll(shown, slow).toContain(`"GSI1PK":{"S":"STATUS#`);
    await session.browser.screenshot('sql-row-opened-in-editor');
    await editor.getByRole('button', { name: 'Close the editor' }).click();

    // Back in the workbench, a grouped result has no row links: a group is many items.
    await page.getByRole('tab', { name: 'SQL', exact: true }).click();
    await typeStatement(page, 'SELECT status, COUNT(*) AS n FROM orders GROUP BY status');
    await page.keyboard.press('Control+Enter');
    await page.locator('.sql-grid [role="columnheader"]', { hasText: /^status$/ }).waitFor(slow);
    await page.locator('.sql-grid [role="gridcell"]', { hasText: /^\d+$/ }).first().waitFor(slow);
    await expect.poll(() => page.locator('.sql-row-open').count()).toBe(0);
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('marks the earlier plan and results out of date when the next statement fails', async () => {
    const { page } = session.browser;
    await typeStatement(page, "SELECT orderId FROM orders WHERE PK = 'USER#u1'");
    await page.keyboard.press('Control+Shift+Enter');
    await page.locator('.sql-plan').waitFor(slow);
    await page.keyboard.press('Control+Enter');
    await page
      .locator('.sql-grid [role="gridcell"]', { hasText: /^o\d+$/ })
      .first()
      .waitFor(slow);
    await expect.poll(() => page.getByText('Out of date.').count()).toBe(0);

    await typeStatement(page, 'SELECT orderId FROM orders WHERE');
    await page.keyboard.press('Control+Enter');
    await page.getByRole('alert').waitFor(slow);
    const stale = page.locator('.sql-result .sql-stale');
    await stale.waitFor(slow);
    await expect.poll(() => stale.innerText()).toMatch(/earlier run: the last statement failed/);
    await expect.poll(() => page.locator('.sql-result.is-stale').count()).toBe(1);
    await session.browser.screenshot('sql-results-stale-after-error');

    await page.getByRole('tab', { name: 'Plan', exact: true }).click();
    await expect
      .poll(() => page.locator('.sql-stale').innerText())
      .toMatch(/plan is of an earlier statement/);
    await expect.poll(() => page.locator('.is-stale > .sql-plan').count()).toBe(1);

    // A statement that runs again makes the results current.
    await typeStatement(page, "SELECT orderId FROM orders WHERE PK = 'USER#u1'");
    await page.keyboard.press('Control+Enter');
    await page.locator('.sql-result:not(.is-stale) .sql-grid').waitFor(slow);
    await expect.poll(() => page.locator('.sql-result .sql-stale').count()).toBe(0);
    expect(session.browser.pageErrors).toEqual([]);
  });
});
