import { writeFileSync } from 'node:fs';
import { randomDataset } from '../tests/support/sql-diff/data';
import {
  DuckOracle,
  differential,
  loadRegressions,
  REGRESSIONS_FILE,
} from '../tests/support/sql-diff/oracle';

/**
 * npm run test:sql-fuzz [-- --seed N --datasets D --count C --views]: DynoTable's engine against
 * DuckDB on D random datasets × C random statements each (default 200 × 50 = 10,000); with
 * --views, ta and tb are entity views of one table. Every
 * disagreement is printed and appended to tests/sql-diff/regressions.json with DuckDB's rows as
 * the expected ones, to be triaged: fix the engine, or (when DuckDB's mapping was wrong) fix the
 * mapping and set `expected` to the right rows. Exit code 1 when any disagreement was found.
 */
function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main(): Promise<void> {
  const seed = arg('seed', Date.now() % 1_000_000);
  const datasets = arg('datasets', 200);
  const count = arg('count', 50);
  const oracle = await DuckOracle.open();
  const views = process.argv.includes('--views');
  const { cases, disagreements } = await differential(oracle, seed, datasets, count, views);
  oracle.close();
  console.log(
    `sql-fuzz: seed ${seed}${views ? ', through entity views' : ''}, ${cases} statements, ${disagreements.length} disagreements`,
  );
  if (disagreements.length > 0) {
    const known = loadRegressions();
    for (const d of disagreements) {
      console.log(
        `\n[data ${d.dataSeed} #${d.index}] ${d.dyno}\n  DynoTable: ${JSON.stringify(d.dynoRows)}\n  DuckDB:    ${JSON.stringify(d.duckRows)}`,
      );
      if (!known.some((k) => k.dyno === d.dyno))
        known.push({
          note: `found by sql-fuzz (data seed ${d.dataSeed}, statement ${d.index}); not yet triaged`,
          data: randomDataset(d.dataSeed),
          dyno: d.dyno,
          ...(views ? { views: true } : {}),
          expected: Array.isArray(d.duckRows) ? d.duckRows : [`error: ${d.duckRows.error}`],
        });
    }
    writeFileSync(REGRESSIONS_FILE, `${JSON.stringify(known, null, 2)}\n`);
    process.exitCode = 1;
  }
}

void main();
