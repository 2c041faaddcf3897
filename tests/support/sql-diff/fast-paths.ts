import { COLUMNS, type Random, STRINGS } from './data';
import { duckEquals, duckExtreme, type GExpr, tagOf, toDuck, toDyno, type Triple } from './expressions';

/**
 * Statements in the shapes the engine answers by its own loops rather than the general path
 * (docs/ARCHITECTURE.md, flow (b) step 9), so the oracle checks those loops too, not only the
 * hand-written cases beside each: a GROUP BY of one key with a text filter
 * (`operators/aggregate-scan.ts`), the same over a many-to-one join (tb's `u` is unique: see
 * `data.ts`), top N per partition (`window-top.ts`), an aggregate over a derived top-N table
 * (`window-top-aggregate.ts`) and a comparison with a correlated AVG (`correlated-average.ts`).
 * Each shape also varies the way the general path must answer (a repeated join key, a number
 * key, a missing filter column), as the loops must step aside there.
 */
export interface FastPathStatement {
  dyno: string;
  duck: string;
  outputs: number;
  approx: number[];
}

interface Part {
  dyno: string;
  duck: Triple;
  approx?: boolean;
}

const col = (alias: string, name: string): GExpr => ({ kind: 'col', alias, name });
const flat = (parts: Part[]): string => parts.map((p) => `${p.duck.n}, ${p.duck.s}, ${p.duck.b}`).join(', ');
const numbers = COLUMNS.filter((c) => c.type === 'N' && c.name !== 'k').map((c) => c.name);
const anyColumn = (r: Random): string => r.pick(COLUMNS).name;

/** DynoTable's order of mixed types (docs/SQL.md): NULL, then booleans, numbers, strings; DESC reverses it all. */
export function duckOrderBy(t: Triple, descending: boolean): string {
  const block = `(CASE WHEN (${t.b}) IS NOT NULL THEN 0 WHEN (${t.n}) IS NOT NULL THEN 1 WHEN (${t.s}) IS NOT NULL THEN 2 END)`;
  const way = descending ? 'DESC NULLS LAST' : 'ASC NULLS FIRST';
  return `${block} ${way}, ${t.n} ${way}, ${t.s} ${way}, ${t.b} ${way}`;
}

const partitionOf = (t: Triple): string => `${t.n}, ${t.s}, ${t.b}`;

/** COUNT/SUM/MIN/MAX/AVG of one column of `alias`, as both dialects say it. */
function aggregateOf(r: Random, alias: string): Part {
  const c = col(alias, r.chance(0.85) ? r.pick(numbers) : anyColumn(r));
  const [d, t] = [toDyno(c), toDuck(c)];
  switch (r.int(0, 5)) {
    case 0:
      return { dyno: 'COUNT(*)', duck: { n: 'COUNT(*)', s: 'NULL', b: 'NULL' } };
    case 1:
      return { dyno: `COUNT(${d})`, duck: { n: `COUNT(${tagOf(t)})`, s: 'NULL', b: 'NULL' } };
    case 2:
      return { dyno: `SUM(${d})`, duck: { n: `SUM(${t.n})`, s: 'NULL', b: 'NULL' } };
    case 3:
      return { dyno: `AVG(${d})`, duck: { n: `AVG(${t.n})`, s: 'NULL', b: 'NULL' }, approx: true };
    case 4:
      return { dyno: `MIN(${d})`, duck: duckExtreme('MIN', t) };
    default:
      return { dyno: `MAX(${d})`, duck: duckExtreme('MAX', t) };
  }
}

/** Now and then a text filter `alias.column = 'literal'` (the loops test one such code filter). */
function textFilter(r: Random, alias: string): { dyno: string; duck: string } | undefined {
  if (r.chance(0.4)) return undefined;
  const c = col(alias, r.chance(0.8) ? r.pick(['s1', 's2']) : anyColumn(r));
  const literal: GExpr = { kind: 'str', value: r.pick(STRINGS) };
  return { dyno: `${toDyno(c)} = ${toDyno(literal)}`, duck: duckEquals(toDuck(c), toDuck(literal)) };
}

