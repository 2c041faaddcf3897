import { describe, expect, it } from 'vitest';
import { createKeyedTable } from '../support/dynamo-tables';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// The table list like a user: status, approximate counts with DynamoDB's six-hour note, sorting
// and filtering, against the playground's DynamoDB Local (one region: no region picker there).
const slow = { timeout: 120_000 };
const session = useAppInBrowser({ withPlayground: true });
const stamp = Date.now().toString(36);
const big = `ListBig-${stamp}`;
const small = `ListSmall-${stamp}`;

async function tableWith(name: string, items: number): Promise<void> {
  await createKeyedTable(session.playgroundClient, name, { items });
}

describe('The table list', () => {
  it('shows status and approximate sizes, sorts by items and status, and filters', async () => {
    await tableWith(big, 40);
    await tableWith(small, 2);
    const page = await session.openPage();
    const open = page.getByRole('button', { name: 'Open playground' });
    const tabs = page.getByRole('tablist', { name: 'Open tabs' });
    await open.or(tabs).first().waitFor(slow);
    if (await open.isVisible()) await open.click();
    await tabs.getByRole('tab', { name: 'Tables', exact: true }).click(slow);
    const list = page.getByRole('table', { name: 'Tables' });
    await list.getByRole('button', { name: big, exact: true }).waitFor(slow);
    await expect.poll(() => page.getByText(/updated about every six hours/).count()).toBe(1);
    await expect.poll(() => page.locator('.region-picker').count()).toBe(0);

    const names = async () =>
      (await list.locator('tbody .cell-name').allInnerTexts()).filter((n) => n.endsWith(stamp));
    await page.getByRole('button', { name: 'Items' }).click();
    expect(await names()).toEqual([big, small]);
    await page.getByRole('button', { name: 'Items' }).click();
    expect(await names()).toEqual([small, big]);
    const bigRow = list.getByRole('row').filter({ hasText: big });
    await expect.poll(() => bigRow.innerText()).toMatch(/Active/);
    await expect.poll(() => bigRow.innerText()).toMatch(/≈ 40\b/);

    await page.getByRole('button', { name: 'Status' }).click();
    await expect
      .poll(() => page.getByRole('columnheader', { name: /Status/ }).getAttribute('aria-sort'))
      .toBe('ascending');
    await screenshots(page, 'tables-list', list);

    await page.getByLabel('Filter tables').fill(`ListSmall-${stamp}`);
    expect(await names()).toEqual([small]);
  });
});
