import type { Page } from 'playwright-core';

/** The first start of the playground runs Java and seeds the sample table: allow it time. */
const playgroundStart = { timeout: 120_000 };

/**
 * From the picker: opens the playground, then one of its tables on the given view's tab. After a
 * reload the workspace comes back as it was left, so the playground (and the table) may be open.
 */
export async function openPlaygroundTable(page: Page, table: string, view: string): Promise<void> {
  const open = page.getByRole('button', { name: 'Open playground' });
  const tabs = page.getByRole('tablist', { name: 'Open tabs' });
  await open.or(tabs).first().waitFor(playgroundStart);
  // The picker is shown only once the saved workspace is known, so it stays while clicked.
  if (await open.isVisible()) await open.click();
  const tableTab = tabs.getByRole('tab', { name: table, exact: true });
  await tabs.waitFor(playgroundStart);
  if ((await tableTab.count()) > 0) await tableTab.click();
  else {
    await tabs.getByRole('tab', { name: 'Tables', exact: true }).click();
    await page.getByRole('button', { name: table, exact: true }).click(playgroundStart);
  }
  await page.getByRole('tab', { name: view, exact: true }).click();
}
