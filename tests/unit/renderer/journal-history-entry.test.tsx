// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../src/shared/ipc/journal';
import { JournalDialog } from '../../../src/renderer/features/journal/components/journal-dialog';
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
