/**
 * `npm run bench:sql`: DynoTable's SQL engine against a hand-written JavaScript reference,
 * alasql and DuckDB (@duckdb/node-api, one thread), in one process on the same generated items,
 * for a JOIN + GROUP BY, a GROUP BY, a window function and a correlated subquery. Runs alternate
 * (engine, reference, DuckDB, engine, ...) so machine load hits every side alike; the ratios are
 * what to read, of wall time and of the process's CPU time during each run (on a shared machine
 * the second moves far less). Also prints each side's load cost and the memory the loaded items take.
 *
 *   SQL_BENCH_SIZES=100000,1000000   sizes to run (default both)
 *   SQL_BENCH_ROUNDS=3               runs per query and side (medians are reported)
 *   SQL_BENCH_ALASQL=1               0 leaves alasql out (it is slow at 1M)
 */
import { execSync } from 'node:child_process';
import { resolveTable } from '../../src/main/sql/catalog/resolve-table';
import { bindStatement } from '../../src/main/sql/binder/bind-query';
import { executeQuery } from '../../src/main/sql/executor/execute';
import { tableInfo } from '../../src/main/sql/executor/run-local';
import { ColumnarTable } from '../../src/main/sql/executor/table';
import { parseStatement } from '../../src/main/sql/parser/parser';
import { isNum, numToString } from '../../src/main/sql/values/decimal';
import type { EntityView } from '../../src/shared/sql/catalog';
import { type BenchCase, CASES, canonical } from './sql-cases';
import { makeItem, pages, type SdkItem } from './sql-data';
import { alasqlLoad, alasqlRows, DuckSide } from './sql-others';

const sizes = (process.env.SQL_BENCH_SIZES ?? '100000,1000000').split(',').map(Number);
const rounds = Number(process.env.SQL_BENCH_ROUNDS ?? 3);
const withAlasql = process.env.SQL_BENCH_ALASQL !== '0';
const gc = (globalThis as { gc?: () => void }).gc;

const views: EntityView[] = ['users', 'orders'].map((name) => ({
  name,
  table: 'App',
  conditions: [
    { attribute: 'SK', op: 'begins_with', values: [{ S: `${name === 'users' ? 'USER' : 'ORDER'}#` }] },
  ],
  source: 'detected',
}));
const catalog = { tables: [tableInfo('App', 'PK', 'SK')], views };

