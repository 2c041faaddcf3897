import { describe, expect, it } from 'vitest';
import { openPlaygroundTable } from './support/playground-table';
import { useAppInBrowser } from './support/session';
import { openRowByKey } from './support/grid-rows';

// Item collections on the playground's single-table design, driven like a user: the real
// browser-mode server, the result-set worker that groups the rows, Debian's Chromium.
const slow = { timeout: 120_000 };

const session = useAppInBrowser({ withPlayground: true });

describe('item collections in the Items tab', () => {
  it('groups a scan by partition, collapses one and all, keeps that across a re-sort, selects a collapsed one', async () => {
    const page = await session.openPage();
    await openPlaygroundTable(page, 'DynoTableSample', 'Items');
    await page.getByRole('button', { name: 'Options' }).click();
    await page.getByRole('textbox', { name: 'Max items' }).fill('1000');
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.getByRole('status').filter({ hasText: /RCU/ }).waitFor(slow);
    await page.getByRole('checkbox', { name: 'Item collections' }).check();

    const grid = page.getByRole('treegrid', { name: 'Items' });
    const headers = grid.locator('.collection-row');
    const itemRows = grid.locator('.item-grid-row[aria-level="2"]');
    // Rows below the column headers (aria-rowcount counts the header row too).
    const rowCount = async (): Promise<number> => Number(await grid.getAttribute('aria-rowcount')) - 1;
    await headers.first().waitFor();
    // Item collections went on while the scan streamed: count them once the whole table (352
    // items) is in and counted, not from a snapshot that later pages outgrow.
    await page
      .locator('.progress-line')
      .filter({ hasText: /^352 of 352 items/ })
      .waitFor(slow);
    const collections = Number(
      (
        await page
          .getByRole('status')
          .filter({ hasText: /collections?$/ })
          .innerText()
      )
        .split(' ')[0]
        ?.replace(/,/g, ''),
    );
    expect(collections).toBeGreaterThan(40);

    // Sort collections by partition key, descending: the users (USER#…) come before their orders.
    const pkHeader = grid.getByRole('columnheader', { name: /^PK[▲▼]?$/ });
    await pkHeader.click();
    await pkHeader.click();
    await expect.poll(() => pkHeader.getAttribute('aria-sort'), slow).toBe('descending');
    const first = headers.first().locator('.collection-toggle');
    await expect.poll(() => first.innerText(), slow).toMatch(/^▾\s*USER#/);
    const text = await first.innerText();
    const [, user = '', count = '0'] = /(USER#\S+)\s+(\d+) items: (.*)/.exec(text) ?? [];
    expect(text).toMatch(/\d+ PROFILE/);
    expect(text).toMatch(/\d+ ORDER/);
    const items = Number(count);
    const expandedTotal = await rowCount();
    // The header, its items (with 〃 for the partition), then the next collection's header (the
    // column headers are row 1).
    await expect.poll(() => itemRows.first().innerText()).toContain('″');
    await expect
      .poll(() => grid.locator(`.item-grid-row[aria-rowindex="${items + 3}"]`).getAttribute('aria-level'))
      .toBe('1');

    await first.click();
    await expect.poll(() => first.getAttribute('aria-expanded'), slow).toBe('false');
    await expect.poll(rowCount, slow).toBe(expandedTotal - items);
    await expect.poll(() => first.innerText()).toContain(`${user}\n${items} items`);
    // The caret turns at once; the next collection's header moves up once its rows are read again.
    await expect
      .poll(() => grid.locator('.item-grid-row[aria-rowindex="3"]').getAttribute('aria-level'), slow)
      .toBe('1');
    await session.browser.screenshotBothSchemes('items-collections-one-collapsed');

    // The keyboard: Right expands, Left collapses, Enter toggles.
    await first.press('ArrowRight');
    await expect.poll(rowCount, slow).toBe(expandedTotal);
    await first.press('ArrowLeft');
    await expect.poll(rowCount, slow).toBe(expandedTotal - items);
    await first.press('Enter');
    await expect.poll(rowCount, slow).toBe(expandedTotal);

    await page.getByRole('button', { name: 'Collapse all' }).click();
    await expect.poll(rowCount, slow).toBe(collections);
    await expect.poll(() => itemRows.count(), slow).toBe(0);
    await session.browser.screenshotBothSchemes('items-collections-all-collapsed');

    // Item collections off and on again (another view of the same rows): still collapsed.
    await page.getByRole('checkbox', { name: 'Item collections' }).uncheck();
    await page.getByRole('grid', { name: 'Items' }).waitFor();
    await page.getByRole('checkbox', { name: 'Item collections' }).check();
    await expect.poll(rowCount, slow).toBe(collections);
    await expect.poll(() => first.innerText(), slow).toMatch(/^▸\s*USER#/);

    // A collapsed collection's checkbox selects its items, which a bulk action then reads.
    await headers
      .first()
      .getByRole('checkbox', { name: `Select the ${items} items of ${user}` })
      .click();
    await page.getByText(`${items} selected`).waitFor();

    await page.getByRole('button', { name: 'Expand all' }).click();
    await expect.poll(rowCount, slow).toBe(expandedTotal);
    await expect.poll(() => itemRows.first().getAttribute('aria-selected'), slow).toBe('true');

    // Opening the editor from an item row still works.
    await openRowByKey(itemRows.first());
    const editor = page.getByRole('complementary', { name: 'Item editor' });
    await expect.poll(() => editor.locator('h2').innerText(), slow).toMatch(new RegExp(`^${user} · `));
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('keeps collections collapsed while more pages stream into the same result set', async () => {
    const { page } = session.browser;
    const grid = page.getByRole('treegrid', { name: 'Items' });
    // Rows below the column headers (aria-rowcount counts the header row too).
    const rowCount = async (): Promise<number> => Number(await grid.getAttribute('aria-rowcount')) - 1;
    const collectionCount = async (): Promise<number> =>
      Number(
        (
          await page
            .getByRole('status')
            .filter({ hasText: /collections?$/ })
            .innerText()
        ).split(' ')[0],
      );
    // Item collections are still on: this read streams into a collection view from its first page.
    await page.getByRole('textbox', { name: 'Max items' }).fill('200');
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.getByRole('button', { name: 'Load more' }).waitFor(slow);
    // The collection counts follow the read at most every 250 ms: wait for them as for the read.
    const progress = page.locator('.progress-line');
    await progress.filter({ hasText: /^200 of 200 items/ }).waitFor(slow);
    await page.getByRole('button', { name: 'Collapse all' }).click();
    const before = await collectionCount();
    await expect.poll(rowCount, slow).toBe(before);

    // The cost line counts the whole read: Load more adds its pages and capacity to the first's.
    const cost = async (): Promise<{ pages: number; rcu: number }> => {
      const line = await progress.innerText();
      const pages = /(\d+) pages?/.exec(line)?.[1];
      const rcu = /([\d.]+) RCU/.exec(line)?.[1];
      return { pages: Number(pages), rcu: Number(rcu) };
    };
    const first = await cost();
    await page.getByRole('button', { name: 'Load more' }).click();
    await progress.filter({ hasText: /^352 of 352 items/ }).waitFor(slow);
    await expect.poll(async () => (await cost()).pages, slow).toBeGreaterThan(first.pages);
    await expect.poll(async () => (await cost()).rcu).toBeGreaterThan(first.rcu);
    // The new pages' collections arrive collapsed too, and the old ones stayed collapsed.
    await expect.poll(collectionCount, slow).toBeGreaterThan(before);
    const after = await collectionCount();
    await expect.poll(rowCount, slow).toBe(after);
    await expect.poll(() => grid.locator('.item-grid-row[aria-level="2"]').count(), slow).toBe(0);

    await page.getByRole('button', { name: 'Expand all' }).click();
    await expect.poll(rowCount, slow).toBe(after + 352);
    expect(session.browser.pageErrors).toEqual([]);
  });
});
