import { describe, expect, it } from 'vitest';
import { sampleItems } from '../../resources/playground/sample-table';
import { useColorScheme } from './support/browser';
import { useAppInBrowser } from './support/session';

// The SQL workbench driven like a user: real browser-mode server and core (the SQL worker
// included), the playground's DynamoDB Local with the sample single-table design, Chromium.
const slow = { timeout: 60_000 };
const quick = { timeout: 15_000 };
const JOIN_GROUP = `SELECT u.name, COUNT(*) AS orders, SUM(o.total) AS revenue
FROM orders o JOIN users u ON o.PK = u.PK
GROUP BY u.name
ORDER BY revenue DESC, u.name`;

const session = useAppInBrowser({ withPlayground: true });

/** Revenue per customer computed from the sample items with plain loops, in cents. */
function expectedRevenue(): { name: string; orders: number; cents: number }[] {
  const items = sampleItems();
  const names = new Map<string, string>();
  for (const item of items)
    if (
      item.SK &&
      'S' in item.SK &&
      item.SK.S === 'PROFILE' &&
      item.name &&
      'S' in item.name &&
      item.PK &&
      'S' in item.PK
    )
      names.set(item.PK.S, item.name.S);
  const groups = new Map<string, { orders: number; cents: number }>();
  for (const item of items) {
    if (!item.SK || !('S' in item.SK) || !item.SK.S.startsWith('ORDER#') || !item.PK || !('S' in item.PK))
      continue;
    const name = names.get(item.PK.S);
    if (!name || !item.total || !('N' in item.total)) continue;
    const group = groups.get(name) ?? { orders: 0, cents: 0 };
    group.orders += 1;
    group.cents += Math.round(Number(item.total.N) * 100);
    groups.set(name, group);
  }
  return [...groups]
    .map(([name, g]) => ({ name, ...g }))
    .sort((a, b) => b.cents - a.cents || (a.name < b.name ? -1 : 1));
}

async function typeStatement(sql: string): Promise<void> {
  const { page } = session.browser;
  const editor = page.locator('.sql-editor .cm-content');
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(sql);
}

