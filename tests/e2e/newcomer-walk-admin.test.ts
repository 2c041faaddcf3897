import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPlaygroundTable } from './support/playground-table';
import { screenshotSizes, screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// The newcomer's walk, part 2 (session 21): table admin, its dialogs, the words on screen and the
// assistant's header, at 1024×700 and 1440×900, light and dark. The real browser-mode server and
// core, the playground's DynamoDB Local, Chromium.
const table = `walk-${Date.now().toString(36)}`;
const slow = { timeout: 90_000 };
const session = useAppInBrowser({ withPlayground: true });
const page = (): Page => session.browser.page;

/** The footer's buttons, left to right: the same order in every dialog that starts work. */
const footer = (dialog: Locator) => dialog.locator('.dialog-footer > button').allInnerTexts();

describe("a newcomer's walk through table admin", () => {
  it('creates a table from the keyboard: Enter in a field runs Create table, in the footer after Cancel', async () => {
    await session.openPage();
    await page().setViewportSize(screenshotSizes[0]);
    await openPlaygroundTable(page(), 'DynoTableSample', 'Overview');
    // The ARN wraps between its parts: the table's name whole on one line, where any character
    // was a break ("…:table/DynoTableSamp", then "le").
    const arn = page().getByRole('region', { name: 'Identity' }).locator('.mono');
    await expect
      .poll(() =>
        arn.evaluate((box, name) => {
          const range = document.createRange();
          const tops = new Set<number>();
          const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const start = (node.textContent ?? '').indexOf(name);
            if (start < 0) continue;
            for (let i = start; i < start + name.length; i++) {
              range.setStart(node, i);
              range.setEnd(node, i + 1);
              tops.add(Math.round(range.getBoundingClientRect().top));
            }
          }
          return tops.size;
        }, 'DynoTableSample'),
      )
      .toBe(1);
    await page().getByRole('tab', { name: 'Tables', exact: true }).click();
    await page().getByRole('button', { name: 'Create table' }).click();
    const dialog = page().getByRole('dialog', { name: /^Create table/ });
    expect(await footer(dialog)).toEqual(['Cancel', 'Create table']);
    await dialog.getByRole('textbox', { name: 'Table name' }).fill(table);
    await dialog.getByRole('textbox', { name: /Partition key/ }).fill('pk');
    await dialog.getByRole('textbox', { name: /Partition key/ }).press('Enter');
    await dialog.getByRole('button', { name: `Open ${table}` }).waitFor(slow);
    await dialog
      .getByRole('status')
      .filter({ hasText: `Created. ${table} is ACTIVE.` })
      .waitFor();
    expect(await footer(dialog)).toEqual(['Close', `Open ${table}`]);
    await screenshots(page(), 'newcomer2-create-done');
    await dialog.getByRole('button', { name: `Open ${table}` }).click();
    await page()
      .getByRole('tablist', { name: `${table} views` })
      .waitFor();
  });

  it('copies from the same place: Cancel, then Copy; Escape closes', async () => {
    await page().getByRole('tab', { name: 'Overview', exact: true }).click();
    // The Overview's four panels in two rows of two at 1024 px: Identity sat alone on a second row
    // under three.
    await expect
      .poll(() =>
        page()
          .locator('.settings-grid > .panel')
          .evaluateAll((panels) => {
            const tops = panels.map((panel) => Math.round(panel.getBoundingClientRect().top));
            return [...new Set(tops)].map((top) => tops.filter((t) => t === top).length);
          }),
      )
      .toEqual([2, 2]);
    await page().getByRole('button', { name: 'Copy to…' }).click();
    const dialog = page().getByRole('dialog', { name: `Copy ${table} to…` });
    expect(await footer(dialog)).toEqual(['Cancel', 'Copy']);
    const readers = dialog.getByRole('textbox', { name: 'Parallel readers (Scan segments)' });
    await dialog.getByText('Key mapping, speed and checks').click();
    await expect.poll(() => readers.getAttribute('title')).toMatch(/^DynamoDB splits a Scan into segments/);
    await screenshots(page(), 'newcomer2-copy-dialog');
    await page().keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('turns the stream on from the Stream view, then deletes the table and lands on the table list', async () => {
    await page().getByRole('tab', { name: 'Stream', exact: true }).click();
    const offer = page().getByRole('group', { name: 'Turn on the stream' });
    await offer.getByRole('button', { name: 'Turn on stream…' }).click();
    await offer.getByRole('button', { name: 'Turn on stream', exact: true }).click();
    await page().getByRole('button', { name: 'Follow stream' }).waitFor(slow);

    await page().getByRole('tab', { name: 'Overview', exact: true }).click();
    const deleting = page().getByRole('group', { name: 'Delete table' });
    await deleting.getByLabel('Type the table name to confirm').fill(table);
    await deleting.getByRole('button', { name: 'Delete table' }).click();
    const said = page()
      .getByRole('status')
      .filter({ hasText: `Table ${table} deleted.` });
    await said.waitFor(slow);
    // The table list, focus in its filter: not the neighbour tab (DynoTableSample) as before.
    await expect
      .poll(() => page().getByRole('tab', { name: 'Tables', exact: true }).getAttribute('aria-selected'))
      .toBe('true');
    await expect
      .poll(() =>
        page()
          .getByLabel('Filter tables', { exact: true })
          .evaluate((e) => e === document.activeElement),
      )
      .toBe(true);
    await screenshots(page(), 'newcomer2-table-deleted');
    // Gone when the user moves on.
    await page().getByRole('button', { name: 'DynoTableSample', exact: true }).click();
    await said.waitFor({ state: 'detached' });
  });

  it("gives the assistant's whole model name as a tooltip, the name cut at a whole character and the mode whole", async () => {
    await page().getByTestId('top-bar').getByRole('button', { name: 'Assistant' }).click();
    const panel = page().getByRole('complementary', { name: 'Assistant' });
    // A custom inference profile's long name, as a team names its own.
    const modelId = 'eu.anthropic.claude-sonnet-4-team-reporting-inference-profile-eu-west-v1:0';
    await panel.getByRole('button', { name: 'Settings' }).click();
    await panel.getByLabel('Model or inference profile').fill(modelId);
    await panel.getByRole('button', { name: 'Save' }).click();
    const model = panel.locator('.agent-model');
    const name = model.locator('.agent-model-name');
    const mode = model.locator('.agent-model-mode');
    // Measured from the characters' own boxes and the ellipsis drawn in a span of the same font.
    // `blank`: what stands between the ellipsis and the box's edge (a cut line's ellipsis starts
    // right after the last whole character that leaves room for it). `spare`: what the line leaves
    // after the mode, less what one more character would take (negative: the name gave way only
    // as far as it must).
    const cut = () =>
      name.evaluate((box) => {
        const text = box.firstChild;
        const button = box.parentElement;
        const line = button?.parentElement;
        if (!(text instanceof Text) || !button || !line) return undefined;
        if (box.scrollWidth <= box.clientWidth) return { isCut: false, blank: 0, spare: 0 };
        const probe = document.createElement('span');
        probe.textContent = '…';
        probe.style.font = getComputedStyle(box).font;
        document.body.append(probe);
        const ellipsis = probe.getBoundingClientRect().width;
        probe.remove();
        const room = box.getBoundingClientRect().width;
        const range = document.createRange();
        range.setStart(text, 0);
        const widthTo = (end: number) => {
          range.setEnd(text, end);
          return range.getBoundingClientRect().width;
        };
        let shown = 0;
        while (shown < text.length && widthTo(shown + 1) + ellipsis <= room + 0.5) shown++;
        const left = line.getBoundingClientRect().right - button.getBoundingClientRect().right;
        return {
          isCut: true,
          blank: room - (widthTo(shown) + ellipsis),
          spare: shown === text.length ? 0 : room + left - (widthTo(shown + 1) + ellipsis),
        };
      });
    await expect
      .poll(() => model.getAttribute('title'))
      .toMatch(new RegExp(`^${modelId.replaceAll('.', '\\.')} in `));
    await expect
      .poll(() => model.textContent())
      .toBe('claude-sonnet-4-team-reporting-inference-profile-eu-west · Auto-read');
    await screenshots(page(), 'newcomer2-assistant', undefined, {
      check: async () => {
        const where = await cut();
        // The name is cut in the dock at both sizes (300 to 380 px wide).
        expect(where?.isCut).toBe(true);
        expect(where?.blank).toBeLessThan(1);
        expect(where?.spare).toBeLessThan(0);
      },
    });
    // Back at 1024 px after 1440: the name takes its whole line again. It stayed cut to "cl…"
    // there, fitted to the narrow line beside the buttons, in a line three times as wide.
    await expect.poll(async () => (await cut())?.spare).toBeLessThan(0);
    // The permission mode stays whole beside the cut name.
    await expect.poll(() => mode.evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true);
    // A keyboard reaches it: focused, its tooltip is its accessible description (the whole id).
    await model.focus();
    await expect.poll(() => model.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(session.browser.pageErrors).toEqual([]);
  });

  it("names the Schema view's reading choices in plain words, DynamoDB's own in brackets", async () => {
    await page().getByTestId('top-bar').getByRole('button', { name: 'Assistant' }).click();
    await page().getByRole('tab', { name: 'Schema', exact: true }).click();
    const spread = page().getByLabel('Spread over (Scan segments)');
    await spread.waitFor();
    await expect
      .poll(() => page().getByLabel('Entities by').locator('option').first().innerText())
      .toBe('Start of the key (USER#…), as SQL does');
    await page().getByRole('radio', { name: 'Full scan' }).check();
    await page().getByLabel('Parallel readers (Scan segments)').waitFor();
    await screenshots(page(), 'newcomer2-schema-controls');
    expect(session.browser.pageErrors).toEqual([]);
  });
});
