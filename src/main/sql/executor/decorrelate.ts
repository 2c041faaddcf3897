import { compositeKey, hashKey, type HashKey } from '../values/compare';
import { isNull, type Value } from '../values/value';
import { childExprs } from '../binder/conjuncts';
import type { BExpr, Binding, BoundQuery, BoundSelect, Output } from '../binder/bound';
import type { ResultTable } from './result';

/**
 * Correlated subqueries of the common shapes answered for every outer row at once. A subquery
 * correlated only by equalities `inner.col = outer value` (`WHERE p.userId = o.userId`) runs
 * once without them, its rows keyed by those inner columns:
 *
 * - EXISTS: the set of keys that have a row;
 * - IN: the first output's values per key;
 * - a scalar aggregate without GROUP BY (`SELECT AVG(p.amount) ...`): the same aggregates
 *   grouped by the key columns, one answer per key.
 *
 * An outer row then looks its values up (a join, in effect) instead of running the subquery
 * once per distinct outer value. A key with no rows (or a NULL outer value, which `=` never
 * matches) is answered the usual way, which costs a lookup in an empty index: that also gives
 * the aggregate of no rows (COUNT 0, SUM NULL, whatever expression is around it) exactly as
 * the subquery itself would. Any other shape (params read anywhere but in those equalities, a
 * join's ON, a derived table, LIMIT, HAVING, windows) runs per outer value, as before.
 */

export type Correlation = 'exists' | 'values' | 'scalar';

export interface Decorrelated {
  /** The uncorrelated query: the key columns first, then (IN, scalar) the answer. */
  query: BoundSelect;
  keyCount: number;
}

/** Row → the key the outer values of `correlated.ts` use, so both sides meet in one Map. */
export function paramsKey(values: readonly Value[]): string {
  // compositeKey folds missing into NULL; a subquery may tell them apart (IS MISSING).
  return values.map((v) => (v === undefined ? '\u0002' : compositeKey([v]))).join('');
}

/**
 * The key of an answer in `answersByKey`: one value is its own hash key (no text built per
 * key); NULL and missing fold together there, which is safe because neither ever has an answer.
 */
export function answerKey(values: readonly Value[]): HashKey {
  return values.length === 1 ? hashKey(values[0]) : paramsKey(values);
}

/** The binding a rewritten query's binding was copied from (its fetched table is that one's). */
export function originalBinding(binding: Binding): Binding {
  return binding.original ?? binding;
}

/**
 * The rewrite of `query` for its use; undefined for other shapes. Not kept here: the caller keeps
 * what it needs for the statement (execute.ts). A module-level WeakMap keyed by bound queries
 * made every statement's bound objects survive V8's young-generation collections (the scavenger
 * keeps a WeakMap's entries), which then made V8 allocate them in the old generation from the
 * start: measured in docs/PERFORMANCE.md (session 20, sqlfixed).
 */
export function decorrelated(
  query: BoundQuery,
  use: Correlation,
  paramCount: number,
): Decorrelated | undefined {
  return query.kind === 'select' ? rewriteSelect(query, use, paramCount) : undefined;
}

/**
 * Answers per key from the uncorrelated query's result: EXISTS → true, IN → the values,
 * scalar → the value (one row per key, since the keys are its GROUP BY).
 */
export function answersByKey(
  rewrite: Decorrelated,
  use: Correlation,
  result: ResultTable,
): Map<HashKey, Value | Value[] | true> {
  const answers = new Map<HashKey, Value | Value[] | true>();
  const k = rewrite.keyCount;
  const keyColumns = Array.from({ length: k }, (_, j) => result.column(j));
  const answerColumn = use === 'exists' ? [] : result.column(k);
  const keys = new Array<Value>(k);
  for (let i = 0; i < result.length; i++) {
    let isNullKey = false;
    for (let j = 0; j < k; j++) {
      keys[j] = keyColumns[j]![i];
      // `inner.col = outer value` is never true for a NULL or missing inner value.
      isNullKey ||= isNull(keys[j]);
    }
    if (isNullKey) continue;
    const key = answerKey(keys);
    if (use === 'exists') answers.set(key, true);
    else if (use === 'scalar') answers.set(key, answerColumn[i] ?? null);
    else {
      const values = answers.get(key) as Value[] | undefined;
      if (values) values.push(answerColumn[i]);
      else answers.set(key, [answerColumn[i]]);
    }
  }
  return answers;
}

function readsParams(e: BExpr): boolean {
  return e.kind === 'param' || childExprs(e).some(readsParams);
}

type Col = Extract<BExpr, { kind: 'col' }>;

