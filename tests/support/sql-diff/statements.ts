import { Random } from './data';
import {
  duckCompare,
  duckEquals,
  duckExtreme,
  ExprGen,
  type GExpr,
  tagOf,
  toDuck,
  toDyno,
  type Triple,
} from './expressions';
import { fastPathStatement } from './fast-paths';

/** One generated statement in both dialects. DuckDB returns three columns (a Triple) per output. */
export interface GenStatement {
  dyno: string;
  duck: string;
  outputs: number;
  /** Outputs computed in doubles by DuckDB (AVG): compared to 10 significant digits. */
  approx: number[];
  /** ORDER BY a unique id: rows compare in order; otherwise as a multiset. */
  ordered: boolean;
}

interface Out {
  dyno: string;
  duck: Triple;
  approx?: boolean;
}

const flat = (outs: Out[]): string => outs.map((o) => `${o.duck.n}, ${o.duck.s}, ${o.duck.b}`).join(', ');
const idOut = (alias: string): Out => ({
  dyno: `${alias}.id`,
  duck: { n: 'NULL', s: `${alias}.id`, b: 'NULL' },
});

/** An aggregate over g's aliases; `ofColumn`: of one column, never COUNT(*) or AVG (exact, and reading a column). */
function aggregate(g: ExprGen, r: Random, ofColumn = false): Out {
  const x = ofColumn || r.chance(0.7) ? g.col() : g.value('any', 1);
  const [d, t] = [toDyno(x), toDuck(x)];
  switch (ofColumn ? r.pick([1, 2, 3, 5, 6]) : r.int(0, 6)) {
    case 0:
      return { dyno: 'COUNT(*)', duck: { n: 'COUNT(*)', s: 'NULL', b: 'NULL' } };
    case 1:
      return { dyno: `COUNT(${d})`, duck: { n: `COUNT(${tagOf(t)})`, s: 'NULL', b: 'NULL' } };
    case 2: {
      const key = `(${tagOf(t)} || ':' || COALESCE(CAST(${t.n} AS VARCHAR), ${t.s}, CAST(${t.b} AS VARCHAR)))`;
      return { dyno: `COUNT(DISTINCT ${d})`, duck: { n: `COUNT(DISTINCT ${key})`, s: 'NULL', b: 'NULL' } };
    }
    case 3:
      return { dyno: `SUM(${d})`, duck: { n: `SUM(${t.n})`, s: 'NULL', b: 'NULL' } };
    case 4:
      return { dyno: `AVG(${d})`, duck: { n: `AVG(${t.n})`, s: 'NULL', b: 'NULL' }, approx: true };
    case 5:
      // MIN prefers numbers; without numbers, booleans sort before strings (docs/SQL.md).
      return { dyno: `MIN(${d})`, duck: duckExtreme('MIN', t) };
    default:
      return { dyno: `MAX(${d})`, duck: duckExtreme('MAX', t) };
  }
}

function where(p: GExpr | undefined): { dyno: string; duck: string } {
  return p ? { dyno: ` WHERE ${toDyno(p)}`, duck: ` WHERE ${toDuck(p).b}` } : { dyno: '', duck: '' };
}

/** A correlated or plain subquery predicate on outer alias a, over tb b. */
function subqueryPredicate(r: Random, outer: ExprGen): { dyno: string; duck: string } {
  const inner = new ExprGen(r, ['b']);
  const correlated = r.chance(0.7);
  const conds: GExpr[] = [];
  if (correlated)
    conds.push({ kind: 'cmp', op: '=', left: { kind: 'col', alias: 'b', name: 'k' }, right: outer.col() });
  if (r.chance(0.5)) conds.push(inner.predicate(1));
  const dynoWhere = conds.length ? ` WHERE ${conds.map(toDyno).join(' AND ')}` : '';
  const duckConds = conds.map((c) => toDuck(c).b);
  const duckWhere = (extra: string[]) => {
    const all = [...duckConds, ...extra];
    return all.length ? ` WHERE ${all.join(' AND ')}` : '';
  };
  const negated = r.chance(0.4);
  if (r.chance(0.5)) {
    return {
      dyno: `${negated ? 'NOT ' : ''}EXISTS (SELECT 1 FROM tb b${dynoWhere})`,
      duck: `${negated ? 'NOT ' : ''}EXISTS (SELECT 1 FROM tb b${duckWhere([])})`,
    };
  }
  const x = outer.value('any', 1);
  const y = inner.col();
  const [tx, ty] = [toDuck(x), toDuck(y)];
  // Type-aware membership; nothing in the set → false, even for NULL.
  const member = `(CASE WHEN NOT EXISTS (SELECT 1 FROM tb b${duckWhere([])}) THEN false WHEN ${tagOf(tx)} IS NULL THEN NULL WHEN EXISTS (SELECT 1 FROM tb b${duckWhere([duckEquals(tx, ty)])}) THEN true WHEN EXISTS (SELECT 1 FROM tb b${duckWhere([`${tagOf(ty)} IS NULL`])}) THEN NULL ELSE false END)`;
  return {
    dyno: `${toDyno(x)} ${negated ? 'NOT ' : ''}IN (SELECT ${toDyno(y)} FROM tb b${dynoWhere})`,
    duck: negated ? `(NOT ${member})` : member,
  };
}

