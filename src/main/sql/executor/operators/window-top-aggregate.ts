import { ExactSum } from '../../values/exact-sum';
import type { Value } from '../../values/value';
import type { AggregateCall, BExpr, BoundSelect } from '../../binder/bound';
import { SAFE_TOTAL } from '../column-views';
import type { CompileEnv, SubqueryValues } from '../compile';
import { BATCH_ROWS } from '../frame-stream';
import type { FunctionEnv } from '../functions';
import type { Aggregated } from './aggregate';
import { typedCall } from './aggregate-calls';
import type { InnerRows } from './correlated-average';
import { type KeptKeys, keptRows, keptTally, type KeysTally, tallySelected } from './window-top';

/**
 * An aggregate without GROUP BY over a derived table of top N per partition, answered from the
 * rows the top-N operator keeps (window-top.ts `keptRows`):
 *
 *   SELECT COUNT(*), SUM(amount) FROM (SELECT amount, ROW_NUMBER() OVER (…) AS rn FROM orders) t
 *   WHERE rn <= 3
 *
 * The general path made the kept rows a derived table (their row numbers, the window's numbers as
 * values) and ran the aggregate operator over it: 30,000 rows gathered twice to add them once.
 * Here COUNT, SUM and AVG of the ORDER BY column add the keys the selection kept (the survivors'
 * scaled integers, summed as the aggregate operator sums them); any other call reads the kept
 * rows' own table rows through the aggregate operator's typed calls (aggregate-calls.ts
 * `typedCall`), in batches of one group. When every call is COUNT(*) or one of those three (the
 * statement above), a ROW_NUMBER's selection keeps no rows at all, only a tally of the kept
 * keys (window-top.ts `keptTally`).
 *
 * Exact or not taken: the outer SELECT reads one derived table and nothing else (no join, no
 * condition left on it after push-into-derived.ts, no GROUP BY, windows or QUALIFY of its own);
 * the derived query is one base table's rows with one ranking window that `keptRows` takes, and
 * no LIMIT, OFFSET or DISTINCT; each call is COUNT(*) or a COUNT, SUM, AVG, MIN or MAX without
 * DISTINCT of a derived column that is a plain column of that table. A call its typed form
 * refuses (BigInt decimals, sums past exact integers, MIN of strings) or that would skip values
 * that are not numbers (the general path says so) sends the whole statement the general way.
 */
export function aggregateOverTop(
  select: BoundSelect,
  params: readonly Value[],
  innerRows: InnerRows,
  env: { fn: FunctionEnv; subqueries: SubqueryValues },
): Aggregated | undefined {
  const shape = topShape(select, params);
  if (!shape) return undefined;
  const { inner, calls } = shape;
  const { table, rows } = innerRows(inner);
  const innerEnv: CompileEnv = { tables: [table], fn: env.fn, subqueries: env.subqueries, params: [] };
  const frame = { length: rows.length, idx: [rows] };
  const ordered = inner.windows[0]!.orderBy[0]?.expr;
  if (ordered && calls.every((call) => !call.arg || fromKeysOf(call, ordered))) {
    const tally = keptTally(inner, frame, innerEnv);
    if (tally) return fromTally(calls, tally);
  }
  const kept = keptRows(inner, frame, innerEnv);
  if (!kept) return undefined;
  const count = kept.rows.length;
  // The kept frame rows are this call's own: made table rows in place, when a call reads them.
  let tableRows: Int32Array | undefined;
  let oneGroup: Int32Array | undefined;
  const slots: Value[][] = [];
  for (const { name, arg, text } of calls) {
    if (!arg) {
      slots.push([count]);
      continue;
    }
    if (kept.keys && name !== 'MIN' && name !== 'MAX' && sameColumn(arg, kept.keys)) {
      const value = fromKeys(name, tallySelected(kept.keys));
      if (value === undefined) return undefined;
      slots.push([value]);
      continue;
    }
    const typed = typedCall({ name, arg, distinct: false, text }, innerEnv);
    if (!typed) return undefined;
    tableRows ??= toTableRows(kept.rows, rows);
    oneGroup ??= new Int32Array(BATCH);
    for (let start = 0; start < count; start += BATCH) {
      const end = Math.min(count, start + BATCH);
      typed.add({ length: end - start, idx: [tableRows.subarray(start, end)] }, oneGroup, 1);
    }
    const value = typed.skipped === 0 ? typed.finish(1) : undefined;
    if (!value) return undefined;
    slots.push(value);
  }
  return { slots, groups: 1 };
}

