import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPlaygroundTable } from './support/playground-table';
import { screenshotSizes, screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// What a newcomer's first walk through browser mode found at 1024×700 (session 20): a table made
// with a long name, its header and its empty grid, the Overview's change form, and the SQL
// workbench's answer of no rows. The real browser-mode server and core, the playground's
// DynamoDB Local, Chromium.
const table = `customer-orders-archive-eu-west-reporting-${Date.now().toString(36)}`;
const slow = { timeout: 90_000 };
const session = useAppInBrowser({ withPlayground: true });
const page = (): Page => session.browser.page;

/** How far an element scrolls beyond what it shows, down and across (0 when it does not scroll). */
const overflowOf = (selector: string) =>
  page().evaluate((s) => {
    const element = s === 'document' ? document.scrollingElement : document.querySelector(s);
    if (!element) return { down: -1, across: -1 };
    return {
      down: element.scrollHeight - element.clientHeight,
      across: element.scrollWidth - element.clientWidth,
    };
  }, selector);

/**
 * Where the table's name ends on screen, against its box and the badge after it. A cut name ends
 * in its ellipsis: whole characters of the monospace font, then the ellipsis, one more.
 */
const titleAndBadge = () =>
  page().evaluate(() => {
    const title = document.querySelector<HTMLElement>('.table-title');
    const badge = title?.nextElementSibling;
    if (!title || !badge) return undefined;
    const range = document.createRange();
    range.selectNodeContents(title);
    const text = range.getBoundingClientRect();
    const box = title.getBoundingClientRect();
    const isCut = title.scrollWidth > title.clientWidth;
    const character = text.width / title.textContent.length;
    const textEnd = isCut ? box.left + Math.floor(box.width / character + 0.01) * character : text.right;
    return { isCut, textEnd, boxRight: box.right, badgeLeft: badge.getBoundingClientRect().left };
  });

describe("a newcomer's walk at 1024×700", () => {
  it('creates a long-named table: one scrollbar in the dialog, the header on one line, the empty grid says so', async () => {
    await session.openPage();
    await page().setViewportSize(screenshotSizes[0]);
    await openPlaygroundTable(page(), 'DynoTableSample', 'Items');
    await page().getByRole('tab', { name: 'Tables', exact: true }).click();
    await page().getByRole('button', { name: 'Create table' }).click();
    const dialog = page().getByRole('dialog', { name: /^Create table/ });
    await dialog.getByRole('textbox', { name: 'Table name' }).fill(table);
    // The form scrolls inside its body; the dialog itself did too (its switch's hidden input,
    // placed in the window's coordinates, reached past it), drawing a second scrollbar.
    await expect.poll(async () => (await overflowOf('dialog[open]')).down).toBeLessThanOrEqual(0);
    await dialog.getByRole('textbox', { name: /Partition key/ }).fill('pk');
    await dialog.getByRole('button', { name: 'Create table', exact: true }).click();
    await dialog.getByRole('button', { name: `Open ${table}` }).click(slow);

    const views = page().getByRole('tablist', { name: `${table} views` });
    await views.waitFor();
    await screenshots(page(), 'newcomer-long-name', page().locator('.table-page-header'), {
      block: 'start',
      check: async () => {
        // The cut name's ellipsis ends where its box does, the header's 10 px from the badge
        // (it ended up to a character short of it: ~18 px at 1024).
        const isNarrow = page().viewportSize()?.width === screenshotSizes[0].width;
        await expect.poll(async () => (await titleAndBadge())?.isCut).toBe(isNarrow);
        const where = await titleAndBadge();
        if (!where) throw new Error('no title');
        expect(where.boxRight - where.textEnd).toBeLessThan(1);
        expect(where.badgeLeft - where.textEnd).toBeLessThan(11);
        // The views show whole, without a scrollbar under them (a quarter pixel of the cut was
        // theirs and scrolled them sideways).
        await expect
          .poll(() => views.evaluate((nav) => (nav as HTMLElement).offsetHeight - nav.clientHeight))
          .toBe(0);
        // The open tabs above do not scroll up and down either.
        expect((await overflowOf('.tab-strip')).down).toBeLessThanOrEqual(0);
      },
    });

    await page().getByRole('button', { name: 'Scan', exact: true }).last().click();
    await expect
      .poll(() => page().getByRole('status').filter({ hasText: 'holds no items yet' }).innerText())
      .toBe(`${table} holds no items yet. New item adds one; Import… loads them from a CSV or JSON file.`);
  });

  it('keeps the window still when a switch further down the Overview takes focus', async () => {
    await page().setViewportSize(screenshotSizes[0]);
    await page().getByRole('tab', { name: 'Overview', exact: true }).click();
    await page()
      .getByRole('combobox', { name: 'What to change' })
      .selectOption({ label: 'Deletion protection' });
    const protection = page().getByRole('switch', { name: 'Deletion protection on' });
    await protection.waitFor();
    // The hidden checkbox of a switch belonged to the window: the whole app scrolled, and
    // focusing the switch moved the top bar out of sight.
    expect((await overflowOf('document')).down).toBeLessThanOrEqual(0);
    await protection.focus();
    await expect.poll(() => page().evaluate(() => document.scrollingElement?.scrollTop)).toBe(0);
    await expect.poll(async () => (await page().getByRole('banner').boundingBox())?.y).toBe(0);
  });

  it('says why a SQL JOIN returned no rows, under tabs that do not scroll', async () => {
    await page().setViewportSize(screenshotSizes[0]);
    await page().getByRole('tab', { name: 'SQL', exact: true }).click();
    await page().getByRole('button', { name: 'orders', exact: true }).waitFor(slow);
    // Orders keep their user in the key, not in a userId attribute: the join matches nothing.
    await page().locator('.sql-editor .cm-content').click();
    await page().keyboard.press('Control+A');
    await page().keyboard.press('Delete');
    await page().keyboard.insertText(
      'SELECT u.name, o.total FROM users u JOIN orders o ON o.userId = u.userId',
    );
    await page().keyboard.press('Control+Enter');
    await expect
      .poll(
        () =>
          page()
            .locator('.sql-result')
            .getByText(/^No rows:/)
            .innerText(),
        slow,
      )
      .toMatch(/^No rows: none of the [\d,]+ items read matched the statement's conditions/);
    expect((await overflowOf('.sql-doc-tabs')).down).toBeLessThanOrEqual(0);
    // At 1024 px the shortcuts line is cut with an ellipsis ("… · SELECT…"): whole in its tooltip.
    expect(await page().locator('.sql-hint').getAttribute('title')).toBe(
      'Ctrl Enter runs · Ctrl Shift Enter plans · SELECT only',
    );
    await screenshots(page(), 'newcomer-sql-no-rows');
  });

  it('keeps keyboard focus on Refresh while the table list reads again', async () => {
    await page().keyboard.press('Control+K');
    const filter = page().getByLabel('Filter tables', { exact: true });
    await expect.poll(() => filter.evaluate((input) => input === document.activeElement)).toBe(true);
    const refresh = page().getByRole('button', { name: 'Refresh', exact: true });
    await refresh.focus();
    await page().keyboard.press('Enter');
    // The list reads again: the button is busy, then not. A busy button was disabled, and a
    // disabled button lets go of focus: the next Tab started from the top of the page.
    await expect.poll(() => refresh.getAttribute('aria-busy')).toBeNull();
    await page().getByRole('button', { name: table, exact: true }).waitFor();
    await expect.poll(() => refresh.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(session.browser.pageErrors).toEqual([]);
  });

  // Round 3 (session 22): the Overview beside the assistant, the Schema view's full scan.
  it('fits the Overview beside the assistant: the table name whole, the indexes inside their panel', async () => {
    await page().setViewportSize(screenshotSizes[0]);
    await openPlaygroundTable(page(), 'DynoTableSample', 'Overview');
    await page().getByRole('table', { name: 'Indexes' }).waitFor(slow);
    const assistant = page().getByRole('button', { name: 'Assistant', exact: true });
    if ((await assistant.getAttribute('aria-pressed')) !== 'true') await assistant.click();
    await page().locator('.workspace-dock').waitFor();
    const views = page().getByRole('tablist', { name: 'DynoTableSample views' });
    await screenshots(page(), 'newcomer-overview-assistant', page().locator('.table-page-header'), {
      block: 'start',
      check: async () => {
        // The name was cut to "DynoTa…" for the views' room: they take a line of their own instead.
        await expect
          .poll(() =>
            page()
              .locator('.table-title')
              .evaluate((t) => t.scrollWidth - t.clientWidth),
          )
          .toBe(0);
        expect(await page().locator('.table-title').innerText()).toBe('DynoTableSample');
        expect(
          (await overflowOf('[role="tablist"][aria-label="DynoTableSample views"]')).across,
        ).toBeLessThanOrEqual(0);
        await expect.poll(async () => (await views.boundingBox())?.width).toBeGreaterThan(0);
        // Status and Items were cut off past the panel (73 px at 1024): every column shows.
        const panel = page().locator('section.panel', {
          has: page().getByRole('table', { name: 'Indexes' }),
        });
        await expect
          .poll(() => panel.evaluate((section) => section.scrollWidth - section.clientWidth))
          .toBeLessThanOrEqual(0);
        expect((await overflowOf('.table-page-body')).across).toBeLessThanOrEqual(0);
        const items = page().getByRole('columnheader', { name: 'Items' });
        const [box, cell] = await Promise.all([panel.boundingBox(), items.boundingBox()]);
        expect(cell && box && cell.x + cell.width).toBeLessThanOrEqual((box?.x ?? 0) + (box?.width ?? 0) + 1);
      },
    });
    await assistant.click();
    expect(session.browser.pageErrors).toEqual([]);
  });

  it("keeps the Schema view's Scan table beside the field before it, on one line", async () => {
    await page().setViewportSize(screenshotSizes[0]);
    await page().getByRole('tab', { name: 'Schema', exact: true }).click();
    await page().getByRole('radio', { name: 'Full scan' }).check();
    const scan = page().getByRole('button', { name: 'Scan table', exact: true });
    const entities = page().getByRole('combobox', { name: /^Entities by/ });
    await screenshots(page(), 'newcomer-schema-full-scan', scan, {
      check: async () => {
        // At 1024 the full scan's fields filled the line and the button went down alone.
        await expect
          .poll(async () => {
            const [button, field] = await Promise.all([scan.boundingBox(), entities.boundingBox()]);
            return button && field
              ? Math.abs(button.y + button.height / 2 - (field.y + field.height / 2))
              : -1;
          })
          .toBeLessThan(4);
        expect((await scan.boundingBox())?.height).toBeLessThanOrEqual(32);
      },
    });
    // Nothing read yet: said for the way chosen too (it spoke of Sample alone).
    expect(
      await page()
        .getByText(/^No read yet:/)
        .innerText(),
    ).toContain('Full scan reads every item');
    await page().getByRole('radio', { name: 'Sample' }).check();
    expect(session.browser.pageErrors).toEqual([]);
  });
});