function scalarSubquery(r: Random, outer: ExprGen): Out {
  const k: GExpr = { kind: 'cmp', op: '=', left: { kind: 'col', alias: 'b', name: 'k' }, right: outer.col() };
  const inner = aggregate(new ExprGen(r, ['b']), r);
  // Now and then an outer column beside the aggregate: a constant inside the subquery (issue 31).
  const agg = r.chance(0.3) ? besideOuter(inner, outer.col(), r) : inner;
  const sub = (part: string) => (part === 'NULL' ? part : `(SELECT ${part} FROM tb b WHERE ${toDuck(k).b})`);
  return {
    dyno: `(SELECT ${agg.dyno} FROM tb b WHERE ${toDyno(k)})`,
    duck: { n: sub(agg.duck.n), s: sub(agg.duck.s), b: sub(agg.duck.b) },
    approx: agg.approx,
  };
}

/** `aggregate op outer.column`: arithmetic, so a number or NULL (another type gives NULL). */
function besideOuter(agg: Out, column: GExpr, r: Random): Out {
  const op = r.pick(['+', '-', '*'] as const);
  return {
    dyno: `(${agg.dyno} ${op} ${toDyno(column)})`,
    duck: { n: `(${agg.duck.n} ${op} ${toDuck(column).n})`, s: 'NULL', b: 'NULL' },
    approx: agg.approx,
  };
}

/**
 * A HAVING condition of a query over ta a grouped by `key` (issue 31): EXISTS over a subquery
 * grouped by one of tb's columns whose HAVING reads an outer value (a constant there), or whose
 * WHERE compares tb's column with an aggregate of ta's columns (the grouped query's aggregate).
 */
function havingExists(r: Random, a: ExprGen, key: GExpr): { dyno: string; duck: string } {
  const inner = new ExprGen(r, ['b']);
  if (r.chance(0.5)) {
    // A plain key column: inside the subquery an outer column is read alone, and only a
    // column that is itself the group key is one value per group.
    const [by, bound] = [inner.col(), key.kind === 'col' ? key : a.literal('num')];
    const t = toDuck(by);
    const limit = r.pick(['+', '-'] as const);
    return {
      dyno: `EXISTS (SELECT 1 FROM tb b GROUP BY ${toDyno(by)} HAVING COUNT(*) > (${toDyno(bound)} ${limit} 1))`,
      duck: `EXISTS (SELECT 1 FROM tb b GROUP BY ${t.n}, ${t.s}, ${t.b} HAVING COUNT(*) > (${toDuck(bound).n} ${limit} 1))`,
    };
  }
  const outerAgg = aggregate(a, r, true);
  const column = inner.col();
  const op = r.pick(['=', '<', '>', '<='] as const);
  return {
    dyno: `EXISTS (SELECT 1 FROM tb b WHERE ${toDyno(column)} ${op} ${outerAgg.dyno})`,
    duck: `EXISTS (SELECT 1 FROM tb b WHERE ${duckCompare(op, toDuck(column), outerAgg.duck)})`,
  };
}

function build(
  select: Out[],
  from: { dyno: string; duck: string },
  rest: { dyno: string; duck: string },
  distinct = false,
  ordered = false,
): GenStatement {
  const d = distinct ? 'DISTINCT ' : '';
  return {
    dyno: `SELECT ${d}${select.map((o) => o.dyno).join(', ')} FROM ${from.dyno}${rest.dyno}`,
    duck: `SELECT ${d}${flat(select)} FROM ${from.duck}${rest.duck}`,
    outputs: select.length,
    approx: select.flatMap((o, i) => (o.approx ? [i] : [])),
    ordered,
  };
}

