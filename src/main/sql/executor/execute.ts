import { AppFailure } from '../../../shared/errors';
import { SqlError, SqlErrorCodes } from '../parser/sql-error';
import { hashKey, type HashKey } from '../values/compare';
import { isNull, type Value } from '../values/value';
import { aggregate } from './operators/aggregate';
import { AggregateScan } from './operators/aggregate-scan';
import type { BExpr, Binding, BoundQuery, BoundSelect, JoinTree, Output } from '../binder/bound';
import { compile, type CompileEnv, type SubqueryValues } from './compile';
import { and } from '../binder/conjuncts';
import { emptyIdx, filterFrame, type Frame, identityRows } from './frame';
import type { FunctionEnv } from './functions';
import { filterByCodes, prefixCondition, scanFilter } from './operators/filter-codes';
import { filterByAverages, type InnerRows } from './operators/correlated-average';
import { joinStream } from './operators/join-stream';
import { allRowsStream, type FrameStream, streamOf } from './frame-stream';
import { FrameResult, GroupResult, type PlainOutput, type ResultTable, toColumnarTable } from './result';
import { rowSourceOf } from './row-source';
import { executeSetOperation } from './operators/set-operation';
import { distinctRows, limitRows, sortRows } from './operators/sort';
import { ColumnarTable } from './table';
import { evaluateWindow, qualifyingRows, rowsKept } from './operators/window';
import { topPerPartition } from './operators/window-top';
import { aggregateOverTop } from './operators/window-top-aggregate';
import { answerKey, answersByKey, type Correlation, originalBinding } from './decorrelate';
import { QueryRewrites } from './query-rewrites';

export interface ExecEnv {
  text: string;
  fn: FunctionEnv;
  /** The fetched data of a base binding (the planner decided how it was fetched). */
  tableFor: (binding: Binding) => ColumnarTable;
  warn: (message: string) => void;
  signal?: AbortSignal;
  /** The outer values of a correlated subquery being run (see CompileEnv.params). */
  params?: readonly Value[];
  /** The statement's rewrites kept from an earlier run of its binding (prepared-statements.ts). */
  rewrites?: QueryRewrites;
}

export function executeQuery(query: BoundQuery, env: ExecEnv): ResultTable {
  // One result per bound query and statement: a WITH query read twice, or an uncorrelated
  // subquery tested per row, runs once.
  // Everything kept for the statement lives in these Maps, dropped with it: a module-level
  // WeakMap keyed by bound queries keeps them through V8's young-generation collections.
  const memo = new Map<BoundQuery, ResultTable>();
  const derived = new Map<BoundQuery, ColumnarTable>();
  const rewrites = env.rewrites ?? new QueryRewrites();
  const execute = (q: BoundQuery, params: readonly Value[]): ResultTable => {
    checkCancelled(env);
    if (q.kind !== 'select') return executeSetOperation(q, (side) => run(side, params));
    const select = rewrites.select(q);
    const selectEnv: ExecEnv = {
      text: env.text,
      fn: env.fn,
      tableFor: env.tableFor,
      warn: env.warn,
      signal: env.signal,
      params,
    };
    return executeSelect(select, selectEnv, subqueries, (d, name) => table(d, name, params));
  };
  // An uncorrelated subquery runs once per statement; a correlated one once per distinct outer
  // values (its caller in compile.ts keeps the answers).
  const run = (q: BoundQuery, params: readonly Value[]): ResultTable => {
    if (params.length > 0) return execute(q, params);
    let result = memo.get(q);
    if (!result) {
      result = execute(q, params);
      memo.set(q, result);
    }
    return result;
  };
  const table = (q: BoundQuery, name: string, params: readonly Value[]): ColumnarTable => {
    if (params.length > 0) return toColumnarTable(run(q, params), name);
    let columnar = derived.get(q);
    if (!columnar) {
      columnar = toColumnarTable(run(q, params), name);
      derived.set(q, columnar);
    }
    return columnar;
  };
  // A correlated subquery of a common shape runs once for all outer rows (decorrelate.ts); a key
  // it has no answer for is run the usual way, which is what gives the answer over no rows.
  // null: the subquery has no such rewrite (asked once per statement, not once per outer value).
  const byKey = new Map<BoundQuery, Map<HashKey, Value | Value[] | true> | null>();
  const decorrelatedAnswer = (
    q: BoundQuery,
    use: Correlation,
    params: readonly Value[],
  ): { found: boolean; answer?: Value | Value[] | true } => {
    if (params.length === 0) return { found: false };
    let answers = byKey.get(q);
    if (answers === undefined) {
      const rewrite = rewrites.decorrelated(q, use, params.length);
      answers = rewrite ? answersByKey(rewrite, use, run(rewrite.query, [])) : null;
      byKey.set(q, answers);
    }
    if (answers === null) return { found: false };
    const key = answerKey(params);
    return answers.has(key) ? { found: true, answer: answers.get(key) } : { found: use === 'exists' };
  };
  const subqueries: SubqueryValues = {
    values: (q, params) => {
      const { found, answer } = decorrelatedAnswer(q, 'values', params);
      return found ? (answer as Value[]) : run(q, params).column(0);
    },
    exists: (q, params) => {
      const { found, answer } = decorrelatedAnswer(q, 'exists', params);
      return found ? answer === true : run(q, params).length > 0;
    },
    scalar: (q, span, params) => {
      const { found, answer } = decorrelatedAnswer(q, 'scalar', params);
      if (found) return answer;
      const result = run(q, params);
      if (result.length > 1) {
        throw new SqlError(
          SqlErrorCodes.semantic,
          `This subquery returned ${result.length.toLocaleString('en-US')} rows where one value is expected; add a condition, an aggregate or LIMIT 1`,
          env.text,
          span,
        );
      }
      return result.length === 0 ? null : (result.row(0)[0] ?? null);
    },
  };
  return run(query, env.params ?? []);
}

