import type { Expr, Query } from '../../sql/parser/ast';
import {
  asText,
  asType,
  asValue,
  digitsOf,
  soleType,
  type Typed,
  val,
  type ValueType,
  hasType,
} from './typed';
import { arithmetic, compareNumberValues, division, numberLiteral } from './numbers';
import { refuse, resolveRef, type Scope } from './scope';
import { lit } from '../glue-names';
import { translateCall } from './calls';

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
      for (const item of e.items) {
        const t = translateExpr(item, env);
        const type = soleType(t);
        if (!type) return refuse(written(env, item), 'an IN list item must have one type in Athena');
        if (type === 'N' && hasType(operand.kind === 'attr' ? operand.node : undefined, 'N'))
          numbers.push(compareNumberValues('=', operand, t, written(env, e)));
        else byType.set(type, [...(byType.get(type) ?? []), asType(t, type)]);
      }
      const tests = [...byType].map(([type, items]) => `${asType(operand, type)} IN (${items.join(', ')})`);
      tests.push(...numbers);
      const any = tests.length === 1 ? tests[0]! : `(${tests.join(' OR ')})`;
      return val(e.negated ? `(NOT ${any})` : `(${any})`, 'BOOL');
    }
    case 'inQuery': {
      const operand = translateExpr(e.operand, env);
      const sub = env.subquery(e.query, env.scope);
      const type = sub.columns[0] ? soleType(sub.columns[0]) : undefined;
      if (!type) return refuse(written(env, e), 'the subquery of IN must return one column of one type');
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
  if (op === '/') {
    const divided = division(left, right, what);
    if (divided) return divided;
  }
  if (!COMPARISONS.has(op)) {
    // DynoTable divides by zero to NULL; Athena would fail the query.
    // Athena divides integers as integers (5 / 2 = 2); DynoTable's numbers are exact decimals.
    const [l, r] = [asType(left, 'N'), asType(right, 'N')].map((x) =>
      op === '/' && /^-?\d+$/.test(x) ? `CAST(${x} AS DECIMAL(38, 9))` : x,
    );
    const rhs = op === '/' || op === '%' ? `NULLIF(${r}, 0)` : r;
    return val(`(${l} ${op} ${rhs})`, 'N');
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
