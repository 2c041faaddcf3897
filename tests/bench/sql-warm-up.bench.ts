/**
 * `npm run bench:sql-warm-up`: what the SQL worker's warm-up (src/main/sql/worker/warm-up.ts)
 * saves on the user's first statement, and what it costs every worker start. Each measurement is
 * a fresh process (V8 starts cold, as a new worker does): it loads one of bench:sql's shapes from
 * the pages' response bytes, runs the warm-up or not, then one statement once (the first run)
 * and again (the steady state). Processes alternate with and without the warm-up, so machine
 * load hits both alike; CPU time is what to read (process.cpuUsage: every thread, V8's
 * optimising compiler included).
 *
 *   SQL_WARM_SIZE=100000        items of the one table; orders of the two
 *   SQL_WARM_REPEATS=3          processes per statement and mode (medians are reported)
 *   SQL_WARM_ROWS=4000          the warm-up's generated rows (its default when unset)
 *   SQL_WARM_ROUNDS=4           the warm-up's runs of each statement
 */
import { execFileSync, execSync } from 'node:child_process';
import type { ColumnarTable } from '../../src/main/sql/executor/table';
import { startWarmUp } from '../../src/main/sql/worker/warm-up';
import { oneTableShape, twoTableShape } from './sql-cases';
import { CPU_MS, endIngest, engineTable, ingestWire, runEngine } from './sql-engine-side';

interface Sample {
  warmCpu: number;
  warmWall: number;
  firstCpu: number;
  firstWall: number;
  steadyCpu: number;
}

const size = Number(process.env.SQL_WARM_SIZE ?? 100000);
const repeats = Number(process.env.SQL_WARM_REPEATS ?? 3);
const warmRows = process.env.SQL_WARM_ROWS ? Number(process.env.SQL_WARM_ROWS) : undefined;
const warmRounds = process.env.SQL_WARM_ROUNDS ? Number(process.env.SQL_WARM_ROUNDS) : undefined;

async function child(shapeName: string, index: number, warm: boolean): Promise<Sample> {
  const shape = shapeName === 'two' ? twoTableShape(size) : oneTableShape(size);
  const tables = new Map<string, ColumnarTable>();
  for (const t of shape.tables) {
    const table = engineTable(t);
    for (const page of t.pages()) ingestWire(table, Buffer.from(page));
    endIngest(table);
    tables.set(t.info.name, table);
  }
  let [warmCpu, warmWall] = [0, 0];
  if (warm) {
    const [cpu, wall] = [CPU_MS(), performance.now()];
    await startWarmUp({ rows: warmRows, rounds: warmRounds, startAfterMs: 0 }).done;
    [warmCpu, warmWall] = [CPU_MS() - cpu, performance.now() - wall];
  }
  const text = shape.cases[index]!.dyno;
  const data = { shape, tables };
  const [cpu, wall] = [CPU_MS(), performance.now()];
  runEngine(text, data);
  const [firstCpu, firstWall] = [CPU_MS() - cpu, performance.now() - wall];
  const steady: number[] = [];
  for (let k = 0; k < 9; k++) {
    const start = CPU_MS();
    runEngine(text, data);
    steady.push(CPU_MS() - start);
  }
  return { warmCpu, warmWall, firstCpu, firstWall, steadyCpu: median(steady) };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number): string => `${x.toFixed(1)} ms`;

function spawn(shape: string, index: number, warm: boolean): Sample {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', __filename, 'child', shape, String(index), warm ? '1' : '0'],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!) as Sample;
}

function main(): void {
  console.log(
    `bench:sql-warm-up — Node ${process.version}, ${size.toLocaleString('en-US')} items, ${repeats} processes per statement and mode`,
  );
  console.log(`  machine: ${execSync('uptime').toString().trim()}`);
  for (const shape of ['one', 'two']) {
    const cases = (shape === 'two' ? twoTableShape(10) : oneTableShape(10)).cases;
    console.log(shape === 'two' ? '\ntwo tables (orders × customers)' : '\none table (~1 KB items)');
    cases.forEach((c, index) => {
      const cold: Sample[] = [];
      const warmed: Sample[] = [];
      for (let k = 0; k < repeats; k++) {
        cold.push(spawn(shape, index, false));
        warmed.push(spawn(shape, index, true));
      }
      const m = (xs: Sample[], key: keyof Sample): number => median(xs.map((x) => x[key]));
      console.log(
        `  ${c.label.padEnd(28)} first run CPU: cold ${ms(m(cold, 'firstCpu'))} · warmed ${ms(m(warmed, 'firstCpu'))} · warmed/cold ${(m(warmed, 'firstCpu') / m(cold, 'firstCpu')).toFixed(2)}× ` +
          `· steady ${ms(m(cold, 'steadyCpu'))} / ${ms(m(warmed, 'steadyCpu'))} · first/steady: cold ${(m(cold, 'firstCpu') / m(cold, 'steadyCpu')).toFixed(1)}×, warmed ${(m(warmed, 'firstCpu') / m(warmed, 'steadyCpu')).toFixed(1)}×`,
      );
      console.log(
        `  ${''.padEnd(28)} first run wall: cold ${ms(m(cold, 'firstWall'))} · warmed ${ms(m(warmed, 'firstWall'))} · the warm-up itself: CPU ${ms(m(warmed, 'warmCpu'))}, wall ${ms(m(warmed, 'warmWall'))} (cold rounds ${cold.map((s) => s.firstCpu.toFixed(0)).join(', ')}; warmed ${warmed.map((s) => s.firstCpu.toFixed(0)).join(', ')})`,
      );
    });
  }
  console.log(`  machine after: ${execSync('uptime').toString().trim()}`);
}

if (process.argv[2] === 'child') {
  void child(process.argv[3]!, Number(process.argv[4]), process.argv[5] === '1').then((sample) =>
    console.log(JSON.stringify(sample)),
  );
} else main();
