import type { Expr, FrameBound, WindowSpec } from '../../sql/parser/ast';
import { lit } from '../glue-names';
import { type ExprEnv, timestampOf, translateExpr, written } from './expr';
import { refuse } from './scope';
import { asText, asType, asValue, digitsOf, hasType, member, soleType, type Typed, val } from './typed';
import { sumDigits } from './numbers';

/** A BIGINT (COUNT, length): at most 19 digits. */
const BIGINT_DIGITS = { integer: 19, fraction: 0 };
/** Numbers a SUM over a computed value may add up, when the export cannot say how many: a trillion. */
const MANY_ROWS = 1e12;

type Call = Extract<Expr, { kind: 'call' }>;

const AGGREGATES = new Set(['COUNT', 'SUM', 'AVG', 'MIN', 'MAX']);
const DATE_UNITS = new Set(['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second']);

function unitOf(e: Expr | undefined, env: ExprEnv, parts = false): string {
  const unit = e?.kind === 'literal' && e.value.type === 'string' ? e.value.value.toLowerCase() : undefined;
  const ok =
    unit && (DATE_UNITS.has(unit) || (parts && ['dow', 'doy', 'millisecond', 'epoch'].includes(unit)));
  if (!ok)
    return refuse(`the date unit ${e ? written(env, e) : ''}`, "the unit must be a literal such as 'month'");
  return unit;
}

/** An integer argument (SUBSTR's start, ROUND's places): Athena wants BIGINT there, not DECIMAL. */
const int = (t: Typed): string =>
  t.kind === 'val' && /^-?\d+$/.test(t.sql) ? t.sql : `CAST(${asType(t, 'N')} AS BIGINT)`;

export function translateCall(e: Call, env: ExprEnv): Typed {
  if (e.over) return windowCall(e, e.over, env);
  const name = e.name.toUpperCase();
  if (AGGREGATES.has(name)) return aggregate(e, name, env);
  const args = e.args.map((a) => translateExpr(a, env));
  const s = (i: number): string => asType(args[i]!, 'S');
  const n = (i: number): string => asType(args[i]!, 'N');
  switch (name) {
    case 'COALESCE':
    case 'IFNULL':
    case 'GREATEST':
    case 'LEAST': {
      const values = args.map((a) => asValue(a, env.notes));
      const type = values.map((v) => soleType(v)).find((t) => t !== undefined);
      const sqlName = name === 'IFNULL' ? 'COALESCE' : name;
      return val(
        `${sqlName}(${args.map((a) => (type ? asType(a, type) : asValue(a, env.notes).sql)).join(', ')})`,
        type ?? 'ANY',
      );
    }
    case 'NULLIF': {
      const type = soleType(args[0]!) ?? soleType(args[1]!) ?? 'S';
      return val(`NULLIF(${asType(args[0]!, type)}, ${asType(args[1]!, type)})`, type);
    }
    case 'LOWER':
    case 'UPPER':
      return val(`${name.toLowerCase()}(${s(0)})`, 'S');
    case 'TRIM':
    case 'LTRIM':
    case 'RTRIM': {
      // Athena's trim(s) strips all whitespace; DynoTable's strips the space alone (docs/SQL.md).
      const side = name === 'TRIM' ? 'BOTH' : name === 'LTRIM' ? 'LEADING' : 'TRAILING';
      return val(`trim(${side} ${args[1] ? s(1) : "' '"} FROM ${s(0)})`, 'S');
    }
    case 'LENGTH':
      return val(`length(${s(0)})`, 'N', BIGINT_DIGITS);
    case 'REPLACE':
      return val(`replace(${s(0)}, ${s(1)}, ${args[2] ? s(2) : "''"})`, 'S');
    case 'SUBSTR':
    case 'SUBSTRING':
      return val(`substr(${s(0)}, ${int(args[1]!)}${args[2] ? `, ${int(args[2])}` : ''})`, 'S');
    case 'LEFT':
    case 'RIGHT': {
      const count = int(args[1]!);
      const len = `length(${s(0)})`;
      // Athena has neither LEFT nor RIGHT; a negative count drops that many from the other end.
      const keep = `IF(${count} >= 0, LEAST(${count}, ${len}), GREATEST(${len} + ${count}, 0))`;
      return val(
        name === 'LEFT' ? `substr(${s(0)}, 1, ${keep})` : `substr(${s(0)}, ${len} - ${keep} + 1)`,
        'S',
      );
    }
    case 'CONCAT':
      // DynoTable's CONCAT skips NULLs; Athena's would return NULL.
      return val(`concat(${args.map((a) => `COALESCE(${asText(a)}, '')`).join(', ')})`, 'S');
    case 'SPLIT_PART':
      return val(`split_part(${s(0)}, ${s(1)}, ${int(args[2]!)})`, 'S');
    case 'BEGINS_WITH':
    case 'STARTS_WITH':
      return val(`starts_with(${s(0)}, ${s(1)})`, 'BOOL');
    case 'CONTAINS':
      return containsCall(args[0]!, args[1]!, e, env);
    case 'SIZE':
      return sizeCall(args[0]!, e, env);
    case 'TYPE_OF':
      return typeOfCall(args[0]!);
    case 'ABS':
    case 'FLOOR':
    case 'CEIL':
    case 'CEILING':
      return val(
        `${name === 'CEILING' ? 'ceil' : name.toLowerCase()}(${n(0)})`,
        'N',
        roundedDigits(args[0]!),
      );
    case 'ROUND':
      return val(`round(${n(0)}${args[1] ? `, ${int(args[1])}` : ''})`, 'N', roundedDigits(args[0]!));
    case 'NOW':
      return val('to_iso8601(current_timestamp)', 'S');
    case 'TO_ISO':
      return val(`to_iso8601(${timestampOf(args[0]!)})`, 'S');
    case 'TO_EPOCH_MS':
      return val(`CAST(round(to_unixtime(${timestampOf(args[0]!)}) * 1000) AS DECIMAL(38, 0))`, 'N');
    case 'DATE_TRUNC':
      return val(`to_iso8601(date_trunc(${lit(unitOf(e.args[0], env))}, ${timestampOf(args[1]!)}))`, 'S');
    case 'DATE_ADD':
      return val(
        `to_iso8601(date_add(${lit(unitOf(e.args[0], env))}, ${int(args[1]!)}, ${timestampOf(args[2]!)}))`,
        'S',
      );
    case 'DATE_DIFF':
      return val(
        `date_diff(${lit(unitOf(e.args[0], env))}, ${timestampOf(args[1]!)}, ${timestampOf(args[2]!)})`,
        'N',
      );
    case 'DATE_PART':
      return val(datePart(unitOf(e.args[0], env, true), timestampOf(args[1]!)), 'N');
    default:
      return refuse(`${name}()`, 'Athena has no equivalent this translation knows');
  }
}

