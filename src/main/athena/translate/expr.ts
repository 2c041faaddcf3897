import type { Expr, FrameBound, Query, WindowSpec } from '../../sql/parser/ast';
import {
  asText,
  asType,
  asValue,
  carriesText,
  digitsOf,
  member,
  numberText,
  soleType,
  sortKeys,
  textRefusal,
  textValue,
  type Typed,
  val,
  type ValueType,
  hasType,
} from './typed';
import { canonicalLiteral } from './number-text';
import {
  arithmetic,
  averageDigits,
  compareNumberValues,
  division,
  numberLiteral,
  sumDigits,
} from './numbers';
import { refuse, resolveRef, type Scope } from './scope';
import { lit } from '../glue-names';

export interface ExprEnv {
  scope: Scope;
  notes: string[];
  /** The statement text, to name a construct as the user wrote it. */
  text: string;
  /** SELECT aliases usable by name here (GROUP BY, HAVING, QUALIFY, ORDER BY), as DynoTable binds them. */
  aliases?: Map<string, Expr>;
  subquery: (query: Query, scope: Scope) => { sql: string; columns: Typed[] };
}

export const written = (env: ExprEnv, e: Expr): string =>
  env.text.slice(e.span.start, e.span.end).replace(/\s+/g, ' ');

type Scalar = 'N' | 'S' | 'BOOL' | 'B';

