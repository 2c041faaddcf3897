import type { Page } from 'playwright-core';

/** The first start of the playground runs Java and seeds the sample table: allow it time. */
const playgroundStart = { timeout: 120_000 };

/** From the picker: opens the playground, then one of its tables on the given view's tab. */
export async function openPlaygroundTable(page: Page, table: string, view: string): Promise<void> {
  await page.getByRole('button', { name: 'Open playground' }).click();
  await page.getByRole('button', { name: table, exact: true }).click(playgroundStart);
  await page.getByRole('tab', { name: view }).click();
}
