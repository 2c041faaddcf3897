import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { canonical, rawGetItem } from '../../support/raw-dynamo';
import { openRowByKey, rowWith } from './grid-rows';
import { screenshots } from './screenshots';

const slow = { timeout: 60_000 };

/** One item a walk follows through a write: its key cells as the grid shows them, its wire key. */
export interface WalkedItem {
  table: string;
  /** The partition and sort key as the grid's first two cells show them. */
  pk: string;
  sk: string;
  /** The key in DynamoDB's wire JSON, for the raw read. */
  key: Record<string, unknown>;
}

/**
 * The walk of one write source (issue #26): the item in the grid and open in the item editor,
 * the write made through the feature's UI, then the grid, the editor, History and its Undo
 * checked, with DynamoDB Local's raw wire JSON as the oracle of what is stored.
 */
export function writeWalk(page: () => Page, endpoint: () => string, item: WalkedItem) {
  const editor = () => page().getByRole('complementary', { name: 'Item editor' });
  const row = () => rowWith(page(), item.pk, item.sk);
  return {
    editor,
    row,
    /** The stored item as DynamoDB Local's wire JSON, in canonical text (keys and sets sorted). */
    raw: async () => canonical(await rawGetItem(endpoint(), item.table, item.key)),
    /** An attribute's value as the open editor's form shows it. */
    field: (name: string) => editor().getByLabel(name, { exact: true }),

    /** Waits until the item's grid row shows `value` and the open editor's `field` holds it. */
    async shows(field: string, value: string): Promise<void> {
      await untilShows(row(), value);
      await expect.poll(() => editor().getByLabel(field, { exact: true }).inputValue(), slow).toBe(value);
    },

    /** With the table's items in the grid: filters to the item's row and opens it in the editor. */
    async openInGridAndEditor(filter = item.sk): Promise<void> {
      await page().getByRole('searchbox', { name: 'Filter fetched rows' }).fill(filter);
      await row().waitFor(slow);
      await openRowByKey(row());
      await editor()
        .locator('h2')
        .filter({ hasText: `${item.pk} · ${item.sk}` })
        .waitFor(slow);
      await editor().getByText('No changes.').waitFor(slow);
    },

    /**
     * Opens History and checks its newest entry is this write: its words (which name the source),
     * the item count and a time within the walk; then undoes it, closes History and checks DynamoDB Local
     * holds `before` again (the raw wire JSON captured before the write, canonical).
     */
    async undoNewestFromHistory(expected: {
      before: string;
      /** The entry's words, said once: what wrote and why ("Import from …", "Undo of …"). */
      reason: RegExp;
      count: string;
      since: number;
      /** Screenshots History with the entry in view under this name (screenshots.ts). */
      screenshot?: string;
    }): Promise<void> {
      await page().getByRole('button', { name: 'Undo history…' }).click();
      const history = page().getByRole('dialog', { name: `Undo history — ${item.table}` });
      const entries = history.getByRole('list', { name: 'Recent writes' }).getByRole('listitem');
      await entries.first().waitFor(slow);
      // History follows the journal live: the undo below lists itself on top, so the entry is
      // pinned by its own time, not by its place in the list.
      const at = await entries.first().locator('.journal-line time').getAttribute('datetime');
      const newest = entries.filter({ has: page().locator(`time[datetime="${at}"]`) }).first();
      await expect.poll(() => newest.locator('.journal-reason').innerText()).toMatch(expected.reason);
      expect(await newest.locator('.journal-line').innerText()).toContain(expected.count);
      // Newest first: every entry after it is older.
      const times = await entries
        .locator('.journal-line time')
        .evaluateAll((all) => all.map((t) => Date.parse(t.getAttribute('datetime') ?? '')));
      expect(times[0]).toBeGreaterThanOrEqual(expected.since - 1_000);
      expect(times[0]).toBeLessThanOrEqual(Date.now() + 1_000);
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      if (expected.screenshot) await screenshots(page(), expected.screenshot, newest);
      await newest.getByRole('button', { name: /^Undo "/ }).click();
      // Undone whole, the entry says so and offers Redo where its Undo was (its undo's own entry
      // lists on top as the list reads again).
      await newest.getByText(/^Undone .*: \d+ items? put back$/).waitFor(slow);
      await newest.getByRole('button', { name: /^Redo "/ }).waitFor(slow);
      await history.getByRole('button', { name: 'Close', exact: true }).click();
      expect(canonical(await rawGetItem(endpoint(), item.table, item.key))).toBe(expected.before);
    },
  };
}

/** Waits until `locator`'s text contains `text` (a view following a write, no reload). */
export async function untilShows(locator: Locator, text: string): Promise<void> {
  await expect.poll(() => locator.innerText(), slow).toContain(text);
}