export function translateExpr(e: Expr, env: ExprEnv): Typed {
  switch (e.kind) {
    case 'literal': {
      const v = e.value;
      if (v.type === 'number') return numberLiteral(v.text);
      if (v.type === 'string') return val(lit(v.value), 'S');
      if (v.type === 'boolean') return val(v.value ? 'TRUE' : 'FALSE', 'BOOL');
      return val('NULL', 'ANY');
    }
    case 'ref': {
      const only = e.parts.length === 1 ? e.parts[0] : undefined;
      const alias = only?.kind === 'name' ? env.aliases?.get(only.name) : undefined;
      if (alias) return translateExpr(alias, { ...env, aliases: undefined });
      const t = resolveRef(env.scope, e.parts);
      if (t.kind === 'attr' && !t.node)
        env.notes.push(
          t.complete
            ? `No item has ${t.label}: it reads as missing on Athena, as it does locally.`
            : `None of the items DynoTable has read holds ${t.label}; before the query starts, the export's own files say whether any item does.`,
        );
      return t;
    }
    case 'unary': {
      const operand = translateExpr(e.operand, env);
      if (e.op === 'NOT') return val(`(NOT ${asType(operand, 'BOOL')})`, 'BOOL');
      return val(`(${e.op}${asType(operand, 'N')})`, 'N', digitsOf(operand));
    }
    case 'binary':
      return binary(e.op, translateExpr(e.left, env), translateExpr(e.right, env), written(env, e));
    case 'isNull': {
      const t = translateExpr(e.operand, env);
      const test =
        t.kind === 'attr'
          ? t.node
            ? hasType(t.node, 'NULL') && !t.ion
              ? // A struct holding a string has a NULL "null" member: TRUE OR NULL would be NULL, not FALSE.
                `(${t.sql} IS NULL OR COALESCE(${t.sql}."null", FALSE))`
              : `(${t.sql} IS NULL)`
            : 'TRUE'
          : `(${t.sql} IS NULL)`;
      return val(e.negated ? `(NOT ${test})` : test, 'BOOL');
    }
    case 'isMissing': {
      const t = translateExpr(e.operand, env);
      if (t.kind !== 'attr')
        refuse(
          `IS MISSING of ${written(env, e.operand)}`,
          'IS MISSING needs an attribute of a table; a computed value has no "missing" in Athena, only NULL',
        );
      if (t.ion && hasType(t.node, 'NULL'))
        refuse(
          `IS MISSING of ${written(env, e.operand)}`,
          `an Ion export's NULL is a null value, which Athena reads as it reads a missing ${t.label}; an export in DynamoDB JSON tells them apart`,
        );
      const test = t.node ? `(${t.sql} IS NULL)` : 'TRUE';
      return val(e.negated ? `(NOT ${test})` : test, 'BOOL');
    }
    case 'between': {
      const low = translateExpr(e.low, env);
      const high = translateExpr(e.high, env);
      const type = soleType(low) ?? soleType(high);
      const operand = translateExpr(e.operand, env);
      if (!type || (soleType(high) && soleType(high) !== type)) return val('FALSE', 'BOOL');
      if (type === 'N') {
        // Each bound fitted to the operand's DECIMAL, as a comparison fits its literal.
        const what = written(env, e);
        const both = `(${compareNumberValues('>=', operand, low, what)} AND ${compareNumberValues('<=', operand, high, what)})`;
        return val(e.negated ? `(NOT ${both})` : both, 'BOOL');
      }
      return val(
        `(${asType(operand, type)} ${e.negated ? 'NOT ' : ''}BETWEEN ${asType(low, type)} AND ${asType(high, type)})`,
        'BOOL',
      );
    }
    case 'inList': {
      const operand = translateExpr(e.operand, env);
      const byType = new Map<Scalar, string[]>();
      const numbers: string[] = [];
      // A number carried as text is compared by its canonical text: one IN over every literal.
      const texts: string[] = [];
      for (const item of e.items) {
        const t = translateExpr(item, env);
        const type = soleType(t);
        if (!type) return refuse(written(env, item), 'an IN list item must have one type in Athena');
        if (type === 'N' && carriesText(operand) && t.kind === 'val' && t.literal !== undefined)
          texts.push(canonicalLiteral(t.literal));
        else if (
          type === 'N' &&
          (carriesText(operand) || hasType(operand.kind === 'attr' ? operand.node : undefined, 'N'))
        )
          numbers.push(compareNumberValues('=', operand, t, written(env, e)));
        else byType.set(type, [...(byType.get(type) ?? []), asType(t, type)]);
      }
      const tests = [...byType].map(([type, items]) => `${asType(operand, type)} IN (${items.join(', ')})`);
      if (texts.length > 0) tests.push(`${numberText(operand).canonical} IN (${texts.join(', ')})`);
      tests.push(...numbers);
      const any = tests.length === 1 ? tests[0]! : `(${tests.join(' OR ')})`;
      return val(e.negated ? `(NOT ${any})` : `(${any})`, 'BOOL');
    }
    case 'inQuery': {
      const operand = translateExpr(e.operand, env);
      const sub = env.subquery(e.query, env.scope);
      const column = sub.columns[0];
      const type = column ? soleType(column) : undefined;
      if (!type) return refuse(written(env, e), 'the subquery of IN must return one column of one type');
      if (type === 'N' && (carriesText(operand) || carriesText(column!))) {
        // Both sides as canonical text: the subquery's column must be text already.
        if (!carriesText(column!))
          refuse(
            written(env, e),
            'one side is a number no DECIMAL holds, carried as text on Athena, and the subquery returns a DECIMAL',
          );
        const test = `${numberText(operand).canonical} ${e.negated ? 'NOT IN' : 'IN'} (${sub.sql})`;
        return val(`(${test})`, 'BOOL');
      }
      return val(`(${asType(operand, type)} ${e.negated ? 'NOT IN' : 'IN'} (${sub.sql}))`, 'BOOL');
    }
    case 'like': {
      const operand = asType(translateExpr(e.operand, env), 'S');
      const pattern = asType(translateExpr(e.pattern, env), 'S');
      const escape = e.escape ? asType(translateExpr(e.escape, env), 'S') : lit('\\');
      const [l, r] = e.caseInsensitive ? [`lower(${operand})`, `lower(${pattern})`] : [operand, pattern];
      return val(`(${l} ${e.negated ? 'NOT LIKE' : 'LIKE'} ${r} ESCAPE ${escape})`, 'BOOL');
    }
    case 'exists':
      return val(`(${e.negated ? 'NOT ' : ''}EXISTS (${env.subquery(e.query, env.scope).sql}))`, 'BOOL');
    case 'subquery': {
      const sub = env.subquery(e.query, env.scope);
      const column = sub.columns[0];
      if (column && carriesText(column))
        refuse(written(env, e), 'it returns a number no DECIMAL holds, which Athena carries as text');
      const type: ValueType = column ? (soleType(column) ?? 'ANY') : 'ANY';
      return val(`(${sub.sql})`, type);
    }
    case 'case': {
      const branches = [...e.whens.map((w) => w.then), ...(e.otherwise ? [e.otherwise] : [])].map((b) =>
        asValue(translateExpr(b, env), env.notes),
      );
      const types = new Set(
        branches.map((b) => (b.kind === 'val' ? b.type : 'ANY')).filter((t) => t !== 'ANY'),
      );
      if (types.size > 1)
        refuse(written(env, e), `its branches give values of different types (${[...types].join(', ')})`);
      if (branches.some(carriesText))
        refuse(written(env, e), 'a branch gives a number no DECIMAL holds, which Athena carries as text');
      const type: ValueType = [...types][0] ?? 'ANY';
      const operand = e.operand ? translateExpr(e.operand, env) : undefined;
      const whens = e.whens.map((w, i) => {
        const when = translateExpr(w.when, env);
        const test = operand ? binary('=', operand, when).sql : asType(when, 'BOOL');
        return `WHEN ${test} THEN ${branches[i]!.sql}`;
      });
      const otherwise = e.otherwise ? ` ELSE ${branches[branches.length - 1]!.sql}` : '';
      return val(`(CASE ${whens.join(' ')}${otherwise} END)`, type);
    }
    case 'cast':
      return cast(translateExpr(e.operand, env), e.type);
    case 'call':
      return translateCall(e, env);
    case 'grouping':
      return val(
        `GROUPING(${e.args.map((a) => asValue(translateExpr(a, env), env.notes).sql).join(', ')})`,
        'N',
      );
  }
}

