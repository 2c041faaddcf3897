// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../src/shared/ipc/journal';
import { JournalDialog } from '../../../src/renderer/features/journal/components/journal-dialog';
import { useJournalStore } from '../../../src/renderer/features/journal/store';
import { type Harness, openHarness, testConnection } from './bridge-harness';

// Undo history, rendered in a DOM (happy-dom), the bridge answering with the journal's one entry
// for one save in the item editor. The row said that save three times: "Write from the item
// editor", a tag "Item editor" and the entry's own words "Saved in the item editor".

let harness: Harness;

const save: JournalEntry = {
  id: 'j1',
  at: '2026-12-07T18:53:38.000Z',
  table: 'DynoTableSample',
  action: 'commit',
  source: 'editor',
  reason: 'Saved in the item editor',
  count: 1,
};

beforeEach(() => {
  harness = openHarness((channel) =>
    Promise.resolve(
      channel === 'journal:list'
        ? {
            ok: true,
            value: { entries: [save], limits: { maxEntries: 200, maxAgeDays: 30, maxMegabytes: 500 } },
          }
        : { ok: true, value: undefined },
    ),
  );
});

afterEach(() => harness.close());

async function history(): Promise<HTMLElement> {
  await act(() => {
    harness.root.render(
      <JournalDialog
        connection={testConnection('c-history')}
        table="DynoTableSample"
        onClose={() => undefined}
      />,
    );
    return Promise.resolve();
  });
  return harness.host;
}

describe('a save in Undo history', () => {
  it('is one row that says what was done once, with its count, time and Undo', async () => {
    const host = await history();
    const rows = host.querySelectorAll('ol[aria-label="Recent writes"] > li');
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.querySelector('strong')?.textContent).toBe('Saved in the item editor');
    const text = row.textContent;
    expect(text.match(/item editor/gi)).toHaveLength(1);
    expect(text).toContain('1 item');
    expect(row.querySelector('time')?.getAttribute('datetime')).toBe(save.at);
    const undo = row.querySelector('button');
    expect(undo?.textContent).toBe('Undo');
    expect(undo?.getAttribute('aria-label')).toMatch(/^Undo "Saved in the item editor" of /);
  });
});