/** Rounding can carry into one more digit before the point (99.5 → 100). */
function roundedDigits(t: Typed): { integer: number; fraction: number } | undefined {
  const d = digitsOf(t);
  return d && { integer: d.integer + 1, fraction: d.fraction };
}

function datePart(part: string, ts: string): string {
  switch (part) {
    case 'dow':
      // DynoTable counts from Sunday = 0; Athena's day_of_week is ISO (Monday = 1 … Sunday = 7).
      return `(day_of_week(${ts}) % 7)`;
    case 'doy':
      return `day_of_year(${ts})`;
    case 'millisecond':
      // DynoTable (like PostgreSQL) counts the seconds' milliseconds too; Athena's millisecond() is 0–999.
      return `(second(${ts}) * 1000 + millisecond(${ts}))`;
    case 'epoch':
      return `to_unixtime(${ts})`;
    case 'week':
      return `week_of_year(${ts})`;
    default:
      return `${part}(${ts})`;
  }
}

function containsCall(x: Typed, y: Typed, e: Call, env: ExprEnv): Typed {
  if (x.kind === 'val') {
    if (x.type !== 'S') refuse(written(env, e), 'CONTAINS over a computed value needs a string');
    return val(`(strpos(${x.sql}, ${asType(y, 'S')}) > 0)`, 'BOOL');
  }
  const tests: string[] = [];
  if (hasType(x.node, 'S')) tests.push(`strpos(${member(x, 'S')}, ${asType(y, 'S')}) > 0`);
  if (hasType(x.node, 'SS')) tests.push(`contains(${member(x, 'SS')}, ${asType(y, 'S')})`);
  if (hasType(x.node, 'NS') || hasType(x.node, 'L'))
    refuse(
      written(env, e),
      'CONTAINS over a number set or a list compares typed values Athena reads as text',
    );
  if (tests.length === 0) return val('FALSE', 'BOOL');
  return val(`(${tests.join(' OR ')})`, 'BOOL');
}

function sizeCall(x: Typed, e: Call, env: ExprEnv): Typed {
  if (x.kind === 'val') return val(`length(${asType(x, 'S')})`, 'N');
  if (hasType(x.node, 'M') || hasType(x.node, 'B'))
    refuse(written(env, e), 'the size of a map or binary value is not known to Athena from the export');
  const parts: string[] = [];
  if (hasType(x.node, 'S')) parts.push(`length(${member(x, 'S')})`);
  for (const t of ['SS', 'NS', 'BS', 'L'] as const)
    if (hasType(x.node, t)) parts.push(`cardinality(${member(x, t)})`);
  if (parts.length === 0) return val('CAST(NULL AS BIGINT)', 'N');
  return val(parts.length === 1 ? parts[0]! : `COALESCE(${parts.join(', ')})`, 'N');
}

function typeOfCall(x: Typed): Typed {
  if (x.kind === 'val') {
    const t = x.type === 'ANY' || x.type === 'JSON' ? undefined : x.type;
    return val(t ? `IF(${x.sql} IS NULL, 'NULL', '${t}')` : `'NULL'`, 'S');
  }
  if (!x.node) return val("'MISSING'", 'S');
  const whens = [...x.node.types].map((t) => `WHEN ${member(x, t)} IS NOT NULL THEN '${t}'`);
  return val(`(CASE WHEN ${x.sql} IS NULL THEN 'MISSING' ${whens.join(' ')} END)`, 'S');
}