/**
 * Every CompileEnv of a statement has one shape, its seven fields in one order: object spreads
 * (`{ ...env, slots }`) of environments with different fields were 5% of a small statement's CPU
 * (docs/PERFORMANCE.md, session 20, sqlfixed).
 */
function envOf(
  tables: readonly ColumnarTable[],
  fn: FunctionEnv,
  subqueries: SubqueryValues,
  params: readonly Value[],
): CompileEnv {
  return { tables, slots: undefined, groupKeys: undefined, windows: undefined, fn, subqueries, params };
}

function withOutputs(
  env: CompileEnv,
  slots: CompileEnv['slots'],
  groupKeys: CompileEnv['groupKeys'],
  windows: CompileEnv['windows'],
): CompileEnv {
  const { tables, fn, subqueries, params } = env;
  return { tables, slots, groupKeys, windows, fn, subqueries, params };
}

function checkCancelled(env: ExecEnv): void {
  if (env.signal?.aborted) throw new AppFailure('Cancelled', 'The query was cancelled.');
}

function idsOf(tree: JoinTree): Set<number> {
  return tree.kind === 'binding' ? new Set([tree.id]) : new Set([...idsOf(tree.left), ...idsOf(tree.right)]);
}

function applyFilter(frame: Frame, conditions: BExpr[], env: CompileEnv, innerRows?: InnerRows): Frame {
  let { frame: narrowed, rest } = filterByCodes(frame, conditions, env);
  if (innerRows) ({ frame: narrowed, rest } = filterByAverages(narrowed, rest, env, innerRows));
  const condition = and(rest);
  if (!condition) return narrowed;
  const test = compile(condition, env)(narrowed);
  return filterFrame(narrowed, (r) => test(r) === true);
}

/**
 * A correlated subquery runs once per distinct outer value. When it has `o.customerId =
 * c.customerId`, its rows come from a hash index of that column (built once per table) instead
 * of a pass over every row; the condition is still applied afterwards with the others.
 */
const indexes = new WeakMap<ColumnarTable, Map<string, Map<HashKey, number[]>>>();

function paramLookup(
  local: BExpr[],
  binding: number,
  params: readonly Value[],
): { attr: string; value: Value } | undefined {
  for (const c of local) {
    if (c.kind !== 'binary' || c.op !== '=') continue;
    const [column, param] = c.left.kind === 'col' ? [c.left, c.right] : [c.right, c.left];
    if (
      column.kind === 'col' &&
      column.binding === binding &&
      column.path.length === 0 &&
      param.kind === 'param'
    )
      return { attr: column.attr, value: params[param.index] };
  }
  return undefined;
}

function rowsWith(table: ColumnarTable, attr: string, value: Value): Int32Array {
  if (isNull(value)) return new Int32Array(0);
  let byAttr = indexes.get(table);
  if (!byAttr) indexes.set(table, (byAttr = new Map<string, Map<HashKey, number[]>>()));
  let index = byAttr.get(attr);
  if (!index) {
    index = new Map();
    const column = table.column(attr) ?? [];
    for (let i = 0; i < table.rowCount; i++) {
      const v = column[i];
      if (isNull(v)) continue;
      const key = hashKey(v);
      const rows = index.get(key);
      if (rows) rows.push(i);
      else index.set(key, [i]);
    }
    byAttr.set(attr, index);
  }
  return Int32Array.from(index.get(hashKey(value)) ?? []);
}

function rowsFrame(bindingCount: number, binding: number, rows: Int32Array): Frame {
  const idx = Array.from({ length: bindingCount }, (_, b) => (b === binding ? rows : emptyIdx()));
  return { length: rows.length, idx };
}