function statement(
  select: Part[],
  from: { dyno: string; duck: string },
  rest: { dyno: string; duck: string },
) {
  return {
    dyno: `SELECT ${select.map((p) => p.dyno).join(', ')} FROM ${from.dyno}${rest.dyno}`,
    duck: `SELECT ${flat(select)} FROM ${from.duck}${rest.duck}`,
    outputs: select.length,
    approx: select.flatMap((p, i) => (p.approx ? [i] : [])),
  };
}

function groupBy(r: Random): FastPathStatement {
  const key = col('a', r.chance(0.6) ? r.pick(['s1', 's2']) : anyColumn(r));
  const aggregates = Array.from({ length: r.int(1, 4) }, () => aggregateOf(r, 'a'));
  const filter = textFilter(r, 'a');
  const t = toDuck(key);
  return statement(
    [{ dyno: toDyno(key), duck: t }, ...aggregates],
    { dyno: 'ta a', duck: 'ta a' },
    {
      dyno: `${filter ? ` WHERE ${filter.dyno}` : ''} GROUP BY ${toDyno(key)}`,
      duck: `${filter ? ` WHERE ${filter.duck}` : ''} GROUP BY ${partitionOf(t)}`,
    },
  );
}

function lookupJoin(r: Random): FastPathStatement {
  // a.k = b.u: many-to-one (u unique); a.k = b.k now and then: a repeated build key.
  const [left, right] = [col('a', 'k'), col('b', r.chance(0.8) ? 'u' : 'k')];
  const on = r.chance(0.5) ? [left, right] : [right, left];
  const key = col(r.chance(0.75) ? 'b' : 'a', r.chance(0.6) ? r.pick(['s1', 's2']) : anyColumn(r));
  const aggregates = Array.from({ length: r.int(1, 3) }, () => aggregateOf(r, 'a'));
  const filter = textFilter(r, r.chance(0.8) ? 'a' : 'b');
  const t = toDuck(key);
  return statement(
    [{ dyno: toDyno(key), duck: t }, ...aggregates],
    {
      dyno: `ta a JOIN tb b ON ${toDyno(on[0]!)} = ${toDyno(on[1]!)}`,
      duck: `ta a JOIN tb b ON ${duckEquals(toDuck(on[0]!), toDuck(on[1]!))}`,
    },
    {
      dyno: `${filter ? ` WHERE ${filter.dyno}` : ''} GROUP BY ${toDyno(key)}`,
      duck: `${filter ? ` WHERE ${filter.duck}` : ''} GROUP BY ${partitionOf(t)}`,
    },
  );
}

/** `QUALIFY <rank>() OVER (PARTITION BY p ORDER BY o, a.id) <= n`: rows compare as a multiset. */
function topPerPartition(r: Random): FastPathStatement {
  const p = col('a', anyColumn(r));
  const o = col('a', r.chance(0.8) ? r.pick(numbers) : anyColumn(r));
  const descending = r.chance(0.7);
  const fn = r.pick(['ROW_NUMBER', 'RANK', 'DENSE_RANK'] as const);
  // ROW_NUMBER breaks ties by id on both sides, so the same rows are kept.
  const tie = fn === 'ROW_NUMBER' ? ', a.id' : '';
  const n = r.int(1, 3);
  const shown = col('a', anyColumn(r));
  const select: Part[] = [
    { dyno: 'a.id', duck: { n: 'NULL', s: 'a.id', b: 'NULL' } },
    { dyno: toDyno(shown), duck: toDuck(shown) },
  ];
  return statement(
    select,
    { dyno: 'ta a', duck: 'ta a' },
    {
      dyno: ` QUALIFY ${fn}() OVER (PARTITION BY ${toDyno(p)} ORDER BY ${toDyno(o)} ${descending ? 'DESC' : 'ASC'}${tie}) <= ${n}`,
      duck: ` QUALIFY ${fn}() OVER (PARTITION BY ${partitionOf(toDuck(p))} ORDER BY ${duckOrderBy(toDuck(o), descending)}${tie}) <= ${n}`,
    },
  );
}