describe('SQL workbench', () => {
  it('runs a JOIN + GROUP BY on the playground and shows the grid and the chart', async () => {
    const page = await session.openPage();
    await page.getByRole('button', { name: 'Open playground' }).click();
    await page.getByRole('tab', { name: 'SQL' }).click(slow);
    await page.getByRole('button', { name: 'orders', exact: true }).waitFor(slow);

    await typeStatement(JOIN_GROUP);
    await page.keyboard.press('Control+Enter');
    const bars = page.locator('.sql-chart svg rect.sql-bar');
    await bars.first().waitFor(slow);

    const expected = expectedRevenue();
    const firstRow = page.locator('.sql-grid [role="row"][aria-rowindex="2"]');
    const cells = await firstRow.locator('[role="gridcell"]').allInnerTexts();
    expect(cells).toEqual([
      expected[0]!.name,
      String(expected[0]!.orders),
      (expected[0]!.cents / 100).toString(),
    ]);
    await expect
      .poll(() => page.locator('.sql-result-bar').innerText())
      .toMatch(new RegExp(`^${expected.length} rows`));
    // One measure at a time (revenue, the last numeric column); the picker switches to orders.
    await expect.poll(() => bars.count()).toBe(Math.min(expected.length, 60));
    await page.keyboard.press('Escape');
    await session.browser.screenshot('sql-join-group-chart');
    await page.getByRole('combobox', { name: /^Value/ }).selectOption('orders');
    await expect.poll(() => page.getByRole('combobox', { name: /^Value/ }).inputValue()).toBe('orders');
    await expect.poll(() => page.locator('.sql-chart figcaption').innerText()).toMatch(/orders/);

    await page.getByRole('button', { name: 'Line' }).click();
    await page.locator('.sql-chart polyline.sql-line').first().waitFor();

    await page.getByRole('tab', { name: 'Plan' }).click();
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    const plan = page.locator('.sql-plan');
    await plan.waitFor();
    await expect.poll(() => plan.innerText()).toMatch(/Scan[\s\S]*DynoTableSample[\s\S]*cached/);
    await session.browser.screenshot('sql-plan');
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('charts a result grouped by two columns as a line per value of the second column', async () => {
    const { page } = session.browser;
    await typeStatement(
      "SELECT DATE_TRUNC('month', createdAt) AS month, status, SUM(total) AS revenue FROM orders GROUP BY 1, 2 ORDER BY 1, 2",
    );
    await page.keyboard.press('Control+Enter');
    const lines = page.locator('.sql-chart polyline.sql-line');
    await lines.first().waitFor(slow);
    const statuses = new Set(
      sampleItems()
        .filter((i) => i.SK && 'S' in i.SK && i.SK.S.startsWith('ORDER#') && i.status && 'S' in i.status)
        .map((i) => (i.status as { S: string }).S),
    );
    expect(statuses.size).toBeGreaterThan(1);
    await expect.poll(() => lines.count()).toBe(statuses.size);
    const legend = await page.locator('.sql-chart-legend span:has(i)').allInnerTexts();
    expect(new Set(legend.map((t) => t.trim()))).toEqual(statuses);
    await expect
      .poll(() => page.locator('.sql-chart-title').innerText())
      .toMatch(/revenue by month and status/);
    await session.browser.screenshotBothSchemes('sql-chart-split-by-status');
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('underlines a mistake where it is and shows the sentence with line and column', async () => {
    const { page } = session.browser;
    await page.getByRole('tab', { name: 'Results' }).click();
    await typeStatement('SELECT u.name,\n  COUNT(*\nFROM users u');
    await page.keyboard.press('Control+Enter');
    const alert = page.getByRole('alert');
    await alert.waitFor(slow);
    await expect.poll(() => alert.innerText()).toMatch(/line 3, column 1/);
    // The way out of the error sits in the error's own box, beside its sentence.
    await expect.poll(() => alert.getByRole('button', { name: 'Fix with AI' }).count()).toBe(1);
    await page.locator('.cm-lintRange-error').first().waitFor();
    await expect.poll(() => page.locator('.cm-lintRange-error').first().innerText()).toBe('FROM');
    await page.keyboard.press('Escape');
    await session.browser.screenshot('sql-syntax-error');

    await typeStatement("SELECT userId, name FROM users WHERE PK = 'USER#u1'");
    await page.keyboard.press('Control+Enter');
    await page.locator('.sql-grid [role="gridcell"]', { hasText: /^u1$/ }).waitFor(slow);
    const profile = sampleItems().find(
      (i) => i.PK && 'S' in i.PK && i.PK.S === 'USER#u1' && i.SK && 'S' in i.SK && i.SK.S === 'PROFILE',
    )!;
    await expect
      .poll(() => page.locator('.sql-grid [role="row"][aria-rowindex="2"] [role="gridcell"]').allInnerTexts())
      .toEqual(['u1', (profile.name as { S: string }).S]);
    await expect.poll(() => page.locator('.cm-lintRange-error').count()).toBe(0);
    await page.keyboard.press('Escape');
    await useColorScheme(page, 'dark');
    await session.browser.screenshot('sql-point-query-dark');
    await useColorScheme(page, 'light');
  });

  it('saves a user-defined view on an index and queries it with a Query on that index', async () => {
    const { page } = session.browser;
    await page.getByRole('button', { name: 'New view' }).click(quick);
    const form = page.getByRole('form', { name: 'New entity view' });
    await form.getByLabel('Name').fill('paid_orders', quick);
    await form.getByLabel('Index').selectOption('GSI1', quick);
    await form.getByLabel('Value').fill('STATUS#PAID', quick);
    await form.getByRole('button', { name: 'Save view' }).click(quick);
    await page.getByRole('button', { name: 'paid_orders', exact: true }).waitFor(slow);

    await typeStatement('SELECT COUNT(*) AS paid FROM paid_orders');
    await page.getByRole('button', { name: 'Plan', exact: true }).click(quick);
    // The plan of the earlier statement is still on screen until the new one arrives: wait for it.
    const userViewPlan = page.locator('.sql-plan', { hasText: 'GSI1' });
    await userViewPlan.waitFor(slow);
    await expect
      .poll(() => userViewPlan.innerText())
      .toMatch(/Query[\s\S]*on index GSI1[\s\S]*GSI1PK = 'STATUS#PAID'/);
    await session.browser.screenshot('sql-user-view-plan');
    // Focus is on the Plan button now: the shortcut still runs the statement under the cursor.
    await page.keyboard.press('Control+Enter');
    const paid = sampleItems().filter(
      (i) => i.GSI1PK && 'S' in i.GSI1PK && i.GSI1PK.S === 'STATUS#PAID',
    ).length;
    await page.locator('.sql-grid [role="columnheader"]', { hasText: 'paid' }).waitFor(slow);
    await page.locator('.sql-grid [role="gridcell"]', { hasText: /^\d+$/ }).waitFor(slow);
    await expect
      .poll(() => page.locator('.sql-grid [role="row"][aria-rowindex="2"] [role="gridcell"]').allInnerTexts())
      .toEqual([String(paid)]);

    // A view in the sidebar goes into the statement qualified by its table, which stays right
    // when another table has a view of the same name.
    await typeStatement('SELECT COUNT(*) AS paid2 FROM ');
    await page.getByRole('button', { name: 'paid_orders', exact: true }).click(quick);
    await expect
      .poll(() => page.locator('.sql-editor .cm-content').innerText())
      .toBe('SELECT COUNT(*) AS paid2 FROM DynoTableSample.paid_orders');
    await page.keyboard.press('Control+Enter');
    await page.locator('.sql-grid [role="columnheader"]', { hasText: 'paid2' }).waitFor(slow);
    // The header comes with the result; its rows are read into the grid a moment later.
    await expect
      .poll(
        () => page.locator('.sql-grid [role="row"][aria-rowindex="2"] [role="gridcell"]').allInnerTexts(),
        slow,
      )
      .toEqual([String(paid)]);
  });
});
