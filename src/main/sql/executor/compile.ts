import { add, divide, modulo, multiply, negate, subtract } from '../values/arith';
import { hashKey, sqlCompare, sqlEquals } from '../values/compare';
import { isNum, type Num } from '../values/decimal';
import { isNull, type Value } from '../values/value';
import type { BExpr, BoundQuery } from '../binder/bound';
import { castValue } from './cast';
import { type ColumnCodes, columnCodes } from './column-codes';
import { paramsKey } from './decorrelate';
import type { Frame } from './frame';
import { type FunctionEnv, functionImpl, toText } from './functions';
import { likeMatcher } from './like';
import { walkPath } from './walk-path';
import type { ColumnarTable } from './table';

export type Evaluator = (r: number) => Value;
/** Two stages: bind to a frame's arrays once, then evaluate per row with no lookups. */
export type Compiled = (frame: Frame) => Evaluator;

/**
 * Runs subqueries. `params` are the outer row's values a correlated subquery reads (empty for an
 * uncorrelated one, whose result is computed once per statement).
 */
export interface SubqueryValues {
  /** First-column values. */
  values: (query: BoundQuery, params: readonly Value[]) => readonly Value[];
  /** Row count check and value of a scalar subquery; throws with the position when >1 row. */
  scalar: (query: BoundQuery, span: { start: number; end: number }, params: readonly Value[]) => Value;
  exists: (query: BoundQuery, params: readonly Value[]) => boolean;
}

export interface CompileEnv {
  tables: readonly ColumnarTable[];
  /** Columns of the aggregated rows, read by `slot` expressions. */
  slots?: readonly (readonly Value[])[];
  /** With ROLLUP / CUBE / GROUPING SETS: the GROUP BY positions each aggregated row keeps. */
  groupKeys?: readonly (ReadonlySet<number> | undefined)[];
  /** Window function values by frame row, read by `win` expressions. */
  windows?: readonly (readonly Value[])[];
  fn: FunctionEnv;
  subqueries: SubqueryValues;
  /** The enclosing query's values when this query is a correlated subquery (read by `param`). */
  params: readonly Value[];
}

const arithmetic: Record<string, (a: Num, b: Num) => Num | undefined> = {
  '+': add,
  '-': subtract,
  '*': multiply,
  '/': divide,
  '%': modulo,
};