/** `inner.col = param[i]` (either way round): the column and i. */
function correlation(e: BExpr): { column: Col; index: number } | undefined {
  if (e.kind !== 'binary' || e.op !== '=') return undefined;
  const [column, param] = e.left.kind === 'col' ? [e.left, e.right] : [e.right, e.left];
  if (column.kind !== 'col' || column.path.length > 0 || param.kind !== 'param') return undefined;
  return { column, index: param.index };
}

function rewriteSelect(select: BoundSelect, use: Correlation, paramCount: number): Decorrelated | undefined {
  if (
    select.windows.length > 0 ||
    select.qualify ||
    select.having ||
    select.limit !== undefined ||
    select.offset !== undefined ||
    select.aggregate?.sets
  )
    return undefined;
  const aggregated = select.aggregate !== undefined;
  // EXISTS / IN over an aggregate without GROUP BY is about its one row; not this shape.
  if (use === 'scalar' ? !aggregated || select.aggregate!.keys.length > 0 : aggregated) return undefined;
  const outputs = select.outputs;
  if (use !== 'exists' && (outputs.length !== 1 || outputs[0]!.kind !== 'expr')) return undefined;

  const keyColumns: (Col | undefined)[] = new Array<Col | undefined>(paramCount).fill(undefined);
  const take = (conditions: BExpr[]): BExpr[] | undefined => {
    const kept: BExpr[] = [];
    for (const c of conditions) {
      const found = correlation(c);
      if (found && keyColumns[found.index] === undefined) keyColumns[found.index] = found.column;
      else if (readsParams(c)) return undefined;
      else kept.push(c);
    }
    return kept;
  };
  const bindings: Binding[] = [];
  for (const binding of select.bindings) {
    if (binding.source.kind !== 'base' || binding.nullable || binding.after.some(readsParams))
      return undefined;
    const local = take(binding.local);
    if (!local) return undefined;
    bindings.push({ ...binding, local, original: originalBinding(binding) });
  }
  const where = take(select.where);
  if (!where || keyColumns.some((c) => c === undefined)) return undefined;
  const keys = keyColumns as Col[];
  const rest: BExpr[] = [
    ...joinConditions(select.from),
    ...(select.aggregate?.calls.flatMap((c) => (c.arg ? [c.arg] : [])) ?? []),
    ...outputs.flatMap((o) => (o.kind === 'expr' ? [o.expr] : [])),
  ];
  if (rest.some(readsParams)) return undefined;

  const keyOutputs: Output[] = keys.map((column, i) => ({
    kind: 'expr',
    name: `key${i}`,
    expr: aggregated ? { kind: 'slot', index: i } : column,
  }));
  const answer = outputs[0];
  const query: BoundSelect = {
    ...select,
    bindings,
    where,
    orderBy: [],
    distinct: false,
    outputs:
      use === 'exists' ? keyOutputs : [...keyOutputs, shiftOutput(answer!, aggregated ? keys.length : 0)],
    aggregate: aggregated ? { ...select.aggregate!, keys } : undefined,
  };
  return { query, keyCount: keys.length };
}

function shiftOutput(output: Output, by: number): Output {
  return output.kind === 'expr' ? { ...output, expr: shiftSlots(output.expr, by) } : output;
}

function joinConditions(tree: BoundSelect['from']): BExpr[] {
  if (!tree || tree.kind === 'binding') return [];
  return [...tree.on, ...joinConditions(tree.left), ...joinConditions(tree.right)];
}

/** The aggregate slots of an output move up by the key columns put before them. */
function shiftSlots(e: BExpr, by: number): BExpr {
  const shift = (x: BExpr): BExpr => shiftSlots(x, by);
  switch (e.kind) {
    case 'slot':
      return { kind: 'slot', index: e.index + by };
    case 'lit':
    case 'col':
    case 'param':
    case 'win':
    case 'grouping':
      return e;
    case 'exists':
    case 'scalar':
      return { ...e, params: e.params.map(shift) };
    case 'inQuery':
      return { ...e, operand: shift(e.operand), params: e.params.map(shift) };
    case 'call':
      return { ...e, args: e.args.map(shift) };
    case 'unary':
    case 'isNull':
    case 'isMissing':
    case 'cast':
      return { ...e, operand: shift(e.operand) };
    case 'binary':
      return { ...e, left: shift(e.left), right: shift(e.right) };
    case 'between':
      return { ...e, operand: shift(e.operand), low: shift(e.low), high: shift(e.high) };
    case 'inList':
      return { ...e, operand: shift(e.operand), items: e.items.map(shift) };
    case 'like':
      return {
        ...e,
        operand: shift(e.operand),
        pattern: shift(e.pattern),
        escape: e.escape && shift(e.escape),
      };
    case 'case':
      return {
        ...e,
        operand: e.operand && shift(e.operand),
        whens: e.whens.map((w) => ({ when: shift(w.when), then: shift(w.then) })),
        otherwise: e.otherwise && shift(e.otherwise),
      };
  }
}
