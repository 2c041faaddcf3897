import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckOracle, differential, dynoRows, loadRegressions } from '../support/sql-diff/oracle';

/**
 * DynoTable's engine against DuckDB on random heterogeneous items and random statements, with
 * DynoTable's documented rules spelled out on the DuckDB side (tests/support/sql-diff). A few
 * hundred cases here; `npm run test:sql-fuzz` runs thousands with any seed.
 */
let oracle: DuckOracle;
beforeAll(async () => {
  oracle = await DuckOracle.open();
});
afterAll(() => oracle.close());

describe('SQL differential suite (DuckDB as the oracle)', () => {
  it('agrees with DuckDB on 320 generated statements over 8 random datasets', async () => {
    const { cases, disagreements } = await differential(oracle, 424_242, 8, 40);
    expect(cases).toBe(320);
    expect(disagreements).toEqual([]);
    // ~2.5 s on a quiet machine; the shared 2-core machine at a load of 20 takes over 5.
  }, 60_000);

  for (const [i, regression] of loadRegressions().entries()) {
    it(`regression ${i + 1}: ${regression.note}`, () => {
      const rows = dynoRows(regression.data, regression.dyno, undefined, regression.views);
      expect(Array.isArray(rows) ? rows : [`error: ${rows.error}`]).toEqual(regression.expected);
    });
  }
});