const exprOut = (e: GExpr): Out => ({ dyno: toDyno(e), duck: toDuck(e) });

/** The statement for (dataSeed, index): reproducible from those two numbers alone. */
export function generateStatement(dataSeed: number, index: number): GenStatement {
  const r = new Random(dataSeed * 7919 + index * 104729 + 1);
  const a = new ExprGen(r, ['a']);
  const ta = { dyno: 'ta a', duck: 'ta a' };
  const pred = () => (r.chance(0.8) ? a.predicate(r.int(0, 2)) : undefined);
  switch (r.int(0, 6)) {
    case 6:
      return { ...fastPathStatement(r), ordered: false };
    case 0: {
      const outs = [
        idOut('a'),
        ...Array.from({ length: r.int(1, 3) }, () =>
          exprOut(a.value(r.pick(['num', 'str', 'bool', 'any'] as const), 2)),
        ),
      ];
      const w = where(pred());
      if (r.chance(0.3)) {
        const limit = r.int(0, 6);
        return build(
          outs,
          ta,
          { dyno: `${w.dyno} ORDER BY a.id LIMIT ${limit}`, duck: `${w.duck} ORDER BY a.id LIMIT ${limit}` },
          false,
          true,
        );
      }
      return build(outs, ta, w);
    }
    case 1: {
      const outs = Array.from({ length: r.int(1, 2) }, () =>
        exprOut(a.value(r.pick(['num', 'str', 'any'] as const), 1)),
      );
      return build(outs, ta, where(pred()), true);
    }
    case 2: {
      const outs = Array.from({ length: r.int(1, 4) }, () => aggregate(a, r));
      return build(outs, ta, where(pred()));
    }
    case 3: {
      // Keys always read a column: a constant key is a position for DuckDB (GROUP BY (-26) is
      // refused there) and a constant for DynoTable; regressions.json keeps that case.
      const column = a.col();
      const key: GExpr = r.chance(0.7)
        ? column
        : r.pick<GExpr>([
            { kind: 'coalesce', left: column, right: a.literal('any') },
            { kind: 'fn', name: 'UPPER', arg: column },
            { kind: 'arith', op: '+', left: column, right: a.literal('num') },
          ]);
      const k = exprOut(key);
      const outs = [k, ...Array.from({ length: r.int(1, 3) }, () => aggregate(a, r))];
      const w = where(pred());
      const t = toDuck(key);
      const having = r.chance(0.3) ? r.int(0, 2) : undefined;
      const exists = having === undefined && r.chance(0.25) ? havingExists(r, a, key) : undefined;
      const [dynoHaving, duckHaving] = exists
        ? [` HAVING ${exists.dyno}`, ` HAVING ${exists.duck}`]
        : having !== undefined
          ? [` HAVING COUNT(*) > ${having}`, ` HAVING COUNT(*) > ${having}`]
          : ['', ''];
      return build(outs, ta, {
        dyno: `${w.dyno} GROUP BY ${k.dyno}${dynoHaving}`,
        duck: `${w.duck} GROUP BY ${t.n}, ${t.s}, ${t.b}${duckHaving}`,
      });
    }
    case 4: {
      const both = new ExprGen(r, ['a', 'b']);
      const left = r.chance(0.4);
      const on: GExpr = {
        kind: 'cmp',
        op: '=',
        left: { kind: 'col', alias: 'a', name: 'k' },
        right: { kind: 'col', alias: 'b', name: r.chance(0.8) ? 'k' : 'n1' },
      };
      const join = left ? 'LEFT JOIN' : 'JOIN';
      const outs = [idOut('a'), idOut('b'), exprOut(both.value('any', 1))];
      const w = r.chance(0.5) ? where(both.predicate(1)) : { dyno: '', duck: '' };
      return build(
        outs,
        { dyno: `ta a ${join} tb b ON ${toDyno(on)}`, duck: `ta a ${join} tb b ON ${toDuck(on).b}` },
        w,
      );
    }
    default: {
      if (r.chance(0.5)) {
        const outs = [idOut('a'), scalarSubquery(r, a)];
        return build(outs, ta, where(pred()));
      }
      const sub = subqueryPredicate(r, a);
      const extra = pred();
      const dyno = extra ? `${sub.dyno} AND ${toDyno(extra)}` : sub.dyno;
      const duck = extra ? `(${sub.duck}) AND ${toDuck(extra).b}` : sub.duck;
      return build([idOut('a')], ta, { dyno: ` WHERE ${dyno}`, duck: ` WHERE ${duck}` });
    }
  }
}
