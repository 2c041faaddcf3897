import { describe, expect, it } from 'vitest';
import { pastLimits, type KeptEntry } from '../../src/main/journal/journal-limits';

const MB = 1024 * 1024;
const now = Date.parse('2026-12-06T12:00:00Z');
const day = 86_400_000;
const entry = (id: string, daysAgo: number, megabytes: number): KeptEntry => ({
  id,
  at: new Date(now - daysAgo * day).toISOString(),
  bytes: megabytes * MB,
});

describe('the journal bounds', () => {
  it('drops, newest first, what is past the count, the age or the size', () => {
    const entries = [entry('a', 0, 1), entry('b', 1, 1), entry('c', 2, 1), entry('d', 40, 1)];
    const ids = (limits: { maxEntries: number; maxAgeDays: number; maxMegabytes: number }) =>
      pastLimits(entries, limits, now).map((e) => e.id);
    expect(ids({ maxEntries: 200, maxAgeDays: 30, maxMegabytes: 500 })).toEqual(['d']);
    expect(ids({ maxEntries: 2, maxAgeDays: 30, maxMegabytes: 500 })).toEqual(['c', 'd']);
    expect(ids({ maxEntries: 200, maxAgeDays: 1.5, maxMegabytes: 500 })).toEqual(['c', 'd']);
    expect(ids({ maxEntries: 200, maxAgeDays: 30, maxMegabytes: 2 })).toEqual(['c', 'd']);
  });

  it('always keeps the newest entry, so the write just made can be undone', () => {
    expect(
      pastLimits(
        [entry('huge', 0, 900), entry('old', 1, 1)],
        { maxEntries: 1, maxAgeDays: 1, maxMegabytes: 500 },
        now,
      ).map((e) => e.id),
    ).toEqual(['old']);
  });
});