/**
 * The rows of one binding's table that pass its own conditions. An entity view's prefix
 * condition starts from the rows the table keeps for it (ColumnarTable.prefixRows), the same
 * array for every statement and binding over the view; otherwise scanFilter's pass.
 */
function bindingRows(
  bindingCount: number,
  binding: number,
  table: ColumnarTable,
  conditions: BExpr[],
  env: CompileEnv,
): { frame: Frame; rest: BExpr[] } {
  for (let at = 0; at < conditions.length; at++) {
    const found = prefixCondition(conditions[at]!);
    const rows = found?.binding === binding && table.prefixRows(found.attr, found.prefix);
    if (!rows) continue;
    const others = conditions.filter((_, i) => i !== at);
    return filterByCodes(rowsFrame(bindingCount, binding, rows), others, env);
  }
  return scanFilter(bindingCount, binding, table.rowCount, conditions, env);
}

function executeSelect(
  select: BoundSelect,
  env: ExecEnv,
  subqueries: SubqueryValues,
  derivedTable: (q: BoundQuery, name: string) => ColumnarTable,
): ResultTable {
  // A correlated AVG's subquery rows (operators/correlated-average.ts), and a derived top-N
  // query's: its one binding's rows after its own conditions, filtered as any binding's are.
  const innerRows: InnerRows = (query) => {
    const binding = query.bindings[0]!;
    const table = env.tableFor(originalBinding(binding));
    const innerEnv = envOf([table], env.fn, subqueries, []);
    const conditions = [...binding.local, ...query.where];
    if (conditions.length === 0) return { table, rows: table.allRows() };
    const { frame, rest } = bindingRows(1, 0, table, conditions, innerEnv);
    return { table, rows: applyFilter(frame, rest, innerEnv).idx[0]! };
  };
  // COUNT/SUM/… over a derived table of top N per partition, from the rows it keeps: the
  // derived table is then never made (operators/window-top-aggregate.ts).
  const overTop = aggregateOverTop(select, env.params ?? [], innerRows, { fn: env.fn, subqueries });
  const tables = select.bindings.map((binding) =>
    binding.source.kind === 'base'
      ? env.tableFor(originalBinding(binding))
      : overTop
        ? new ColumnarTable(binding.alias)
        : derivedTable(binding.source.query, binding.alias),
  );
  const compileEnv = envOf(tables, env.fn, subqueries, env.params ?? []);
  const count = select.bindings.length;
  // The rows of FROM as a stream: an aggregate reads a whole table or a join a batch at a time
  // (frame-stream.ts); everything else reads the frame.
  const evalStream = (tree: JoinTree): FrameStream => {
    checkCancelled(env);
    if (tree.kind === 'binding') {
      const local = select.bindings[tree.id]!.local;
      const lookup = env.params?.length ? paramLookup(local, tree.id, env.params) : undefined;
      const table = tables[tree.id]!;
      if (lookup)
        return streamOf(
          applyFilter(
            rowsFrame(count, tree.id, rowsWith(table, lookup.attr, lookup.value)),
            local,
            compileEnv,
            innerRows,
          ),
        );
      if (local.length === 0) return allRowsStream(count, tree.id, table.rowCount);
      const { frame, rest } = bindingRows(count, tree.id, table, local, compileEnv);
      return streamOf(applyFilter(frame, rest, compileEnv, innerRows));
    }
    const left = evalStream(tree.left).frame();
    const right = evalStream(tree.right).frame();
    return joinStream(
      { left, right, type: tree.type, on: tree.on, leftIds: idsOf(tree.left), rightIds: idsOf(tree.right) },
      compileEnv,
    );
  };
  // GROUP BY of the commonest shapes in one loop over the columns (operators/aggregate-scan.ts).
  const scanned = overTop
    ? undefined
    : AggregateScan.of(select, compileEnv, env.warn, (id) => evalStream({ kind: 'binding', id }).frame());
  let rows = scanned
    ? streamOf({ length: 0, idx: [] })
    : select.from
      ? evalStream(select.from)
      : streamOf({ length: 1, idx: [] });
  if (select.where.length > 0)
    rows = streamOf(applyFilter(rows.frame(), select.where, compileEnv, innerRows));
  checkCancelled(env);

  let frame: Frame;
  let outputEnv = compileEnv;
  // The aggregated rows are groups 0…n-1 both as the frame's rows and as their order: one array
  // for both while nothing narrows the frame (nothing writes into either).
  let groupRows: Int32Array | undefined;
  if (select.aggregate) {
    const { slots, groups, groupKeys } =
      overTop ?? scanned ?? aggregate(rows, select.aggregate, compileEnv, env.warn);
    outputEnv = withOutputs(compileEnv, slots, groupKeys, undefined);
    groupRows = identityRows(groups);
    frame = { length: groups, idx: [groupRows] };
    if (select.having) frame = applyFilter(frame, [select.having], outputEnv);
  } else frame = rows.frame();
  // Top N per partition: the rows that pass QUALIFY and their numbers, nothing else built.
  const topRows = topPerPartition(select, frame, outputEnv);
  if (topRows) {
    frame = topRows.frame;
    outputEnv = withOutputs(outputEnv, outputEnv.slots, outputEnv.groupKeys, [topRows.numbers]);
  } else if (select.windows.length > 0) {
    const windows = select.windows.map((call, i) => {
      checkCancelled(env);
      return evaluateWindow(call, frame, outputEnv, env.warn, rowsKept(select.qualify, select.windows, i));
    });
    outputEnv = withOutputs(outputEnv, outputEnv.slots, outputEnv.groupKeys, windows);
  }

  let order: Int32Array =
    select.qualify && !topRows
      ? qualifyingRows(select.qualify, select.windows, outputEnv, frame)
      : groupRows && frame.idx[0] === groupRows
        ? groupRows
        : identityRows(frame.length);
  // `*` over the rows QUALIFY keeps, as the top-N operator's smaller frame gives it.
  const outputs = expandOutputs(select.outputs, select.bindings, tables, frame, order);
  const evaluators = outputs.map((o) => compile(o.expr, outputEnv)(frame));
  if (select.orderBy.length > 0) {
    const keys = select.orderBy.map((k) => ({
      evaluator: compile(k.expr, outputEnv)(frame),
      descending: k.descending,
      nullsFirst: k.nullsFirst,
    }));
    const top =
      select.distinct || select.limit === undefined ? undefined : select.limit + (select.offset ?? 0);
    order = sortRows(order, keys, top);
  }
  if (select.distinct) order = distinctRows(order, evaluators);
  order = limitRows(order, select.offset, select.limit);
  const aggregated = topRows || select.windows.length > 0 ? undefined : aggregatedColumns(outputs, outputEnv);
  if (aggregated)
    return new GroupResult(
      outputs.map((o) => o.name),
      aggregated,
      frame.idx[0]!,
      order,
    );
  return new FrameResult(
    outputs.map((o) => o.name),
    evaluators,
    order,
    rowSourceOf(select, tables, frame),
    outputs.map((o) => plainOutput(o.expr, tables, frame)),
  );
}

