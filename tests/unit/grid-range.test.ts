import { describe, expect, it } from 'vitest';
import {
  cellBounds,
  copyProblem,
  isInRange,
  MAX_COPY_CELLS,
  rangeBounds,
  rangeSize,
  tsvField,
  tsvText,
} from '../../src/renderer/ui/grid-range';
import { WindowCache } from '../../src/renderer/ui/window-cache';

const size = { rows: 1000, cols: 8, page: 20 };

describe('a range of grid cells', () => {
  it('spans the anchor and the focused cell whichever way it was drawn', () => {
    const down = rangeBounds({ row: 2, col: 3 }, { row: 13, col: 5 }, size);
    const up = rangeBounds({ row: 13, col: 5 }, { row: 2, col: 3 }, size);
    expect(down).toEqual({ top: 2, bottom: 13, left: 3, right: 5 });
    expect(up).toEqual(down);
    expect(rangeSize(down!)).toBe('12 rows × 3 columns');
    expect(isInRange(down, 13, 5)).toBe(true);
    expect(isInRange(down, 14, 5)).toBe(false);
    expect(isInRange(down, 5, 2)).toBe(false);
  });

  it('is no range on one cell, takes whole rows from the lead column, and leaves the header row out', () => {
    expect(rangeBounds({ row: 4, col: 2 }, { row: 4, col: 2 }, size)).toBeUndefined();
    expect(rangeBounds({ row: 4, col: 0 }, { row: 6, col: 0 }, size)).toEqual({
      top: 4,
      bottom: 6,
      left: 1,
      right: 8,
    });
    expect(rangeBounds({ row: -1, col: 2 }, { row: 1, col: 2 }, size)).toEqual({
      top: 0,
      bottom: 1,
      left: 2,
      right: 2,
    });
    expect(rangeBounds({ row: -1, col: 2 }, { row: -1, col: 4 }, size)).toBeUndefined();
    expect(rangeSize(rangeBounds({ row: 0, col: 1 }, { row: 0, col: 2 }, size)!)).toBe('1 row × 2 columns');
    // A single cell copied with its header is that cell; the row number's cell is its row.
    expect(cellBounds({ row: 9, col: 0 }, size)).toEqual({ top: 9, bottom: 9, left: 1, right: 8 });
    expect(cellBounds({ row: 9, col: 4 }, size)).toEqual({ top: 9, bottom: 9, left: 4, right: 4 });
  });

  it('refuses a copy past the cap with a sentence, and allows one at the cap', () => {
    expect(copyProblem({ top: 0, bottom: MAX_COPY_CELLS / 4 - 1, left: 1, right: 4 })).toBeUndefined();
    expect(copyProblem({ top: 0, bottom: 29_999, left: 1, right: 4 })).toBe(
      'Nothing copied: 30,000 rows × 4 columns is 120,000 cells, and a copy holds at most 100,000. Select fewer, or export the rows.',
    );
  });
});

describe('tab-separated text as spreadsheets paste it', () => {
  it('quotes only fields with a tab, a line break or a quote, doubling the quotes', () => {
    expect(tsvField('plain text, with commas')).toBe('plain text, with commas');
    expect(tsvField('a\tb')).toBe('"a\tb"');
    expect(tsvField('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(tsvField('cr\r')).toBe('"cr\r"');
    expect(tsvField('say "hi"')).toBe('"say ""hi"""');
    expect(tsvField('')).toBe('');
    expect(
      tsvText([
        ['PK', 'note'],
        ['a#1', 'two\nlines'],
      ]),
    ).toBe('PK\tnote\na#1\t"two\nlines"');
  });
});

describe('reading a range through the window cache', () => {
  it('takes held rows as they are, reads the others in windows of at most 1,000 without keeping them', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `row${i}`);
    const reads: { offset: number; limit: number }[] = [];
    const cache = new WindowCache<string>({
      blockRows: 100,
      maxBlocks: 4,
      read: (offset, limit) => {
        reads.push({ offset, limit });
        return Promise.resolve({ ok: true, value: rows.slice(offset, offset + limit) });
      },
    });
    cache.ensure(0, 99, rows.length);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cache.row(50)).toBe('row50');
    reads.length = 0;

    const range = await cache.readRange(50, 2549);
    expect(range).toEqual({ ok: true, value: rows.slice(50, 2550) });
    // Rows 50–99 were held; the rest came in windows of at most 1,000 rows.
    expect(reads).toEqual([
      { offset: 100, limit: 1000 },
      { offset: 1100, limit: 1000 },
      { offset: 2100, limit: 450 },
    ]);
    // The rows in view stay; the range's rows were not kept.
    expect(cache.row(50)).toBe('row50');
    expect(cache.row(2000)).toBeUndefined();
  });

  it('answers short when the result ends first, and with the failure when a read fails', async () => {
    let isFailing = false;
    const cache = new WindowCache<number>({
      blockRows: 10,
      maxBlocks: 4,
      read: (offset, limit) =>
        Promise.resolve(
          isFailing
            ? { ok: false, error: { code: 'NotFound', message: 'This result is gone.', retryable: false } }
            : {
                ok: true,
                value: Array.from(
                  { length: Math.max(0, Math.min(limit, 25 - offset)) },
                  (_, i) => offset + i,
                ),
              },
        ),
    });
    const short = await cache.readRange(20, 40);
    expect(short).toEqual({ ok: true, value: [20, 21, 22, 23, 24] });
    isFailing = true;
    const failed = await cache.readRange(0, 5);
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(failed.error.message).toBe('This result is gone.');
  });
});