export function runEngine(text: string, table: ColumnarTable): unknown[][] {
  const bound = bindStatement(parseStatement(text), {
    text,
    resolveTable: (name, schema, span) => resolveTable(catalog, name, schema, span, text),
  });
  const result = executeQuery(bound, {
    text,
    fn: { nowMs: Date.now() },
    tableFor: () => table,
    warn: () => undefined,
  });
  return Array.from({ length: result.length }, (_, i) =>
    result.row(i).map((v) => (isNum(v) ? numToString(v) : v)),
  );
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number): string => `${x.toFixed(0)} ms`;
function heapBytes(): number {
  gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
/** Wall time, the value, and the CPU time of the whole process (every thread: V8's GC, DuckDB's). */
async function timed<T>(fn: () => T | Promise<T>): Promise<[number, T, number]> {
  const [start, cpuStart] = [performance.now(), cpuMs()];
  const value = await fn();
  return [performance.now() - start, value, cpuMs() - cpuStart];
}

interface Loaded {
  table: ColumnarTable;
  items: SdkItem[];
  duck: DuckSide;
  duckLoadMs: number;
}

async function load(size: number): Promise<Loaded> {
  const base = heapBytes();
  const table = new ColumnarTable('App', ['PK', 'SK']);
  const duck = await DuckSide.open();
  let engineMs = 0;
  let duckMs = 0;
  let pageCount = 0;
  for (const page of pages(size)) {
    const { Items } = JSON.parse(page) as { Items: SdkItem[] };
    engineMs += (await timed(() => table.appendSdkItems(Items)))[0];
    duckMs += (await timed(() => duck.append(Items)))[0];
    pageCount += 1;
  }
  const engineHeap = heapBytes() - base;
  const items: SdkItem[] = [];
  for (const page of pages(size))
    for (const item of (JSON.parse(page) as { Items: SdkItem[] }).Items) items.push(item);
  const sdkHeap = heapBytes() - base - engineHeap;
  const [alasqlMs] = withAlasql ? await timed(() => alasqlLoad(items)) : [NaN];
  const alasqlHeap = heapBytes() - base - engineHeap - sdkHeap;
  const duckBytes = await duck.memoryBytes();
  const perItem = (bytes: number): string => `${Math.round(bytes / size).toLocaleString('en-US')} B/item`;
  const perItemUs = (t: number): string => `${((t * 1000) / size).toFixed(2)} µs/item`;
  console.log(`\n${size.toLocaleString('en-US')} items (~1 KB each, ${pageCount} pages of 1,000)`);
  console.log(
    `  load:   engine ${perItemUs(engineMs)} (${ms(engineMs)}) · DuckDB appender ${perItemUs(duckMs)} (${ms(duckMs)})` +
      (withAlasql ? ` · alasql rows ${perItemUs(alasqlMs)}` : ''),
  );
  console.log(
    `  memory: engine columns after load ${perItem(engineHeap)} · SDK item objects ${perItem(sdkHeap)} · DuckDB ${perItem(duckBytes)}` +
      (withAlasql ? ` · alasql rows ${perItem(alasqlHeap)}` : ''),
  );
  return { table, items, duck, duckLoadMs: duckMs };
}

async function measureCase(c: BenchCase, data: Loaded): Promise<void> {
  const { duckLoadMs } = data;
  const times = { engine: [] as number[], reference: [] as number[], duck: [] as number[] };
  // On the shared machine a run's wall time is mostly how often it got a core; its CPU time is not.
  const cpu = { engine: [] as number[], reference: [] as number[], duck: [] as number[] };
  let answers: Record<string, string[]> = {};
  // The engine's first run decodes the columns it reads (~200 MB at 1M items), which pushes the
  // heap, ~1.9 GB with the SDK objects the reference needs, into a mark-compact of seconds that
  // would land in the next timed run of any side. So the first run is timed apart, then one
  // collection, then an untimed run of each JS side to absorb what a forced collection leaves
  // behind (measured at 300,000 items: ~150 ms more CPU in whichever JS run comes next).
  const [first] = await timed(() => runEngine(c.dyno, data.table));
  gc?.();
  runEngine(c.dyno, data.table);
  c.reference(data.items);
  for (let round = 0; round < rounds; round++) {
    const [e, engineRows, eCpu] = await timed(() => runEngine(c.dyno, data.table));
    const [r, referenceRows, rCpu] = await timed(() => c.reference(data.items));
    const [d, duckRows, dCpu] = await timed(() => data.duck.rows(c.duck));
    times.engine.push(e);
    times.reference.push(r);
    times.duck.push(d);
    cpu.engine.push(eCpu);
    cpu.reference.push(rCpu);
    cpu.duck.push(dCpu);
    answers = {
      engine: canonical(engineRows),
      reference: canonical(referenceRows),
      duck: canonical(duckRows),
    };
  }
  let alasqlNote = '';
  if (withAlasql && c.label === 'correlated subquery') {
    alasqlNote = 'alasql not run (it runs the subquery again for every row: see the probe above)';
  } else if (withAlasql) {
    try {
      const [a, rows] = await timed(() => alasqlRows(c.alasql));
      answers.alasql = canonical(rows);
      alasqlNote = `alasql ${ms(a)} (${(a / median(times.engine)).toFixed(2)}× the engine)`;
    } catch (error) {
      alasqlNote = `alasql refused it: ${(error as Error).message.slice(0, 80)}`;
    }
  }
  const expected = JSON.stringify(answers.engine);
  const verdict = Object.entries(answers)
    .filter(([side]) => side !== 'engine')
    .map(([side, lines]) => `${side} ${JSON.stringify(lines) === expected ? 'agrees' : 'DIFFERS'}`)
    .join(', ');
  const [e, r, d] = [median(times.engine), median(times.reference), median(times.duck)];
  console.log(
    `  ${c.label.padEnd(24)} engine ${ms(e).padStart(8)} · reference ${ms(r).padStart(8)} · DuckDB query ${ms(d).padStart(8)} · (engine's first run, decoding its columns: ${ms(first)})`,
  );
  console.log(
    `  ${''.padEnd(24)} engine/reference ${(e / r).toFixed(2)}× · engine/DuckDB query ${(e / d).toFixed(2)}× · engine/(DuckDB load + query) ${(e / (d + duckLoadMs)).toFixed(2)}×`,
  );
  const [ec, rc, dc] = [median(cpu.engine), median(cpu.reference), median(cpu.duck)];
  console.log(
    `  ${''.padEnd(24)} CPU time: engine ${ms(ec)} · reference ${ms(rc)} · DuckDB query ${ms(dc)} · engine/reference ${(ec / rc).toFixed(2)}× · engine/DuckDB query ${(ec / dc).toFixed(2)}× (engine rounds ${cpu.engine.map(ms).join(', ')})`,
  );
  console.log(
    `  ${''.padEnd(24)} ${alasqlNote}${alasqlNote ? ' · ' : ''}rows: ${verdict} (${answers.engine!.length} rows)`,
  );
}

/** alasql's correlated subquery is quadratic: two small sizes show it without running for hours. */
function alasqlProbe(): void {
  for (const n of [2000, 4000]) {
    alasqlLoad(Array.from({ length: n }, (_, i) => makeItem(i, Math.ceil(n / 10))));
    const start = performance.now();
    alasqlRows(CASES.find((c) => c.label === 'correlated subquery')!.alasql);
    console.log(
      `  alasql correlated subquery at ${n.toLocaleString('en-US')} items: ${ms(performance.now() - start)}`,
    );
  }
}

async function main(): Promise<void> {
  if (!gc) console.log('(run with node --expose-gc for memory figures: npm run bench:sql does)');
  console.log(`bench:sql — Node ${process.version}, ${rounds} alternating rounds per query, medians`);
  console.log(`  machine: ${execSync('uptime').toString().trim()}`);
  if (withAlasql) alasqlProbe();
  for (const size of sizes) {
    const data = await load(size);
    for (const c of CASES) await measureCase(c, data);
    // String columns stay compressed until a statement reads them; what the statements decoded:
    const withDecoded = heapBytes();
    data.table.coolDown();
    data.table.coolDown();
    const decoded = withDecoded - heapBytes();
    console.log(
      `  memory: columns the statements above decoded (kept while statements read them): ${Math.round(decoded / size).toLocaleString('en-US')} B/item more`,
    );
    data.duck.close();
  }
  console.log(`  machine after: ${execSync('uptime').toString().trim()}`);
}

void main();