const sameColumn = (e: BExpr, keys: Pick<KeptKeys, 'binding' | 'attr'>): boolean =>
  e.kind === 'col' && e.binding === keys.binding && e.attr === keys.attr && e.path.length === 0;

/** Whether the call is COUNT, SUM or AVG of the ORDER BY column, which its kept keys answer. */
const fromKeysOf = ({ name, arg }: AggregateCall, ordered: BExpr): boolean =>
  name !== 'MIN' && name !== 'MAX' && !!arg && ordered.kind === 'col' && sameColumn(arg, ordered);

/** Every call answered from the kept keys' tally alone. */
function fromTally(calls: readonly AggregateCall[], tally: KeysTally): Aggregated | undefined {
  const slots: Value[][] = [];
  for (const { name, arg } of calls) {
    const value = arg ? fromKeys(name, tally) : tally.rows;
    if (value === undefined) return undefined;
    slots.push([value]);
  }
  return { slots, groups: 1 };
}

/**
 * COUNT, SUM or AVG of the ORDER BY column from the kept rows' keys: the survivors' scaled
 * integers as the selection kept them, with no read of the column at their rows. Exact as the
 * aggregate operator's scaled sums are (the same ExactSum); undefined past SAFE_TOTAL.
 */
function fromKeys(name: AggregateCall['name'], tally: KeysTally): Value | undefined {
  if (name === 'COUNT') return tally.numbers;
  if (tally.magnitude >= SAFE_TOTAL) return undefined;
  const sum = ExactSum.fromScaled(tally.sign * tally.sum + 0, tally.scale, tally.numbers);
  return name === 'SUM' ? sum.total() : sum.average();
}

/**
 * rows[k] = idx[rows[k]]. A loop on its own: the code after a loop in a statement's function
 * has no type feedback when V8 compiles the loop on the stack (OSR) in the first run, so that
 * code was deoptimised again in every later run (`--trace-deopt`).
 */
function toTableRows(rows: Int32Array, idx: Int32Array): Int32Array {
  for (let k = 0; k < rows.length; k++) rows[k] = idx[rows[k]!]!;
  return rows;
}

// Read as a module constant: an imported binding read in a statement's code deoptimised it on
// every run where modules are compiled to CommonJS (tsx, vitest; `--trace-deopt`: wrong map).
const BATCH = BATCH_ROWS;

/** The derived query, and the calls over the plain columns of its table they read (none: COUNT(*)). */
function topShape(
  select: BoundSelect,
  params: readonly Value[],
): { inner: BoundSelect; calls: AggregateCall[] } | undefined {
  const { aggregate, bindings } = select;
  const [binding] = bindings;
  if (!aggregate || aggregate.keys.length > 0 || aggregate.sets || params.length > 0) return undefined;
  if (!binding || bindings.length !== 1 || select.from?.kind !== 'binding' || select.where.length > 0)
    return undefined;
  if (select.windows.length > 0 || select.qualify || binding.local.length > 0 || binding.after.length > 0)
    return undefined;
  const inner = binding.source.kind === 'derived' ? binding.source.query : undefined;
  if (inner?.kind !== 'select' || inner.limit !== undefined || inner.offset !== undefined || inner.distinct)
    return undefined;
  const [base] = inner.bindings;
  if (!base || inner.bindings.length !== 1 || base.source.kind !== 'base' || base.after.length > 0)
    return undefined;
  if (inner.windows.length !== 1 || !inner.qualify) return undefined;
  const outputs = new Map<string, BExpr>();
  for (const output of inner.outputs) {
    if (output.kind !== 'expr' || outputs.has(output.name)) return undefined;
    outputs.set(output.name, output.expr);
  }
  const calls: AggregateCall[] = [];
  for (const call of aggregate.calls) {
    const arg = innerColumn(call, binding.id, outputs);
    if (arg === null) return undefined;
    calls.push({ ...call, arg });
  }
  return { inner, calls };
}

/** The call's argument as the derived query's plain column; undefined: COUNT(*); null: neither. */
function innerColumn(
  call: AggregateCall,
  binding: number,
  outputs: ReadonlyMap<string, BExpr>,
): BExpr | undefined | null {
  if (call.distinct) return null;
  if (!call.arg) return call.name === 'COUNT' ? undefined : null;
  const { arg } = call;
  if (arg.kind !== 'col' || arg.binding !== binding || arg.path.length > 0) return null;
  const inner = outputs.get(arg.attr);
  return inner?.kind === 'col' && inner.path.length === 0 ? inner : null;
}
