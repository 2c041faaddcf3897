/**
 * `npm run bench:sql`: DynoTable's SQL engine against hand-written columnar JavaScript (typed
 * arrays, dictionary codes: sql-columnar.ts, the practical floor for JS) and DuckDB
 * (@duckdb/node-api, one thread), optionally alasql, in one process on the same generated pages,
 * on two shapes (sql-cases.ts): the one-table design with ~1 KB items, and two tables of orders
 * and customers. For a JOIN + GROUP BY, a GROUP BY, a window function and a correlated subquery it
 * prints each side's steady time (medians of alternating runs, so machine load hits every side
 * alike), its CPU time, and its time to first result: load plus first run, which for the engine
 * includes decoding the columns the statement reads. The ratios are what to read. The engine's
 * steady time is also printed for the statement prepared (a re-run through the session's plan
 * cache, prepared-statements.ts); its first run and time to first result stay uncached.
 *
 *   SQL_BENCH_SIZES=100000,1000000   sizes to run (items of the one table; orders of the two)
 *   SQL_BENCH_SHAPES=one,two         shapes to run (default both)
 *   SQL_BENCH_ROUNDS=3               runs per query and side (medians are reported)
 *   SQL_BENCH_ALASQL=1               0 leaves alasql out (it is slow at 1M)
 *   BENCH_FROM=source                the source under tsx instead of the code as it ships
 *
 * The engine runs as it ships, one bundle (as-shipped.ts): under tsx every name a hot loop
 * imports is a getter call at each use, which the SQL worker's bundle does not pay.
 */
import { execSync } from 'node:child_process';
import type { ColumnarTable } from '../../src/main/sql/executor/table';
import { type BenchCase, type BenchShape, canonical, oneTableShape, twoTableShape } from './sql-cases';
import { makeItem, type SdkItem } from './sql-data';
import { compressRawText, rawTextBytes } from '../../src/main/sql/executor/cold-strings';
import { CPU_MS as cpuMs, endIngest, engineTable, ingestWire, runEngine } from './sql-engine-side';
import { productFirstResult } from './sql-first-result';
import { PreparedStatements } from '../../src/main/sql/prepared-statements';
import { alasqlLoad, alasqlRows, DuckSide } from './sql-others';
import { codeForm, relaunchedAsShipped } from './as-shipped';

const sizes = (process.env.SQL_BENCH_SIZES ?? '100000,1000000').split(',').map(Number);
const shapes = (process.env.SQL_BENCH_SHAPES ?? 'one,two').split(',');
const rounds = Number(process.env.SQL_BENCH_ROUNDS ?? 3);
const withAlasql = process.env.SQL_BENCH_ALASQL !== '0';
const gc = (globalThis as { gc?: () => void }).gc;

