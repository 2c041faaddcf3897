import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { BRIDGE_KEY } from '../../src/shared/ipc/bridge';
import { keepFirstWindow, RowCache, showReplacedRows } from '../../src/renderer/features/items/row-cache';

/**
 * Main's result set behind the desktop bridge: a window is read when it is asked for and
 * answered when the test releases it, as a busy worker answers after pages have landed.
 */
function resultSet() {
  const rows: Item[] = [];
  const waiting: (() => void)[] = [];
  let asked = 0;
  let failing = false;
  vi.stubGlobal('window', {
    [BRIDGE_KEY]: {
      'resultsets:window': ({ offset, limit }: { offset: number; limit: number }) => {
        asked += 1;
        const value = {
          total: rows.length,
          offset,
          rows: rows.slice(offset, offset + limit),
          columns: ['PK', 'SK'],
        };
        if (failing)
          return Promise.resolve({
            ok: false,
            error: { code: 'NotFound', message: 'This result set no longer exists.', retryable: false },
          });
        return new Promise((resolve) => waiting.push(() => resolve({ ok: true, value })));
      },
    },
  });
  return {
    land(count: number) {
      for (let i = 0; i < count; i++) rows.push({ PK: { S: 'ORDER#1' }, SK: { S: `LINE#${rows.length}` } });
    },
    /** Answers every window asked for so far, and lets the cache take the answers in. */
    async release() {
      for (const answer of waiting.splice(0)) answer();
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    asked: () => asked,
    fail(isFailing: boolean) {
      failing = isFailing;
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the grid row cache', () => {
  it('shows the rows of a read whose first window was answered before its first page landed', async () => {
    const set = resultSet();
    const cache = new RowCache('rs_1', undefined, 1);
    cache.ensure(0, -1, 0); // the grid mounts as the read starts
    set.land(28);
    cache.ensure(0, 24, 28); // the page event counts 28 rows while block 0 is still loading
    await set.release(); // block 0 answers with the 0 rows it had when asked
    expect(set.asked()).toBe(2);
    await set.release();
    expect(cache.entry(27)).toMatchObject({ type: 'item', item: { SK: { S: 'LINE#27' } } });
  });

  it("holds a read's first rows from its first page event at once, and reads no window for them", async () => {
    const set = resultSet();
    set.land(28);
    const rows = Array.from({ length: 28 }, (_, i) => ({ PK: { S: 'ORDER#1' }, SK: { S: `LINE#${i}` } }));
    keepFirstWindow('rs_first', { rows, columns: ['PK', 'SK', 'total'] });
    // A view shows other rows in other places: it leaves them for the grid with no view.
    const sorted = new RowCache('rs_first', 'grid', 1);
    sorted.takeFirstWindow();
    expect(sorted.entry(0)).toBeUndefined();
    const cache = new RowCache('rs_first', undefined, 1);
    cache.takeFirstWindow();
    expect(cache.entry(27)).toEqual({ type: 'item', item: rows[27], position: 27 });
    expect(cache.columns).toEqual(['PK', 'SK', 'total']);
    cache.ensure(0, 24, 28);
    await set.release();
    expect(set.asked()).toBe(0);
    // Taken once: a later grid of the same result set reads its rows.
    const again = new RowCache('rs_first', undefined, 2);
    again.takeFirstWindow();
    expect(again.entry(0)).toBeUndefined();
    again.ensure(0, 24, 28);
    await set.release();
    expect(set.asked()).toBe(1);
    expect(again.entry(27)).toMatchObject({ type: 'item', item: { SK: { S: 'LINE#27' } } });
  });

  it('keeps the reason a window failed for the grid to show, and Retry loads the rows', async () => {
    const set = resultSet();
    set.land(28);
    set.fail(true);
    const cache = new RowCache('rs_1', undefined, 1);
    let changes = 0;
    cache.subscribe(() => (changes += 1));
    cache.ensure(0, 24, 28);
    await set.release();
    expect(cache.error?.message).toBe('This result set no longer exists.');
    expect(cache.entry(0)).toBeUndefined();
    set.fail(false);
    cache.retry();
    expect(cache.error).toBeUndefined();
    await set.release();
    expect(cache.entry(24)).toMatchObject({ type: 'item', item: { SK: { S: 'LINE#24' } } });
    expect(changes).toBeGreaterThanOrEqual(3);
  });

  it('asks once for a block that is asked for again while loading and comes back whole', async () => {
    const set = resultSet();
    set.land(28);
    const cache = new RowCache('rs_1', undefined, 1);
    cache.ensure(0, 24, 28);
    cache.ensure(1, 25, 28); // a scroll while it loads
    await set.release();
    expect(set.asked()).toBe(1);
    expect(cache.entry(27)).toMatchObject({ type: 'item' });
  });

  it('shows rows a write rewrote in every grid of that result set at once, in their places, marked', async () => {
    const set = resultSet();
    set.land(3);
    const keyOf = (row: Item) => JSON.stringify([row.PK, row.SK]);
    const cache = new RowCache('rs_w', undefined, 1, undefined, keyOf);
    const other = new RowCache('rs_other', undefined, 1, undefined, keyOf);
    const heard: string[] = [];
    const stop = cache.subscribe(() => heard.push('rs_w'));
    const stopOther = other.subscribe(() => heard.push('rs_other'));
    cache.ensure(0, 2, 3);
    other.ensure(0, 2, 3);
    await set.release();
    heard.length = 0;
    const saved = { PK: { S: 'ORDER#1' }, SK: { S: 'LINE#1' }, total: { N: '76' } };
    showReplacedRows('rs_w', [{ item: saved, mark: 'changed' }]);
    expect(heard).toEqual(['rs_w']);
    expect(cache.entry(1)).toEqual({ type: 'item', item: saved, position: 1, mark: 'changed' });
    expect(cache.entry(0)).toEqual({
      type: 'item',
      item: { PK: { S: 'ORDER#1' }, SK: { S: 'LINE#0' } },
      position: 0,
    });
    expect(other.entry(1)).toMatchObject({ item: { SK: { S: 'LINE#1' } } });
    expect(other.entry(1)).not.toHaveProperty('mark');
    // Someone else's change (a failed condition's stored item) replaces the row unmarked.
    const theirs = { PK: { S: 'ORDER#1' }, SK: { S: 'LINE#1' }, total: { N: '99' } };
    showReplacedRows('rs_w', [{ item: theirs }]);
    expect(cache.entry(1)).toEqual({ type: 'item', item: theirs, position: 1 });
    // A grid that is gone hears nothing more.
    stop();
    heard.length = 0;
    showReplacedRows('rs_w', [{ item: saved, mark: 'changed' }]);
    expect(heard).toEqual([]);
    stopOther();
  });
});
