import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/shared/errors';
import { WindowCache } from '../../src/renderer/ui/window-cache';

/**
 * A result in main as the cache sees it: a window holds the rows there when it is read, and is
 * answered when the test releases it (as a busy worker answers after more pages have landed).
 */
function result() {
  const rows: string[] = [];
  const waiting: (() => void)[] = [];
  const reads: { offset: number; limit: number }[] = [];
  let failing = false;
  const read = (offset: number, limit: number): Promise<Envelope<string[]>> => {
    reads.push({ offset, limit });
    const held = rows.slice(offset, offset + limit);
    return new Promise((resolve) =>
      waiting.push(() =>
        resolve(
          failing
            ? { ok: false, error: { code: 'NotFound', message: 'This result is gone.', retryable: false } }
            : { ok: true, value: held },
        ),
      ),
    );
  };
  return {
    rows,
    reads,
    read,
    land(count: number, prefix = 'row') {
      for (let i = 0; i < count; i++) rows.push(`${prefix}${rows.length}`);
    },
    async release() {
      for (const answer of waiting.splice(0)) answer();
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    fail(isFailing: boolean) {
      failing = isFailing;
    },
  };
}

describe('the renderer window cache', () => {
  it('reads only the blocks in view, once each, and shows their rows', async () => {
    const set = result();
    set.land(1000);
    const cache = new WindowCache({ read: set.read, blockRows: 100, maxBlocks: 10 });
    let heard = 0;
    cache.subscribe(() => (heard += 1));
    cache.ensure(150, 260, 1000);
    cache.ensure(150, 260, 1000); // a second frame while the reads are in flight asks nothing more
    expect(set.reads).toEqual([
      { offset: 100, limit: 100 },
      { offset: 200, limit: 100 },
    ]);
    expect(cache.row(150)).toBeUndefined();
    await set.release();
    expect(cache.row(150)).toBe('row150');
    expect(cache.row(299)).toBe('row299');
    expect(cache.row(300)).toBeUndefined();
    expect(heard).toBe(2);
    cache.ensure(150, 260, 1000);
    expect(set.reads).toHaveLength(2);
  });

  it('reads a short block again when rows were counted while it was in flight', async () => {
    const set = result();
    const cache = new WindowCache({ read: set.read, blockRows: 100, maxBlocks: 10 });
    cache.ensure(0, 24, 0);
    set.land(28);
    cache.ensure(0, 24, 28);
    await set.release(); // answered with what had landed when it was read: nothing
    expect(cache.row(0)).toBeUndefined();
    await set.release();
    expect(cache.row(27)).toBe('row27');
  });

  it('keeps stale rows on screen until their fresh copies arrive, and reads again an answer sent before the change', async () => {
    const set = result();
    set.land(300);
    const cache = new WindowCache({ read: set.read, blockRows: 100, maxBlocks: 10 });
    cache.ensure(0, 250, 300);
    await set.release();
    set.rows.splice(0, 300);
    set.land(300, 'new');
    cache.invalidateFrom(120);
    cache.ensure(0, 250, 300);
    expect(set.reads.slice(3)).toEqual([
      { offset: 100, limit: 100 },
      { offset: 200, limit: 100 },
    ]);
    expect(cache.row(50)).toBe('row50'); // before the change: not read again
    expect(cache.row(150)).toBe('row150'); // still shown while its fresh copy is read
    cache.invalidateFrom(0); // changed again while in flight
    await set.release();
    expect(cache.row(150)).toBe('new150');
    expect(set.reads.slice(5)).toEqual([
      { offset: 100, limit: 100 },
      { offset: 200, limit: 100 },
    ]);
  });

  it('holds at most maxBlocks, forgetting the oldest read first', async () => {
    const set = result();
    set.land(1000);
    const cache = new WindowCache({ read: set.read, blockRows: 100, maxBlocks: 2 });
    for (const first of [0, 300, 600]) {
      cache.ensure(first, first + 10, 1000);
      await set.release();
    }
    expect(cache.row(5)).toBeUndefined();
    expect(cache.row(305)).toBe('row305');
    expect(cache.row(605)).toBe('row605');
    cache.ensure(0, 10, 1000);
    expect(set.reads.at(-1)).toEqual({ offset: 0, limit: 100 });
  });

  it('tells why a read failed, keeps no block, and reads the rows in view again on retry', async () => {
    const set = result();
    set.land(50);
    const cache = new WindowCache({ read: set.read, blockRows: 100, maxBlocks: 10 });
    set.fail(true);
    cache.ensure(0, 20, 50);
    await set.release();
    expect(cache.error?.message).toBe('This result is gone.');
    expect(cache.row(0)).toBeUndefined();
    set.fail(false);
    cache.retry();
    expect(cache.error).toBeUndefined();
    await set.release();
    expect(cache.row(49)).toBe('row49');
  });

  it('rewrites held rows in place and says whether any changed', async () => {
    const set = result();
    set.land(10);
    const cache = new WindowCache({ read: set.read, blockRows: 100, maxBlocks: 10 });
    cache.ensure(0, 9, 10);
    await set.release();
    expect(cache.rewriteRows((row) => (row === 'row3' ? 'row3 (edited)' : row))).toBe(true);
    expect(cache.row(3)).toBe('row3 (edited)');
    expect(cache.rewriteRows((row) => row)).toBe(false);
  });
});
