import type { Page } from 'playwright-core';

const slow = { timeout: 60_000 };

/** Opens the playground's SQL workbench, replaces the statement with `sql` and runs it (Ctrl+Enter). */
export async function runPlaygroundSql(page: Page, sql: string): Promise<void> {
  await page.getByRole('button', { name: 'Open playground' }).click();
  await page.getByRole('tab', { name: 'SQL' }).click(slow);
  await page.getByRole('button', { name: 'orders', exact: true }).waitFor(slow);
  await page.locator('.sql-editor .cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(sql);
  await page.keyboard.press('Control+Enter');
}
