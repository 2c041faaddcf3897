import { describe, expect, it } from 'vitest';
import { sampleItems } from '../../resources/playground/sample-table';
import { openRowByKey, rowWith, scanPlaygroundTable, showOnlyRowsWith } from './support/grid-rows';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// The item editor's form at the two window sizes people use most: a nested map inside a list
// keeps readable values, and each × stays beside its value instead of over the type.
const slow = { timeout: 60_000 };
const session = useAppInBrowser({ withPlayground: true });
const text = (v: unknown): string => (v as { S: string }).S;

describe('the item editor at 1024×700 and 1440×900', () => {
  it('shows nested values wide enough to read, with their remove buttons clear of the types', async () => {
    const page = await session.openPage();
    await scanPlaygroundTable(page, 'DynoTableSample', /^352 items/);
    const order = sampleItems().find((i) => text(i.SK).startsWith('ORDER#') && i.lines);
    if (!order) throw new Error('The sample has an order with lines');
    await showOnlyRowsWith(page, text(order.SK));
    const row = rowWith(page, text(order.PK), text(order.SK));
    await row.waitFor(slow);
    await openRowByKey(row);
    const editor = page.getByRole('complementary', { name: 'Item editor' });
    await editor.getByRole('tab', { name: 'Form' }).click();
    const sku = editor.getByLabel('lines[0].sku', { exact: true });
    const type = editor.getByLabel('Type of lines[0].sku', { exact: true });
    const remove = editor.getByRole('button', { name: 'Remove lines[0].sku', exact: true });
    await sku.waitFor(slow);
    for (const [width, height] of [
      [1024, 700],
      [1440, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await sku.scrollIntoViewIfNeeded();
      const [value, select, button] = await Promise.all([sku, type, remove].map((l) => l.boundingBox()));
      if (!value || !select || !button) throw new Error('The nested fields are laid out');
      // "SKU-WHK-04" and its like, whole: about ten characters of 12 px monospace.
      expect(value.width).toBeGreaterThanOrEqual(100);
      expect(button.x).toBeGreaterThanOrEqual(select.x + select.width);
      expect(button.x).toBeGreaterThanOrEqual(value.x + value.width);
    }
    await screenshots(page, 'items-editor-nested', editor.getByLabel('lines[0].sku', { exact: true }));
    expect(session.browser.pageErrors).toEqual([]);
  });
});
