import { describe, expect, it } from 'vitest';
import { Arena, RawBlockBudget } from '../../../src/main/resultsets/arena';

/** A compressible ~1 KB record: a row-like text with its index in it. */
function record(i: number): Buffer {
  return Buffer.from(`#${i} ${'status=SHIPPED city=Madrid sku=SKU-0042 '.repeat(25)}`);
}

function fill(arena: Arena, from: number, count: number): void {
  for (let i = from; i < from + count; i++) {
    const bytes = record(i);
    arena.push(bytes, bytes.length);
  }
}

function read(arena: Arena, index: number): string {
  const { buffer, start } = arena.locate(index);
  const length = record(index).length;
  return buffer.subarray(start, start + length).toString();
}

describe('Arena and its raw-block budget', () => {
  it('keeps sealed blocks raw within the budget and compresses the oldest past it, every record intact', () => {
    const budget = new RawBlockBudget(256 * 1024);
    const arena = new Arena(budget);
    fill(arena, 0, 200); // ~3 blocks of 64 KB: all raw
    const rawHeld = arena.reservedBytes;
    expect(budget.rawBytes).toBeGreaterThan(128 * 1024);
    fill(arena, 200, 2000); // far past the budget
    expect(budget.rawBytes).toBeLessThanOrEqual(256 * 1024);
    // Compressed blocks take a fraction of their raw size: ten times the records in well under ten times the bytes.
    expect(arena.reservedBytes).toBeLessThan(rawHeld * 5);
    for (const i of [0, 1, 199, 200, 1234, 2199]) expect(read(arena, i)).toBe(record(i).toString());
  });

  it('gives a dropped arena’s raw bytes back, so another arena stays raw', () => {
    const budget = new RawBlockBudget(256 * 1024);
    const first = new Arena(budget);
    fill(first, 0, 200);
    expect(budget.rawBytes).toBeGreaterThan(0);
    first.release();
    expect(budget.rawBytes).toBe(0);
    const second = new Arena(budget);
    fill(second, 0, 200);
    const before = second.reservedBytes;
    fill(second, 200, 30); // still within the budget: nothing compressed, so bytes only grow
    expect(second.reservedBytes).toBeGreaterThanOrEqual(before);
    expect(read(second, 5)).toBe(record(5).toString());
  });
});