const COMPARISONS = new Set(['=', '<>', '<', '<=', '>', '>=']);

export function binary(op: string, left: Typed, right: Typed, what = `the operator ${op}`): Typed {
  if (op === 'AND' || op === 'OR')
    return val(`(${asType(left, 'BOOL')} ${op} ${asType(right, 'BOOL')})`, 'BOOL');
  if (op === '||') return val(`(${asText(left)} || ${asText(right)})`, 'S');
  if (op === '+' || op === '-' || op === '*') return arithmetic(op, left, right, what);
  if (op === '/') return division(left, right, what);
  if (!COMPARISONS.has(op)) {
    // DynoTable takes a remainder by zero as NULL; Athena would fail the query.
    const [l, r] = [asType(left, 'N'), asType(right, 'N')];
    return val(`(${l} ${op} ${op === '%' ? `NULLIF(${r}, 0)` : r})`, 'N');
  }
  const types = comparedTypes(left, right);
  if (types.length === 0)
    return val(op === '<>' ? 'TRUE' : op === '=' ? 'FALSE' : 'CAST(NULL AS BOOLEAN)', 'BOOL');
  const tests = types.map((type) =>
    type === 'N'
      ? compareNumberValues(op, left, right, what)
      : `(${asType(left, type)} ${op} ${asType(right, type)})`,
  );
  return val(tests.length === 1 ? tests[0]! : `(${tests.join(' OR ')})`, 'BOOL');
}

/** The member types two values can be compared in: DynamoDB never compares across types. */
function comparedTypes(left: Typed, right: Typed): Scalar[] {
  const of = (t: Typed): Scalar[] | 'any' => {
    if (t.kind === 'val') return t.type === 'ANY' ? 'any' : t.type === 'JSON' ? [] : [t.type];
    return (['N', 'S', 'BOOL', 'B'] as Scalar[]).filter((s) => t.node?.types.has(s));
  };
  const l = of(left);
  const r = of(right);
  if (l === 'any' && r === 'any') return ['S'];
  if (l === 'any') return r as Scalar[];
  if (r === 'any') return l;
  return l.filter((t) => r.includes(t));
}

function cast(t: Typed, type: string): Typed {
  switch (type) {
    case 'NUMBER':
    case 'INTEGER': {
      const n =
        t.kind === 'attr' || t.type !== 'N'
          ? `COALESCE(${asType(t, 'N')}, TRY_CAST(${asType(t, 'S')} AS DECIMAL(38, 9)), CAST(CASE WHEN ${asType(t, 'BOOL')} THEN 1 WHEN NOT ${asType(t, 'BOOL')} THEN 0 END AS DECIMAL(38, 9)))`
          : t.sql;
      return val(type === 'INTEGER' ? `CAST(ROUND(${n}) AS DECIMAL(38, 0))` : n, 'N');
    }
    case 'STRING':
      return val(asText(t), 'S');
    case 'BOOLEAN':
      return val(
        `COALESCE(${asType(t, 'BOOL')}, TRY_CAST(${asType(t, 'S')} AS BOOLEAN), ${asType(t, 'N')} <> 0)`,
        'BOOL',
      );
    default:
      return translateDateCast(t, type);
  }
}

