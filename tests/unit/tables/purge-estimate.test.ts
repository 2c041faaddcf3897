import { describe, expect, it } from 'vitest';
import { estimatePurge, formatSeconds } from '../../../src/shared/dynamo/purge-estimate';
import type { TableSummary } from '../../../src/shared/ipc/tables';
import { tableSummary } from '../../support/table-summary';

const summary = (over: Partial<TableSummary>): TableSummary => tableSummary('Orders', over);

describe('estimatePurge', () => {
  it('charges a Scan by whole items (4 KB per unit, halved) and a delete per started KB of the average item', () => {
    // 1,000 items of 2.5 KB: 625 eventually consistent read units, 3 write units each.
    const estimate = estimatePurge(summary({ itemCount: 1000, sizeBytes: 2_560_000 }));
    expect(estimate.readUnits).toBe(313);
    expect(estimate.writeUnits).toBe(3000);
    expect(estimate.seconds).toBeUndefined();
    expect(estimate.sentences.join(' ')).toMatch(/about 1,000 items .* 3,000 write units/);
  });

  it('says how long provisioned write capacity makes it take, and compares with delete-and-recreate', () => {
    const estimate = estimatePurge(
      summary({ itemCount: 50_000, sizeBytes: 5_000_000, billingMode: 'PROVISIONED', writeCapacity: 100 }),
    );
    expect(estimate.writeUnits).toBe(50_000);
    expect(estimate.seconds).toBe(500);
    expect(estimate.sentences.join(' ')).toMatch(/at least 8 min/);
    expect(estimate.sentences.at(-1)).toMatch(/new ARN .* stream starts over/);
  });

  it('an empty table costs nothing to delete', () => {
    const estimate = estimatePurge(summary({}));
    expect(estimate).toMatchObject({ readUnits: 0, writeUnits: 0 });
  });

  it('formats durations for people', () => {
    expect([formatSeconds(0.2), formatSeconds(45), formatSeconds(600), formatSeconds(7200)]).toEqual([
      '1 s',
      '45 s',
      '10 min',
      '2.0 h',
    ]);
  });
});