export function compile(e: BExpr, env: CompileEnv): Compiled {
  switch (e.kind) {
    case 'lit': {
      const value = e.value;
      return () => () => value;
    }
    case 'col': {
      const table = env.tables[e.binding]!;
      // Coded and numeric columns are read in place: the statement decodes no copy of them.
      const read = table.reader(e.attr);
      const { binding, path } = e;
      if (!read) return () => () => undefined;
      if (path.length === 0) {
        return (frame) => {
          const idx = frame.idx[binding]!;
          return (r) => {
            const i = idx[r]!;
            return i < 0 ? undefined : read(i);
          };
        };
      }
      return (frame) => {
        const idx = frame.idx[binding]!;
        return (r) => {
          const i = idx[r]!;
          return i < 0 ? undefined : walkPath(read(i), path);
        };
      };
    }
    case 'param': {
      const value = env.params[e.index];
      return () => () => value;
    }
    case 'slot': {
      const column = env.slots![e.index]!;
      return (frame) => {
        const groups = frame.idx[0]!;
        return (r) => column[groups[r]!];
      };
    }
    case 'unary': {
      const operand = compile(e.operand, env);
      if (e.op === 'NOT')
        return (f) =>
          lift1(operand(f), (v) => {
            const t = truth(v);
            return t === null ? null : !t;
          });
      if (e.op === '-') return (f) => lift1(operand(f), (v) => (isNum(v) ? negate(v) : null));
      return (f) => lift1(operand(f), (v) => (isNum(v) ? v : null));
    }
    case 'binary':
      return compileBinary(e, env);
    case 'isNull': {
      const operand = compile(e.operand, env);
      const negated = e.negated;
      return (f) => {
        const o = operand(f);
        return (r) => isNull(o(r)) !== negated;
      };
    }
    case 'isMissing': {
      const operand = compile(e.operand, env);
      const negated = e.negated;
      return (f) => {
        const o = operand(f);
        return (r) => (o(r) === undefined) !== negated;
      };
    }
    case 'win': {
      const column = env.windows![e.index]!;
      return () => (r) => column[r];
    }
    case 'grouping': {
      const { keys } = e;
      const groupKeys = env.groupKeys;
      return (frame) => {
        const groups = frame.idx[0]!;
        return (r) => {
          const kept = groupKeys?.[groups[r]!];
          let bits = 0;
          for (const key of keys) bits = bits * 2 + (kept && !kept.has(key) ? 1 : 0);
          return bits;
        };
      };
    }
    case 'between': {
      const [operand, low, high] = [compile(e.operand, env), compile(e.low, env), compile(e.high, env)];
      const negated = e.negated;
      return (f) => {
        const [o, l, h] = [operand(f), low(f), high(f)];
        return (r) => {
          const v = o(r);
          const a = sqlCompare(l(r), v);
          const b = sqlCompare(v, h(r));
          if (a !== null && a > 0) return negated;
          if (b !== null && b > 0) return negated;
          if (a === null || b === null) return null;
          return !negated;
        };
      };
    }
    case 'inList': {
      const operand = compile(e.operand, env);
      if (e.items.every((item) => item.kind === 'lit')) {
        const values = e.items.map((item) => (item as { value: Value }).value);
        return compileMembership(operand, () => values, e.negated);
      }
      const items = e.items.map((item) => compile(item, env));
      const negated = e.negated;
      return (f) => {
        const o = operand(f);
        const evaluators = items.map((item) => item(f));
        return (r) =>
          membership(
            o(r),
            evaluators.map((ev) => ev(r)),
            negated,
          );
      };
    }
    case 'inQuery': {
      const operand = compile(e.operand, env);
      if (e.params.length === 0)
        return compileMembership(operand, () => env.subqueries.values(e.query, []), e.negated);
      const { query, negated } = e;
      const perRow = correlated(e.params, env, (params) =>
        memberTest(env.subqueries.values(query, params), negated),
      );
      return (f) => {
        const o = operand(f);
        const test = perRow(f);
        return (r) => test(r)(o(r));
      };
    }
    case 'like':
      return compileLike(e, env);
    case 'exists': {
      const { query, negated } = e;
      if (e.params.length === 0)
        return () => {
          const found = env.subqueries.exists(query, []) !== negated;
          return () => found;
        };
      const perRow = correlated(e.params, env, (params) => env.subqueries.exists(query, params) !== negated);
      return (f) => {
        const found = perRow(f);
        return (r) => found(r);
      };
    }
    case 'scalar': {
      const { query, span } = e;
      if (e.params.length === 0)
        return () => {
          const value = env.subqueries.scalar(query, span, []);
          return () => value;
        };
      const perRow = correlated(e.params, env, (params) => env.subqueries.scalar(query, span, params));
      return (f) => {
        const value = perRow(f);
        return (r) => value(r);
      };
    }
    case 'case':
      return compileCase(e, env);
    case 'cast': {
      const operand = compile(e.operand, env);
      const type = e.type;
      return (f) => lift1(operand(f), (v) => castValue(v, type));
    }
    case 'call': {
      if (e.name === 'BEGINS_WITH' || e.name === 'STARTS_WITH') return compileBeginsWith(e.args, env);
      const impl = functionImpl(e.name);
      const args = e.args.map((arg) => compile(arg, env));
      const fnEnv = env.fn;
      return (f) => {
        const evaluators = args.map((arg) => arg(f));
        // One argument array per call site, refilled per row: no garbage per row (at a
        // million rows, per-row arrays cost more in young-generation GC than the work itself).
        const values: Value[] = new Array<Value>(evaluators.length);
        return (r) => {
          for (let k = 0; k < evaluators.length; k++) values[k] = evaluators[k]!(r);
          return impl(values, fnEnv);
        };
      };
    }
  }
}

/** begins_with(x, 'USER#') is every entity view's condition; keep it a direct string test. */
function compileBeginsWith(argExprs: BExpr[], env: CompileEnv): Compiled {
  const [subject, prefix] = argExprs.map((arg) => compile(arg, env));
  return (f) => {
    const s = subject!(f);
    const p = prefix!(f);
    return (r) => {
      const v = s(r);
      const q = p(r);
      if (typeof v === 'string' && typeof q === 'string') return v.startsWith(q);
      return isNull(v) || isNull(q) ? null : false;
    };
  };
}

function lift1(ev: Evaluator, fn: (v: Value) => Value): Evaluator {
  return (r) => fn(ev(r));
}