function translateDateCast(t: Typed, type: string): Typed {
  const ts = timestampOf(t);
  return type === 'DATE' ? val(`CAST(CAST(${ts} AS DATE) AS VARCHAR)`, 'S') : val(`to_iso8601(${ts})`, 'S');
}

/**
 * A point in time from how items store it: ISO-8601 text (an offset-less one read as UTC, which
 * is Athena's session zone) or epoch milliseconds. Text that is no date is NULL, as locally.
 */
export function timestampOf(t: Typed): string {
  const parts: string[] = [];
  const s = asType(t, 'S');
  const n = asType(t, 'N');
  if (!s.startsWith('CAST(NULL')) parts.push(`try(from_iso8601_timestamp(${s}))`);
  if (!n.startsWith('CAST(NULL')) parts.push(`from_unixtime(CAST(${n} AS DOUBLE) / 1000)`);
  if (parts.length === 0) return 'CAST(NULL AS TIMESTAMP(3) WITH TIME ZONE)';
  return parts.length === 1 ? parts[0]! : `COALESCE(${parts.join(', ')})`;
}

// Function calls, aggregates and windows. They translate their arguments with translateExpr,
// which translates calls with them: one recursion, so one file (apart, the two files imported
// each other).

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
  if ((name === 'MIN' || name === 'MAX') && carriesText(arg)) return textExtreme(name, arg, env);
  const digits = digitsOf(arg);
  if (name === 'SUM') {
    const count = arg.kind === 'attr' ? (arg.node?.numbers?.count ?? MANY_ROWS) : MANY_ROWS;
    const sum = digits && sumDigits(digits, count, written(env, e));
    return val(`sum(${distinct}${asType(arg, 'N')})`, 'N', sum);
  }
  if (name === 'AVG') {
    if (!digits) return val(`avg(${distinct}${asType(arg, 'N')})`, 'N');
    // Trino's AVG keeps its argument's scale: exact only where every average has the same whole digits.
    const range = arg.kind === 'attr' ? arg.node?.numbers : undefined;
    const average = averageDigits(range, written(env, e));
    return val(`avg(${distinct}CAST(${asType(arg, 'N')} AS DECIMAL(38, ${average.fraction})))`, 'N', average);
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

/**
 * MIN/MAX of a number carried as text: the text of the row with the least or greatest sort key
 * (`min_by`/`max_by`), so the answer is the number itself, exactly. DISTINCT changes neither.
 */
function textExtreme(name: 'MIN' | 'MAX', arg: Typed, env: ExprEnv): Typed {
  if (arg.kind === 'attr' && soleType(arg) !== 'N')
    env.notes.push(
      `${name}(${arg.label}) reads only its numbers, as DynoTable prefers them; other types are skipped.`,
    );
  const { canonical, key } = numberText(arg);
  const f = name === 'MIN' ? 'min' : 'max';
  return textValue(`${f}_by(${canonical}, ${key})`, `${f}(${key})`, textRefusal(arg));
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
        .map((o) => {
          const t = translateExpr(o.expr, env);
          // A number carried as text orders by its sort key, never by its text.
          const keys = carriesText(t) ? sortKeys(t, env.notes) : [asValue(t, env.notes).sql];
          return keys.map((k) => `${k}${orderSuffix(o.descending, o.nullsFirst)}`).join(', ');
        })
        .join(', ')}`,
    );
  if (over.frame)
    parts.push(
      `${over.frame.unit} BETWEEN ${bound(over.frame.start, env)} AND ${bound(over.frame.end, env)}`,
    );
  const window = ` OVER (${parts.join(' ')})`;
  if (inner.kind === 'val' && inner.text)
    return textValue(`${inner.sql}${window}`, `${inner.text.key}${window}`, inner.text);
  return val(`${inner.sql}${window}`, inner.kind === 'val' ? inner.type : 'ANY');
}

function windowFunction(e: Call, name: string, env: ExprEnv): Typed {
  const args = e.args.map((a) => asValue(translateExpr(a, env), env.notes));
  const first = args[0];
  if (first && carriesText(first))
    refuse(written(env, e), 'it reads a number no DECIMAL holds, which Athena carries as text');
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