/** COUNT/SUM/AVG over `(SELECT v, ROW_NUMBER() OVER (PARTITION BY p ORDER BY v DESC) AS rn ...) t WHERE rn <= n`. */
function aggregateOverTop(r: Random): FastPathStatement {
  const p = col('a', anyColumn(r));
  const v = col('a', r.chance(0.85) ? r.pick(numbers) : anyColumn(r));
  const descending = r.chance(0.8);
  const n = r.int(1, 3);
  const tv = toDuck(v);
  // COUNT(t.v) counts a value of every type: DuckDB counts its tag, not its number.
  const outer: Part[] = [
    { dyno: 'COUNT(*)', duck: { n: 'COUNT(*)', s: 'NULL', b: 'NULL' } },
    { dyno: 'SUM(t.v)', duck: { n: 'SUM(t.v_n)', s: 'NULL', b: 'NULL' } },
    ...(r.chance(0.4)
      ? [{ dyno: 'AVG(t.v)', duck: { n: 'AVG(t.v_n)', s: 'NULL', b: 'NULL' }, approx: true }]
      : []),
    ...(r.chance(0.3) ? [{ dyno: 'COUNT(t.v)', duck: { n: 'COUNT(t.v_tag)', s: 'NULL', b: 'NULL' } }] : []),
  ];
  const way = descending ? 'DESC' : 'ASC';
  return statement(
    outer,
    {
      dyno: `(SELECT ${toDyno(v)} AS v, ROW_NUMBER() OVER (PARTITION BY ${toDyno(p)} ORDER BY ${toDyno(v)} ${way}) AS rn FROM ta a) t`,
      duck: `(SELECT ${tv.n} AS v_n, ${tagOf(tv)} AS v_tag, ROW_NUMBER() OVER (PARTITION BY ${partitionOf(toDuck(p))} ORDER BY ${duckOrderBy(tv, descending)}) AS rn FROM ta a) t`,
    },
    { dyno: ` WHERE t.rn <= ${n}`, duck: ` WHERE t.rn <= ${n}` },
  );
}

/**
 * `WHERE a.x op (SELECT AVG(b.y) FROM tb b WHERE b.k = a.k)`, or over ta itself. DuckDB's AVG is a
 * double; the oracle compares exactly instead: x·COUNT(y) op SUM(y) when COUNT(y) > 0.
 */
function correlatedAverage(r: Random): FastPathStatement {
  const inner = r.chance(0.3) ? { table: 'tb', alias: 'b' } : { table: 'ta', alias: 'p' };
  const x = col('a', r.chance(0.85) ? r.pick(numbers) : anyColumn(r));
  const y = col(inner.alias, r.chance(0.85) ? r.pick(numbers) : anyColumn(r));
  const op = r.pick(['>', '<', '>=', '<='] as const);
  const corr = `${inner.alias}.k = a.k`;
  const duckCorr = duckEquals(toDuck(col(inner.alias, 'k')), toDuck(col('a', 'k')));
  const from = `${inner.table} ${inner.alias}`;
  const count = `(SELECT COUNT(${toDuck(y).n}) FROM ${from} WHERE ${duckCorr})`;
  const sum = `(SELECT SUM(${toDuck(y).n}) FROM ${from} WHERE ${duckCorr})`;
  const tx = toDuck(x);
  const exact = `(${tx.n}) IS NOT NULL AND ${count} > 0 AND (${tx.n}) * ${count} ${op} ${sum}`;
  const counted = r.chance(0.4);
  const select: Part[] = counted
    ? [{ dyno: 'COUNT(*)', duck: { n: 'COUNT(*)', s: 'NULL', b: 'NULL' } }]
    : [{ dyno: 'a.id', duck: { n: 'NULL', s: 'a.id', b: 'NULL' } }];
  const filter = r.chance(0.3) ? textFilter(r, 'a') : undefined;
  return statement(
    select,
    { dyno: 'ta a', duck: 'ta a' },
    {
      dyno: ` WHERE ${toDyno(x)} ${op} (SELECT AVG(${toDyno(y)}) FROM ${from} WHERE ${corr})${filter ? ` AND ${filter.dyno}` : ''}`,
      duck: ` WHERE ${exact}${filter ? ` AND ${filter.duck}` : ''}`,
    },
  );
}

/** One statement of the fast-path shapes. */
export function fastPathStatement(r: Random): FastPathStatement {
  switch (r.int(0, 4)) {
    case 0:
      return groupBy(r);
    case 1:
      return lookupJoin(r);
    case 2:
      return topPerPartition(r);
    case 3:
      return aggregateOverTop(r);
    default:
      return correlatedAverage(r);
  }
}