function compileBinary(e: Extract<BExpr, { kind: 'binary' }>, env: CompileEnv): Compiled {
  const left = compile(e.left, env);
  const right = compile(e.right, env);
  switch (e.op) {
    case 'AND':
      return (f) => {
        const [a, b] = [left(f), right(f)];
        return (r) => {
          const x = truth(a(r));
          if (x === false) return false;
          const y = truth(b(r));
          if (y === false) return false;
          return x === null || y === null ? null : true;
        };
      };
    case 'OR':
      return (f) => {
        const [a, b] = [left(f), right(f)];
        return (r) => {
          const x = truth(a(r));
          if (x === true) return true;
          const y = truth(b(r));
          if (y === true) return true;
          return x === null || y === null ? null : false;
        };
      };
    case '=':
      return (f) => {
        const [a, b] = [left(f), right(f)];
        return (r) => {
          const x = a(r);
          const y = b(r);
          if (typeof x === 'string' && typeof y === 'string') return x === y;
          return sqlEquals(x, y);
        };
      };
    case '<>':
      return (f) => {
        const [a, b] = [left(f), right(f)];
        return (r) => {
          const eq = sqlEquals(a(r), b(r));
          return eq === null ? null : !eq;
        };
      };
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const test = {
        '<': (c: number) => c < 0,
        '<=': (c: number) => c <= 0,
        '>': (c: number) => c > 0,
        '>=': (c: number) => c >= 0,
      }[e.op];
      return (f) => {
        const [a, b] = [left(f), right(f)];
        return (r) => {
          const c = sqlCompare(a(r), b(r));
          return c === null ? null : test(c);
        };
      };
    }
    case '||':
      return (f) => {
        const [a, b] = [left(f), right(f)];
        return (r) => {
          const x = toText(a(r));
          const y = toText(b(r));
          return x === null || y === null ? null : x + y;
        };
      };
    default: {
      const op = arithmetic[e.op]!;
      return (f) => {
        const [a, b] = [left(f), right(f)];
        return (r) => {
          const x = a(r);
          const y = b(r);
          if (!isNum(x) || !isNum(y)) return null;
          return op(x, y) ?? null;
        };
      };
    }
  }
}

function compileLike(e: Extract<BExpr, { kind: 'like' }>, env: CompileEnv): Compiled {
  const operand = compile(e.operand, env);
  const pattern = compile(e.pattern, env);
  const escape = e.escape ? compile(e.escape, env) : undefined;
  const { negated, caseInsensitive } = e;
  return (f) => {
    const [o, p, x] = [operand(f), pattern(f), escape?.(f)];
    let lastPattern: Value;
    let lastEscape: Value;
    let matcher: ((s: string) => boolean) | undefined;
    return (r) => {
      const v = o(r);
      const pat = p(r);
      const esc = x ? x(r) : '\\';
      if (isNull(v) || isNull(pat)) return null;
      if (typeof v !== 'string' || typeof pat !== 'string' || typeof esc !== 'string') return null;
      if (!matcher || pat !== lastPattern || esc !== lastEscape) {
        matcher = likeMatcher(pat, esc, caseInsensitive);
        lastPattern = pat;
        lastEscape = esc;
      }
      return matcher(v) !== negated;
    };
  };
}

function compileCase(e: Extract<BExpr, { kind: 'case' }>, env: CompileEnv): Compiled {
  const operand = e.operand ? compile(e.operand, env) : undefined;
  const whens = e.whens.map((w) => ({ when: compile(w.when, env), then: compile(w.then, env) }));
  const otherwise = e.otherwise ? compile(e.otherwise, env) : undefined;
  return (f) => {
    const o = operand?.(f);
    const branches = whens.map((w) => ({ when: w.when(f), then: w.then(f) }));
    const other = otherwise?.(f);
    return (r) => {
      const subject = o?.(r);
      for (const branch of branches) {
        const hit = o ? sqlEquals(subject, branch.when(r)) : truth(branch.when(r));
        if (hit === true) return branch.then(r);
      }
      return other ? other(r) : null;
    };
  };
}

/** SQL's three-valued logic: TRUE, FALSE and NULL (unknown), for conditions and IN lists. */
export function truth(v: Value): boolean | null {
  return v === true ? true : v === false ? false : null;
}

