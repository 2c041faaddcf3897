import { describe, expect, it } from 'vitest';
import { choosePath } from '../../src/main/athena/path-choice';
import { defaultLimits, scanRcu } from '../../src/main/sql/scan-limit';

/** The plan's two paths for a table whose DescribeTable says 200 GB. */
describe('local scan or Athena for a 200 GB table', () => {
  const GB = 1e9;
  const base = {
    tableSizeBytes: 200 * GB,
    itemCount: 400_000_000,
    localItemsPerSecond: 3_779,
    exportBytesPerSecond: 100 * 1024 * 1024,
  };

  it('is past the default limit of a 16 GB machine, and says why', () => {
    const choice = choosePath({ ...base, limits: defaultLimits(16 * 1024 ** 3) });
    expect(choice.over).toEqual(['200 GB is more than the limit of 4.3 GB']);
  });

  it('puts the local scan at 200 GB of eventually consistent reads: 24.4 million RCU and over a day', () => {
    const choice = choosePath({ ...base, limits: {} });
    expect(choice.over).toEqual([]);
    expect(choice.local.rcu).toBe(Math.ceil((200 * GB) / 4096) / 2);
    expect(Math.round(choice.local.rcu / 1e5) / 10).toBe(24.4);
    expect(choice.local.seconds / 3600).toBeGreaterThan(24);
  });

  it('prices Athena from the export billed size at $5 per TB, and adds the export when none is recent', () => {
    const none = choosePath({ ...base, limits: { items: 1_000_000 } });
    expect(none.over).toEqual(['400,000,000 items is more than the limit of 1,000,000']);
    expect(none.athena.exportNeeded).toBe(true);
    expect(none.athena.exportSeconds).toBeCloseTo((200 * GB) / (100 * 1024 * 1024), 6);
    expect(none.athena.costUsd).toBeCloseTo((Math.ceil((200 * GB) / 1024 ** 2) / 1024 ** 2) * 5, 9);
    const recent = choosePath({ ...base, limits: { rcu: 1000 }, exportBilledBytes: 60 * GB });
    expect(recent.athena.exportNeeded).toBe(false);
    expect(recent.athena.exportSeconds).toBe(0);
    expect(recent.athena.costUsd).toBeCloseTo((Math.ceil((60 * GB) / 1024 ** 2) / 1024 ** 2) * 5, 9);
    expect(recent.over[0]).toMatch(/RCU is more than the limit of 1,000/);
  });

  it('charges half a unit per 4 KB read', () => {
    expect(scanRcu(4096)).toBe(0.5);
    expect(scanRcu(4097)).toBe(1);
  });
});