/** Each output's aggregated column when every output is one as it is (result.ts GroupResult). */
function aggregatedColumns(
  outputs: readonly { expr: BExpr }[],
  env: CompileEnv,
): (readonly Value[])[] | undefined {
  const { slots } = env;
  if (!slots || outputs.length === 0) return undefined;
  const columns: (readonly Value[])[] = [];
  for (const { expr } of outputs) {
    if (expr.kind !== 'slot') return undefined;
    columns.push(slots[expr.index]!);
  }
  return columns;
}

/** A bare column of a binding in the frame: a derived table of this result gathers it (result.ts). */
function plainOutput(e: BExpr, tables: ColumnarTable[], frame: Frame): PlainOutput | undefined {
  if (e.kind !== 'col' || e.path.length > 0) return undefined;
  const from = tables[e.binding];
  const idx = frame.idx[e.binding];
  return from && idx && idx.length === frame.length ? { from, attr: e.attr, idx } : undefined;
}

/**
 * `*` becomes the attributes that the binding's rows in this result actually have (`rows`: the
 * frame's rows that WHERE, HAVING and QUALIFY kept): key attributes first, then by frequency. A
 * view over a shared scan therefore shows its own entity's attributes, not every attribute of the
 * table.
 */
function expandOutputs(
  outputs: Output[],
  bindings: Binding[],
  tables: ColumnarTable[],
  frame: Frame,
  rows: Int32Array,
): { name: string; expr: BExpr }[] {
  const expanded: { name: string; expr: BExpr }[] = [];
  const starBindings = outputs.flatMap((o) => (o.kind === 'star' ? o.bindings : []));
  for (const output of outputs) {
    if (output.kind === 'expr') {
      expanded.push(output);
      continue;
    }
    for (const id of output.bindings) {
      const table = tables[id]!;
      const idx = frame.idx[id]!;
      for (const name of table.names()) {
        const column = table.column(name)!;
        let present = false;
        for (let r = 0; r < rows.length && !present; r++) {
          const i = idx[rows[r]!]!;
          present = i >= 0 && column[i] !== undefined;
        }
        if (!present) continue;
        const qualified = starBindings.length > 1 ? `${bindings[id]!.alias}.${name}` : name;
        expanded.push({ name: qualified, expr: { kind: 'col', binding: id, attr: name, path: [] } });
      }
    }
  }
  return expanded;
}