export function membership(v: Value, items: readonly Value[], negated: boolean): boolean | null {
  if (isNull(v)) return null;
  let sawNull = false;
  for (const item of items) {
    const eq = sqlEquals(v, item);
    if (eq === true) return !negated;
    if (eq === null) sawNull = true;
  }
  return sawNull ? null : negated;
}

/** Membership in a fixed list: one hash lookup per value. NULL in the list makes misses NULL. */
export function memberTest(values: readonly Value[], negated: boolean): (v: Value) => boolean | null {
  // Membership in nothing is false whatever x is, NULL included (SQL tests emptiness first).
  if (values.length === 0) return () => negated;
  const hasNull = values.some(isNull);
  const keys = new Set(values.filter((v) => !isNull(v)).map(hashKey));
  return (v) => {
    if (isNull(v)) return null;
    if (keys.has(hashKey(v))) return !negated;
    return hasNull ? null : negated;
  };
}

/** x IN (...) with a list known once per statement: the set is built on first use. */
export function compileMembership(
  operand: Compiled,
  list: () => readonly Value[],
  negated: boolean,
): Compiled {
  let test: ((v: Value) => boolean | null) | undefined;
  return (f) => {
    test ??= memberTest(list(), negated);
    const member = test;
    const o = operand(f);
    return (r) => member(o(r));
  };
}

/**
 * A correlated subquery's answer for each row: computed from the row's outer values, once per
 * distinct tuple of them (rows of one customer share one run of `EXISTS (... c.customerId)`).
 * One outer value that is a plain column of strings is read as its column's codes
 * (column-codes.ts): the answer for a code is kept in an array, so a row costs two array reads
 * instead of decoding its value and a Map lookup of it.
 */
export function correlated<T>(
  paramExprs: readonly BExpr[],
  env: CompileEnv,
  answer: (params: readonly Value[]) => T,
): (frame: Frame) => (r: number) => T {
  const params = paramExprs.map((p) => compile(p, env));
  const answers = new Map<string, T>();
  const isSingle = params.length === 1;
  // One outer value that is a string, number, boolean, NULL or missing is its own key: no key
  // text built per row (Map keys tell "5" from 5 and NULL from missing, as paramsKey does).
  const byValue = new Map<Value, T>();
  const answerFor = (v: Value): T => {
    let result = byValue.get(v);
    if (result === undefined && !byValue.has(v)) {
      result = answer([v]);
      byValue.set(v, result);
    }
    return result as T;
  };
  const coded = isSingle ? codedParam(paramExprs[0]!, env) : undefined;
  return (f) => {
    const evaluators = params.map((p) => p(f));
    const only = isSingle ? evaluators[0] : undefined;
    const general = (r: number): T => {
      if (only) {
        const v = only(r);
        if (v === null || typeof v !== 'object') return answerFor(v);
      }
      const values = evaluators.map((ev) => ev(r));
      const key = paramsKey(values);
      let result = answers.get(key);
      if (result === undefined && !answers.has(key)) {
        result = answer(values);
        answers.set(key, result);
      }
      return result as T;
    };
    const idx = coded && f.idx[coded.binding];
    const codes = coded?.codes(f.length);
    if (!idx || idx.length < f.length || !codes) return general;
    const byCode = new Array<T>(codes.size);
    const known = new Uint8Array(codes.size);
    const codeOf = codes.codes;
    return (r) => {
      const i = idx[r]!;
      // Code 0 is NULL or missing, which a subquery may tell apart (IS MISSING): by value.
      const code = i < 0 ? 0 : codeOf[i]!;
      if (code === 0) return general(r);
      if (known[code] === 0) {
        byCode[code] = general(r);
        known[code] = 1;
      }
      return byCode[code]!;
    };
  };
}

/** A bare column whose codes stand for identical strings (equal codes, equal answers). */
function codedParam(
  e: BExpr,
  env: CompileEnv,
): { binding: number; codes: (rowsInFlight: number) => ColumnCodes | undefined } | undefined {
  if (e.kind !== 'col' || e.path.length > 0) return undefined;
  const table = env.tables[e.binding];
  if (!table) return undefined;
  const { attr } = e;
  let codes: ColumnCodes | null | undefined;
  return {
    binding: e.binding,
    codes: (rowsInFlight) => {
      if (codes === undefined) {
        const found = columnCodes(table, attr, rowsInFlight);
        codes = found?.onlyStrings ? found : null;
      }
      return codes ?? undefined;
    },
  };
}
