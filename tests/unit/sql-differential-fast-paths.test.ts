import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AggregateScan } from '../../src/main/sql/executor/operators/aggregate-scan';
import * as averages from '../../src/main/sql/executor/operators/correlated-average';
import * as top from '../../src/main/sql/executor/operators/window-top';
import * as overTop from '../../src/main/sql/executor/operators/window-top-aggregate';
import { isTidy, Random, randomDataset } from '../support/sql-diff/data';
import { fastPathStatement } from '../support/sql-diff/fast-paths';
import { agree, DuckOracle, dynoRows } from '../support/sql-diff/oracle';
import { generateStatement } from '../support/sql-diff/statements';

/**
 * The engine's own loops (GROUP BY in one loop, over a lookup join; top N per partition; an
 * aggregate over the kept rows; a correlated AVG) against DuckDB on generated statements and
 * items, and a count of where each loop answered: a differential suite whose statements never
 * reach the loops would pass whatever they did. The general suite (sql-differential.test.ts)
 * draws these shapes too; here only these, on tidy and mixed datasets.
 */
vi.mock('../../src/main/sql/executor/operators/window-top', async (original) => {
  const actual = await original<typeof top>();
  return { ...actual, topPerPartition: vi.fn(actual.topPerPartition) };
});
vi.mock('../../src/main/sql/executor/operators/window-top-aggregate', async (original) => {
  const actual = await original<typeof overTop>();
  return { ...actual, aggregateOverTop: vi.fn(actual.aggregateOverTop) };
});
vi.mock('../../src/main/sql/executor/operators/correlated-average', async (original) => {
  const actual = await original<typeof averages>();
  return { ...actual, filterByAverages: vi.fn(actual.filterByAverages) };
});

let oracle: DuckOracle;
beforeAll(async () => {
  oracle = await DuckOracle.open();
});
afterAll(() => oracle.close());

type Loop = 'group' | 'top' | 'overTop' | 'average';

/** Which loops answered the statement just run (not only were asked). */
function loopsThatAnswered(scan: { mock: { results: { type: string; value: unknown }[] } }): Set<Loop> {
  const took = (results: { type: string; value: unknown }[]) =>
    results.some(
      (r) => r.type === 'return' && r.value !== undefined && r.value !== null && r.value !== false,
    );
  const answered = new Set<Loop>();
  if (took(scan.mock.results)) answered.add('group');
  if (took(vi.mocked(top.topPerPartition).mock.results)) answered.add('top');
  if (took(vi.mocked(overTop.aggregateOverTop).mock.results)) answered.add('overTop');
  // filterByAverages always returns a frame: it answered when it narrowed the conditions.
  if (
    vi.mocked(averages.filterByAverages).mock.calls.some((call, i) => {
      const result = vi.mocked(averages.filterByAverages).mock.results[i];
      return result?.type === 'return' && result.value.rest.length < call[1].length;
    })
  )
    answered.add('average');
  return answered;
}

interface Shape {
  /** Items per table (randomDataset's defaults: 0–14). */
  fewest?: number;
  most?: number;
  /** ta and tb as entity views of one table (oracle.ts, oneTable). */
  throughViews?: boolean;
  /** The general suite's statements instead of the fast-path shapes. */
  general?: boolean;
}

/** Runs `perDataset` fast-path statements on each dataset; the disagreements and where each loop answered. */
async function run(
  seeds: number[],
  perDataset: number,
  { fewest, most, throughViews = false, general = false }: Shape = {},
) {
  const answered = new Map<Loop, number>();
  const disagreements: string[] = [];
  const refused: string[] = [];
  for (const seed of seeds) {
    const data = randomDataset(seed, fewest, most);
    await oracle.load(data);
    for (let i = 0; i < perDataset; i++) {
      const statement = general
        ? generateStatement(seed, i)
        : { ...fastPathStatement(new Random(seed * 131 + i)), ordered: false };
      const scan = vi.spyOn(AggregateScan.prototype, 'run');
      vi.mocked(top.topPerPartition).mockClear();
      vi.mocked(overTop.aggregateOverTop).mockClear();
      vi.mocked(averages.filterByAverages).mockClear();
      const mine = dynoRows(data, statement.dyno, statement, throughViews);
      for (const loop of loopsThatAnswered(scan)) answered.set(loop, (answered.get(loop) ?? 0) + 1);
      scan.mockRestore();
      const theirs = await oracle.rows(statement);
      // Every fast-path statement is one both engines answer: a refusal is a defect here.
      if ((!Array.isArray(mine) || !Array.isArray(theirs)) && !general) refused.push(statement.dyno);
      else if (!agree(mine, theirs))
        disagreements.push(
          `${statement.dyno}\n  ours: ${JSON.stringify(mine)}\n  DuckDB: ${JSON.stringify(theirs)}`,
        );
    }
  }
  return { answered: Object.fromEntries(answered), disagreements, refused };
}

const seeds = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe('the engine’s own loops against DuckDB', () => {
  it('agree on 1,200 statements over 40 small datasets, each loop answering a share of them', async () => {
    const { answered, disagreements, refused } = await run(seeds(77_000, 40), 30);
    expect(refused).toEqual([]);
    expect(disagreements).toEqual([]);
    // Tidy datasets (a third: isTidy) are where the loops can answer; each did, many times.
    expect(seeds(77_000, 40).filter(isTidy)).toHaveLength(13);
    for (const loop of ['group', 'top', 'overTop', 'average'] as const)
      expect(answered[loop] ?? 0, loop).toBeGreaterThanOrEqual(20);
  }, 120_000);

  it('agree on tables of 2,100 to 3,000 items, past a batch (BATCH_ROWS, 2,048 rows)', async () => {
    const { answered, disagreements, refused } = await run([78_000, 78_003], 20, {
      fewest: 2100,
      most: 3000,
    });
    expect(refused).toEqual([]);
    expect(disagreements).toEqual([]);
    for (const loop of ['group', 'top', 'overTop', 'average'] as const)
      expect(answered[loop] ?? 0, loop).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('agree when ta and tb are entity views of one table (a single-table design)', async () => {
    const loops = await run(seeds(79_000, 15), 30, { throughViews: true });
    expect(loops.refused).toEqual([]);
    expect(loops.disagreements).toEqual([]);
    for (const loop of ['group', 'top', 'overTop', 'average'] as const)
      expect(loops.answered[loop] ?? 0, loop).toBeGreaterThanOrEqual(5);
    // And the general suite's statements, through the same views.
    const general = await run(seeds(79_100, 10), 30, { throughViews: true, general: true });
    expect(general.disagreements).toEqual([]);
  }, 120_000);
});