interface Loaded {
  shape: BenchShape;
  tables: Map<string, ColumnarTable>;
  duck: DuckSide;
  /**
   * Each side's load from the pages' response bytes: the engine's ingest (split, parse a chunk at
   * a time, seal), JSON.parse plus DuckDB's appender, JSON.parse plus the hand-written columns'
   * build. Wall and CPU time.
   */
  loadMs: { engine: number; hand: number; duck: number };
  loadCpu: { engine: number; hand: number; duck: number };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** Tenths below 10 ms: at 100,000 items a statement takes 0.3–4 ms, and whole ms hide the ratios. */
const ms = (x: number): string => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
function heapBytes(): number {
  // Twice: measured after 100,000 items, one collection still counted ~150 B/item of array
  // buffers and zlib output already dropped (338 B/item after one, 183 after two or three).
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}
/** Wall time, the value, and the CPU time of the whole process (every thread: V8's GC, DuckDB's). */
async function timed<T>(fn: () => T | Promise<T>): Promise<[number, T, number]> {
  const [start, cpuStart] = [performance.now(), cpuMs()];
  const value = await fn();
  return [performance.now() - start, value, cpuMs() - cpuStart];
}

const perItem = (bytes: number, items: number): string =>
  `${Math.round(bytes / items).toLocaleString('en-US')} B/item`;

async function load(shape: BenchShape): Promise<Loaded> {
  const base = heapBytes();
  const tables = new Map<string, ColumnarTable>();
  const duck = await DuckSide.open(shape.tables.map((t) => t.duck));
  const loadMs = { engine: 0, hand: 0, duck: 0 };
  const loadCpu = { engine: 0, hand: 0, duck: 0 };
  let parseCpu = 0;
  const alasqlItems: SdkItem[] = [];
  const keepForAlasql = withAlasql && shape.cases.some((c) => c.alasql);
  // The engine loads alone first, so the heap it holds is its own; then the other sides. Pages
  // are bytes, as a response's body reaches the read engine; making them is not timed.
  for (const t of shape.tables) {
    const table = engineTable(t);
    tables.set(t.info.name, table);
    for (const page of t.pages()) {
      const body = Buffer.from(page);
      const [wall, , cpu] = await timed(() => ingestWire(table, body));
      loadMs.engine += wall;
      loadCpu.engine += cpu;
    }
    const [wall, , cpu] = await timed(() => endIngest(table));
    loadMs.engine += wall;
    loadCpu.engine += cpu;
  }
  // The product compresses the text after the statement has run (cold-strings.ts
  // compressRawTextLater); here right after the load, timed apart, so memory is measured as the
  // product holds it once the compression is done.
  const rawHeld = rawTextBytes();
  const [, , compressCpu] = await timed(() => compressRawText());
  const engineHeap = heapBytes() - base;
  for (const t of shape.tables) {
    for (const page of t.pages()) {
      const body = Buffer.from(page);
      const parse = () => (JSON.parse(body.toString('utf8')) as { Items: SdkItem[] }).Items;
      const [handMs, Items, handCpu] = await timed(() => {
        const items = parse();
        t.handAppend(items);
        return items;
      });
      loadMs.hand += handMs;
      loadCpu.hand += handCpu;
      parseCpu += (await timed(parse))[2];
      const [duckMs, , duckCpu] = await timed(() => duck.append(t.duck.name, parse()));
      loadMs.duck += duckMs;
      loadCpu.duck += duckCpu;
      if (keepForAlasql) for (const item of Items) alasqlItems.push(item);
    }
  }
  const [alasqlMs] = keepForAlasql ? await timed(() => alasqlLoad(alasqlItems)) : [NaN];
  alasqlItems.length = 0;
  const duckBytes = await duck.memoryBytes();
  const size = shape.items;
  const perItemUs = (t: number): string => `${((t * 1000) / size).toFixed(2)} µs/item`;
  console.log(`\n${shape.label} (pages of 1,000)`);
  console.log(
    `  load from the response bytes: engine ${perItemUs(loadMs.engine)} (${ms(loadMs.engine)}) · hand columns ${perItemUs(loadMs.hand)} (${ms(loadMs.hand)}) · DuckDB appender ${perItemUs(loadMs.duck)} (${ms(loadMs.duck)})` +
      (keepForAlasql ? ` · alasql rows ${perItemUs(alasqlMs)}` : ''),
  );
  console.log(
    `    CPU: engine ${perItemUs(loadCpu.engine)} · hand ${perItemUs(loadCpu.hand)} · DuckDB ${perItemUs(loadCpu.duck)} · engine/hand ${(loadCpu.engine / loadCpu.hand).toFixed(2)}× (JSON.parse of the pages alone: ${perItemUs(parseCpu)}, in the hand and DuckDB loads; the engine parses in its own)`,
  );
  console.log(
    `    engine: text compressed after the first result, CPU ${perItemUs(compressCpu)} (raw bytes waiting at the load's end: ${perItem(rawHeld, size)}) · load + that compression ${perItemUs(loadCpu.engine + compressCpu)}, /hand ${((loadCpu.engine + compressCpu) / loadCpu.hand).toFixed(2)}×`,
  );
  console.log(
    `  memory: engine columns after load ${perItem(engineHeap, size)} · hand columns' typed arrays ${perItem(shape.handBytes(), size)} (+ dictionaries) · DuckDB ${perItem(duckBytes, size)}`,
  );
  return { shape, tables, duck, loadMs, loadCpu };
}

type Side = 'engine' | 'hand' | 'duck';
/** The engine with its plan cache (prepared-statements.ts), as a re-run in the product. */
type Timed = Side | 'prepared';

async function measureCase(c: BenchCase, data: Loaded): Promise<void> {
  const statements = new PreparedStatements();
  const run: Record<Timed, () => unknown[][] | Promise<unknown[][]>> = {
    engine: () => runEngine(c.dyno, data),
    prepared: () => runEngine(c.dyno, data, statements),
    hand: () => c.hand(),
    duck: () => data.duck.rows(c.duck),
  };
  const sides: Side[] = ['engine', 'hand', 'duck'];
  // The prepared engine gets rounds of its own between the engine's, in the same place after
  // DuckDB, so both meet the same warm-up and the same cold caches.
  const roundOrder: Timed[] = ['engine', 'hand', 'duck', 'prepared', 'hand', 'duck'];
  const times = {
    engine: [] as number[],
    prepared: [] as number[],
    hand: [] as number[],
    duck: [] as number[],
  };
  // On the shared machine a run's wall time is mostly how often it got a core; its CPU time is not.
  const cpu = {
    engine: [] as number[],
    prepared: [] as number[],
    hand: [] as number[],
    duck: [] as number[],
  };
  const answers: Record<string, string[]> = {};
  // Each side's first run is timed apart: the engine's decodes the columns it reads (~200 MB at 1M
  // items), which would push the next timed run of any side into a mark-compact of seconds. Then
  // one collection, and an untimed run of each JS side to absorb what a forced collection leaves
  // behind (measured at 300,000 items: ~150 ms more CPU in whichever JS run comes next).
  const first = { engine: 0, hand: 0, duck: 0 };
  const firstCpu = { engine: 0, hand: 0, duck: 0 };
  for (const side of sides) [first[side], , firstCpu[side]] = await timed(run[side]);
  gc?.();
  runEngine(c.dyno, data);
  // The prepared side's first run parses and binds: it fills the cache, untimed.
  runEngine(c.dyno, data, statements);
  c.hand();
  for (let round = 0; round < rounds; round++) {
    for (const side of roundOrder) {
      const [t, rows, c2] = await timed(run[side]);
      times[side].push(t);
      cpu[side].push(c2);
      answers[side] = canonical(rows);
    }
  }
  let alasqlNote = '';
  if (withAlasql && c.alasql) {
    try {
      const [a, rows] = await timed(() => alasqlRows(c.alasql!));
      answers.alasql = canonical(rows);
      alasqlNote = `alasql ${ms(a)} (${(a / median(times.engine)).toFixed(2)}× the engine)`;
    } catch (error) {
      alasqlNote = `alasql refused it: ${(error as Error).message.slice(0, 80)}`;
    }
  } else if (withAlasql && c.label === 'correlated subquery' && data.shape.views.length > 0) {
    alasqlNote = 'alasql not run (it runs the subquery again for every row: see the probe above)';
  }
  const expected = JSON.stringify(answers.engine);
  const verdict = Object.entries(answers)
    .filter(([side]) => side !== 'engine')
    .map(([side, lines]) => `${side} ${JSON.stringify(lines) === expected ? 'agrees' : 'DIFFERS'}`)
    .join(', ');
  const [e, h, d] = sides.map((side) => median(times[side])) as [number, number, number];
  console.log(
    `  ${c.label.padEnd(28)} engine ${ms(e).padStart(8)} · hand columnar JS ${ms(h).padStart(8)} · DuckDB query ${ms(d).padStart(8)}`,
  );
  console.log(
    `  ${''.padEnd(28)} engine/hand JS ${(e / h).toFixed(2)}× · engine/DuckDB ${(e / d).toFixed(2)}×`,
  );
  const [ec, hc, dc] = sides.map((side) => median(cpu[side])) as [number, number, number];
  console.log(
    `  ${''.padEnd(28)} CPU time: engine ${ms(ec)} · hand JS ${ms(hc)} · DuckDB ${ms(dc)} · engine/hand JS ${(ec / hc).toFixed(2)}× · engine/DuckDB ${(ec / dc).toFixed(2)}× (engine rounds ${cpu.engine.map(ms).join(', ')})`,
  );
  const [p, pc] = [median(times.prepared), median(cpu.prepared)];
  console.log(
    `  ${''.padEnd(28)} statement prepared (a re-run): engine ${ms(p)} · engine/hand JS ${(p / h).toFixed(2)}× · CPU ${ms(pc)} · engine/hand JS ${(pc / hc).toFixed(2)}× (rounds ${cpu.prepared.map(ms).join(', ')})`,
  );
  const firstResult = (side: Side): number => data.loadMs[side] + first[side];
  const firstResultCpu = (side: Side): number => data.loadCpu[side] + firstCpu[side];
  console.log(
    `  ${''.padEnd(28)} first run: engine ${ms(first.engine)} (CPU ${ms(firstCpu.engine)}) · hand JS ${ms(first.hand)} · DuckDB ${ms(first.duck)}; ` +
      `time to first result (load from bytes + first run): engine ${ms(firstResult('engine'))} · hand JS ${ms(firstResult('hand'))} · DuckDB ${ms(firstResult('duck'))} · engine/hand JS ${(firstResult('engine') / firstResult('hand')).toFixed(2)}× · engine/DuckDB ${(firstResult('engine') / firstResult('duck')).toFixed(2)}×`,
  );
  console.log(
    `  ${''.padEnd(28)} time to first result, CPU: engine ${ms(firstResultCpu('engine'))} · hand JS ${ms(firstResultCpu('hand'))} · DuckDB ${ms(firstResultCpu('duck'))} · engine/hand JS ${(firstResultCpu('engine') / firstResultCpu('hand')).toFixed(2)}× · engine/DuckDB ${(firstResultCpu('engine') / firstResultCpu('duck')).toFixed(2)}×`,
  );
  console.log(
    `  ${''.padEnd(28)} ${alasqlNote}${alasqlNote ? ' · ' : ''}rows: ${verdict} (${answers.engine!.length} rows)`,
  );
}

/** alasql's correlated subquery is quadratic: two small sizes show it without running for hours. */
function alasqlProbe(): void {
  for (const n of [2000, 4000]) {
    alasqlLoad(Array.from({ length: n }, (_, i) => makeItem(i, Math.ceil(n / 10))));
    const start = performance.now();
    alasqlRows(
      "SELECT COUNT(*) AS n FROM App AS o WHERE o.SK LIKE 'ORDER#%' AND o.amount > (SELECT AVG(p.amount) FROM App AS p WHERE p.SK LIKE 'ORDER#%' AND p.userId = o.userId)",
    );
    console.log(
      `  alasql correlated subquery at ${n.toLocaleString('en-US')} items: ${ms(performance.now() - start)}`,
    );
  }
}

async function main(): Promise<void> {
  if (!gc) console.log('(run with node --expose-gc for memory figures: npm run bench:sql does)');
  console.log(
    `bench:sql — Node ${process.version}, ${codeForm()}, ${rounds} alternating rounds per query, medians`,
  );
  console.log(`  machine: ${execSync('uptime').toString().trim()}`);
  if (withAlasql && shapes.includes('one')) alasqlProbe();
  for (const size of sizes) {
    for (const name of shapes) {
      const make = () => (name === 'two' ? twoTableShape(size) : oneTableShape(size));
      const data = await load(make());
      for (const c of data.shape.cases) await measureCase(c, data);
      // String columns stay compressed until a statement reads them; what the statements decoded:
      const withDecoded = heapBytes();
      for (const table of data.tables.values()) {
        table.coolDown();
        table.coolDown();
      }
      const decoded = withDecoded - heapBytes();
      console.log(
        `  memory: columns the statements above decoded (kept while statements read them): ${perItem(decoded, data.shape.items)} more`,
      );
      data.duck.close();
      data.tables.clear();
      console.log('  time to first result as the product reads: only the attributes the planner projects');
      for (let k = 0; k < data.shape.cases.length; k++) await productFirstResult(k, make);
    }
  }
  console.log(`  machine after: ${execSync('uptime').toString().trim()}`);
}

if (
  !relaunchedAsShipped(__filename, {
    nodeFlags: ['--max-old-space-size=8192'],
    external: ['@duckdb/node-api', 'alasql'],
  })
)
  void main();