function aggregate(e: Call, name: string, env: ExprEnv): Typed {
  const distinct = e.distinct ? 'DISTINCT ' : '';
  if (e.star) return val('count(*)', 'N', BIGINT_DIGITS);
  const arg = translateExpr(e.args[0]!, env);
  if (name === 'COUNT') return val(`count(${distinct}${asValue(arg, env.notes).sql})`, 'N', BIGINT_DIGITS);
  const digits = digitsOf(arg);
  if (name === 'SUM') {
    const count = arg.kind === 'attr' ? (arg.node?.numbers?.count ?? MANY_ROWS) : MANY_ROWS;
    const sum = digits && sumDigits(digits, count, written(env, e));
    return val(`sum(${distinct}${asType(arg, 'N')})`, 'N', sum);
  }
  if (name === 'AVG') {
    if (!digits) return val(`avg(${distinct}${asType(arg, 'N')})`, 'N');
    // Trino's AVG keeps its argument's scale: give it every place the whole part leaves free.
    const places = 38 - digits.integer;
    env.notes.push(
      `AVG(${written(env, e.args[0]!)}) is rounded to ${places} decimal places on Athena (locally: 38 significant digits).`,
    );
    return val(`avg(${distinct}CAST(${asType(arg, 'N')} AS DECIMAL(38, ${places})))`, 'N', {
      integer: digits.integer,
      fraction: places,
    });
  }
  // MIN/MAX prefer a column's numbers, as locally; other types count only where there are none.
  const one = soleType(arg);
  if (one) return val(`${name.toLowerCase()}(${distinct}${asType(arg, one)})`, one, digits);
  if (arg.kind === 'attr' && hasType(arg.node, 'N')) {
    env.notes.push(
      `${name}(${arg.label}) reads only its numbers, as DynoTable prefers them; other types are skipped.`,
    );
    return val(`${name.toLowerCase()}(${distinct}${asType(arg, 'N')})`, 'N', digits);
  }
  const v = asValue(arg, env.notes);
  return val(`${name.toLowerCase()}(${distinct}${v.sql})`, soleType(v) ?? 'ANY');
}

function bound(b: FrameBound, env: ExprEnv): string {
  switch (b.kind) {
    case 'unboundedPreceding':
      return 'UNBOUNDED PRECEDING';
    case 'unboundedFollowing':
      return 'UNBOUNDED FOLLOWING';
    case 'currentRow':
      return 'CURRENT ROW';
    default:
      return `${translateExpr(b.offset, env).sql} ${b.kind === 'preceding' ? 'PRECEDING' : 'FOLLOWING'}`;
  }
}

function windowCall(e: Call, over: WindowSpec, env: ExprEnv): Typed {
  const name = e.name.toUpperCase();
  const inner = AGGREGATES.has(name)
    ? aggregate({ ...e, over: undefined }, name, env)
    : windowFunction(e, name, env);
  const parts: string[] = [];
  if (over.partitionBy.length)
    parts.push(
      `PARTITION BY ${over.partitionBy.map((p) => asValue(translateExpr(p, env), env.notes).sql).join(', ')}`,
    );
  if (over.orderBy.length)
    parts.push(
      `ORDER BY ${over.orderBy
        .map(
          (o) =>
            `${asValue(translateExpr(o.expr, env), env.notes).sql}${orderSuffix(o.descending, o.nullsFirst)}`,
        )
        .join(', ')}`,
    );
  if (over.frame)
    parts.push(
      `${over.frame.unit} BETWEEN ${bound(over.frame.start, env)} AND ${bound(over.frame.end, env)}`,
    );
  return val(`${inner.sql} OVER (${parts.join(' ')})`, inner.kind === 'val' ? inner.type : 'ANY');
}

function windowFunction(e: Call, name: string, env: ExprEnv): Typed {
  const args = e.args.map((a) => asValue(translateExpr(a, env), env.notes));
  const first = args[0];
  const type = first ? (soleType(first) ?? 'ANY') : 'N';
  const list = args.map((a, i) =>
    i === 0
      ? a.sql
      : a.kind === 'val' && a.type === 'N' && /^\d+$/.test(a.sql)
        ? a.sql
        : type !== 'ANY' && i === 2
          ? asType(a, type)
          : a.sql,
  );
  const numeric = ['ROW_NUMBER', 'RANK', 'DENSE_RANK', 'PERCENT_RANK', 'CUME_DIST', 'NTILE'].includes(name);
  return val(`${name.toLowerCase()}(${list.join(', ')})`, numeric ? 'N' : type);
}

/** NULLs sort first ascending and last descending in DynoTable; Athena's default is the reverse, so it is always written. */
export function orderSuffix(descending: boolean, nullsFirst: boolean | undefined): string {
  const first = nullsFirst ?? !descending;
  return `${descending ? ' DESC' : ' ASC'} NULLS ${first ? 'FIRST' : 'LAST'}`;
}