describe('an undone entry in Undo history', () => {
  const undoneAt = '2026-12-07T18:55:00.000Z';
  const undoOfSave: JournalEntry = {
    id: 'j2undo000000',
    at: undoneAt,
    table: 'DynoTableSample',
    action: 'undo',
    source: 'undo',
    reason: 'Undo of "Saved in the item editor"',
    count: 1,
  };
  const undone = (patch: Partial<NonNullable<JournalEntry['lastUndo']>> = {}): JournalEntry => ({
    ...save,
    lastUndo: { at: undoneAt, restored: 1, conflicts: 0, failed: 0, journalId: undoOfSave.id, ...patch },
  });

  async function historyOf(entries: JournalEntry[]): Promise<HTMLElement[]> {
    harness.close();
    harness = openHarness((channel) =>
      Promise.resolve(
        channel === 'journal:list'
          ? { ok: true, value: { entries } }
          : channel === 'journal:undo'
            ? { ok: true, value: { started: true } }
            : { ok: true, value: undefined },
      ),
    );
    const host = await history();
    return [...host.querySelectorAll<HTMLElement>('ol[aria-label="Recent writes"] > li')];
  }

  const rowOf = (rows: HTMLElement[], reason: string): HTMLElement => {
    const row = rows.find((r) => r.querySelector('strong')?.textContent === reason);
    if (!row) throw new Error(`no row for ${reason}`);
    return row;
  };
  const buttonsOf = (row: HTMLElement) => [...row.querySelectorAll('button')].map((b) => b.textContent);

  it('says it was undone and offers Redo, which undoes the undo’s own entry, never a second Undo', async () => {
    const rows = await historyOf([undoOfSave, undone()]);
    const row = rowOf(rows, 'Saved in the item editor');
    expect(row.querySelector('.journal-undone')?.textContent).toMatch(/^Undone .*: 1 item put back$/);
    expect(buttonsOf(row)).toEqual(['Redo']);
    const redo = row.querySelector('button');
    expect(redo?.getAttribute('aria-label')).toMatch(/^Redo "Saved in the item editor" of /);
    // The undo's own row offered Undo too, which did the same as this Redo: the button is shown
    // once, and the undo's row says where it is.
    const undoRow = rowOf(rows, undoOfSave.reason);
    expect(buttonsOf(undoRow)).toEqual([]);
    expect(undoRow.querySelector('.journal-undone')?.textContent).toMatch(
      /^To write "Saved in the item editor" of .* again, use Redo on it\.$/,
    );

    await act(() => {
      redo?.click();
      return Promise.resolve();
    });
    const undos = harness.calls.filter((c) => c.channel === 'journal:undo');
    expect(undos.map((c) => c.input.entryId)).toEqual([undoOfSave.id]);
    // The button gives way to the redo's progress: it cannot be pressed twice.
    expect(buttonsOf(row)).not.toContain('Redo');
  });

  it('offers Undo again once redone, and says when each happened', async () => {
    const redoneAt = '2026-12-07T18:57:00.000Z';
    const undoRedone: JournalEntry = {
      ...undoOfSave,
      lastUndo: { at: redoneAt, restored: 1, conflicts: 0, failed: 0, journalId: 'j3redo000000' },
    };
    const redo: JournalEntry = {
      ...undoOfSave,
      id: 'j3redo000000',
      at: redoneAt,
      reason: 'Redo of "Saved in the item editor"',
    };
    const rows = await historyOf([redo, undoRedone, undone()]);
    const row = rowOf(rows, 'Saved in the item editor');
    expect(buttonsOf(row)).toEqual(['Undo']);
    expect(row.querySelector('.journal-undone')?.textContent).toMatch(/^Undone .*, redone .*$/);
    // The undo's Redo and the redo's Undo would each undo the save again, as its own Undo does:
    // offered once, on the save, and each of the two rows says so.
    for (const reason of [undoOfSave.reason, redo.reason]) {
      const chained = rowOf(rows, reason);
      expect(buttonsOf(chained)).toEqual([]);
      expect(chained.querySelector('.journal-undone')?.textContent).toMatch(
        /^To undo "Saved in the item editor" of .* again, use Undo on it\.$/,
      );
    }
  });

  it('keeps Undo after an undo that left items as they were or was cancelled', async () => {
    for (const patch of [{ conflicts: 1, restored: 0 }, { isCancelled: true }]) {
      const rows = await historyOf([undoOfSave, undone(patch)]);
      expect(buttonsOf(rowOf(rows, 'Saved in the item editor'))).toEqual(['Undo']);
    }
  });

  it('keeps keyboard focus in the row as Redo gives way to its progress, then to Undo', async () => {
    const redoneAt = '2026-12-07T18:57:00.000Z';
    let listed = [undoOfSave, undone()];
    harness.close();
    harness = openHarness((channel) =>
      Promise.resolve(
        channel === 'journal:list'
          ? { ok: true, value: { entries: listed } }
          : channel === 'journal:undo'
            ? { ok: true, value: { started: true } }
            : { ok: true, value: undefined },
      ),
    );
    const host = await history();
    const row = () => rowOf([...host.querySelectorAll<HTMLElement>('ol > li')], 'Saved in the item editor');
    const redo = row().querySelector('button');
    redo?.focus();
    await act(() => {
      redo?.click();
      return Promise.resolve();
    });
    // The button went; focus did not fall to the page with it.
    expect(row().contains(document.activeElement)).toBe(true);
    // The redo lands: the list reads again and the row offers Undo, which takes the focus.
    listed = [
      { ...undoOfSave, id: 'j3redo000000', at: redoneAt, reason: 'Redo of "Saved in the item editor"' },
      {
        ...undoOfSave,
        lastUndo: { at: redoneAt, restored: 1, conflicts: 0, failed: 0, journalId: 'j3redo000000' },
      },
      undone(),
    ];
    await act(() => {
      useJournalStore.getState().changed('c-history', 'DynoTableSample');
      return Promise.resolve();
    });
    expect(buttonsOf(row())).toEqual(['Undo']);
    expect(document.activeElement).toBe(row().querySelector('button'));
  });

  it('offers nothing to press when the undo’s own entry is no longer listed', async () => {
    const rows = await historyOf([undone()]);
    const row = rowOf(rows, 'Saved in the item editor');
    expect(row.querySelector('.journal-undone')?.textContent).toMatch(/^Undone /);
    expect(buttonsOf(row)).toEqual([]);
  });
});
