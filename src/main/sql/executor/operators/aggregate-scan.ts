import type { Value } from '../../values/value';
import type { AggregateCall, BExpr, BoundSelect, JoinTree } from '../../binder/bound';
import type { CompileEnv } from '../compile';
import { SAFE_TOTAL, type ScaledNumbers } from '../column-views';
import type { Frame } from '../frame';
import type { RowReader } from '../table';
import { POW10 } from '../../values/arith';
import { type Aggregated, warnSkipped } from './aggregate';
import { bareColumn, scaledTotal } from './aggregate-calls';
import { codeTest, prefixCondition } from './filter-codes';
import { splitOn } from './join';
import { keyNumbers } from './join-keys';
import {
  EMPTY_KIND,
  EMPTY_VALUES,
  GROUPS,
  type KeptOrder,
  MAX,
  MIN,
  NONE,
  PASSED,
  type Pass,
  scan,
  SKIPPED,
  SUM,
  valuesOf,
  type Walk,
} from './aggregate-scan-loops';

/**
 * GROUP BY of the commonest shapes in one loop over the columns, as a person chasing speed would
 * write it (the hand-written side of `npm run bench:sql`): one coded group key, COUNT(*) and
 * SUM/AVG/MIN/MAX of scaled-integer columns, over one table's rows or through a join that is a
 * lookup (each row of the aggregated side finds at most one row of the key's side), the entity
 * view's rows as the list walked and one code-equality filter tested inside the loop. No row
 * list is written, no frame, no batch, no group number per row: per-code typed arrays, and the
 * groups' order of first appearance kept as they appear (the general path's order).
 *
 * Anything else is undefined before any row is read, and the general operators run. A few
 * refusals can only be known after the loop (a total past SAFE_TOTAL, MIN/MAX meeting a value
 * that is not a number, an INNER join the general path would build on the other side, which
 * gives its groups in another order); then the loop's work is dropped and the general path runs.
 */
export class AggregateScan {
  constructor(
    private readonly form: ScanForm,
    private readonly calls: AggregateCall[],
    private readonly warn: (message: string) => void,
  ) {}

  /**
   * The aggregated rows of a GROUP BY in this form, or undefined (see above). `bindingRows`
   * gives the key side's rows after its own conditions (execute.ts, as for any join).
   */
  static of(
    select: BoundSelect,
    env: CompileEnv,
    warn: (message: string) => void,
    bindingRows: (binding: number) => Frame,
  ): Aggregated | undefined {
    const spec = select.aggregate;
    if (!spec || spec.sets || spec.keys.length !== 1 || !select.from || select.where.length > 0)
      return undefined;
    if (env.params.length > 0) return undefined;
    const form = scanForm(select, select.from, spec.keys[0]!, spec.calls, env);
    return form && new AggregateScan(form, spec.calls, warn).run(bindingRows);
  }

  run(bindingRows: (binding: number) => Frame): Aggregated | undefined {
    const { form, calls } = this;
    const lookup = form.join ? joinLookup(form, form.join, bindingRows) : undefined;
    if (form.join && !lookup) return undefined;
    // One pass per column and kind of accumulation (SUM and AVG of a column share one); the
    // first pass also finds the groups, in order of first appearance.
    const walk: Walk = {
      rows: form.rows,
      filter: form.filter,
      rowCount: form.rowCount,
      codes: lookup ? lookup.groupOf : form.keyCodes,
      isMasked: lookup !== undefined && form.rows !== undefined,
      keySize: form.keySize,
      kept: lookup,
    };
    const passes = new Map<string, Pass>();
    const walked = form.rows ? form.rows.length : form.rowCount;
    for (const call of calls) {
      const column = form.columns.get(call);
      if (!column) continue;
      const op = opOf(call);
      const name = passName(op, column.attr);
      if (passes.has(name)) continue;
      const values = valuesOf(column.numbers);
      // Exact as long as every total stays under SAFE_TOTAL; beyond, the general path's BigInt.
      if (op === SUM && values.largest * walked >= SAFE_TOTAL) return undefined;
      passes.set(name, scan(walk, op, values.values, column.numbers.kind));
    }
    const first = passes.values().next().value ?? scan(walk, NONE, EMPTY_VALUES, EMPTY_KIND);
    const join = form.join;
    if (join?.mustProbeMore && lookup && !orderKept(join, first.tally[PASSED]!, lookup.buildRows))
      return undefined;
    const groups = first.tally[GROUPS]!;
    const { order } = first;
    const slots: Value[][] = [keyValues(form, lookup, first, groups)];
    for (const call of calls) {
      const column = form.columns.get(call);
      if (!column) {
        slots.push(countValues(first.counts, order, groups));
        continue;
      }
      const isBest = call.name === 'MIN' || call.name === 'MAX';
      const pass = passes.get(passName(opOf(call), column.attr))!;
      const { scale } = column.numbers;
      const values = isBest
        ? bestValues(pass, scale, order, groups)
        : sumValues(pass, call.name === 'SUM', scale, order, groups);
      if (!values) return undefined;
      if (!isBest && pass.tally[SKIPPED]! > 0) warnSkipped(call, pass.tally[SKIPPED]!, this.warn);
      slots.push(values);
    }
    return { slots, groups };
  }
}

const opOf = (call: AggregateCall): number => (call.name === 'MIN' ? MIN : call.name === 'MAX' ? MAX : SUM);

/** A pass per kind of accumulation and column: SUM(x) and AVG(x) read the same one. */
const passName = (op: number, attr: string): string => `${op}:${attr}`;

/** What the loop reads, found from the statement before any row is. */
interface ScanForm {
  /** The binding whose rows are walked (the aggregated side). */
  binding: number;
  rowCount: number;
  /** The rows walked: an entity view's rows (table.ts `prefixRows`), or every row when undefined. */
  rows?: Int32Array;
  /** One code-equality condition tested per row (filter-codes.ts), when there is one. */
  filter?: { codes: Int32Array; accepts: Uint8Array };
  keyBinding: number;
  keyCodes: Int32Array;
  /** Codes in use by the key (its dictionary's size). */
  keySize: number;
  /** The key column read at one row of its table. */
  keyRead: RowReader;
  /** Each SUM/AVG/MIN/MAX call's column of the walked side (COUNT(*) has none). */
  columns: Map<AggregateCall, { attr: string; numbers: ScaledNumbers }>;
  join?: JoinForm;
}

interface JoinForm {
  /** The key columns' numbers (join-keys.ts): per table row of the key side, and of this side. */
  buildNumbers: Int32Array;
  probeNumbers: Int32Array;
  keys: number;
  /** The key side has conditions of its own: its rows come from execute.ts, as for any join. */
  isBuildFiltered: boolean;
  /**
   * The key side's rows when its one condition is an entity view's (table.ts `prefixRows`): the
   * rows execute.ts would give, taken as withConditions takes the walked side's, without a frame.
   */
  buildList?: Int32Array;
  buildRowCount: number;
  keepUnmatched: boolean;
  /**
   * INNER JOIN: the general path builds on the smaller side, and its groups come in the order of
   * the side it probes. Set when that is this side only if it has more rows than the key side
   * (`probeIsLeft`: ties build on the right, so on the key side when it is the right one).
   */
  mustProbeMore: boolean;
  probeIsLeft: boolean;
}

function scanForm(
  select: BoundSelect,
  from: JoinTree,
  key: BExpr,
  calls: AggregateCall[],
  env: CompileEnv,
): ScanForm | undefined {
  const keyColumn = bareColumn(key);
  if (!keyColumn || calls.some((c) => c.distinct)) return undefined;
  let binding: number;
  let join: JoinForm | undefined;
  if (from.kind === 'binding') {
    binding = from.id;
    if (keyColumn.binding !== binding) return undefined;
  } else {
    const { left, right, type } = from;
    if (left.kind !== 'binding' || right.kind !== 'binding' || (type !== 'inner' && type !== 'left'))
      return undefined;
    const probeIsLeft = keyColumn.binding === right.id;
    if (!probeIsLeft && (keyColumn.binding !== left.id || type === 'left')) return undefined;
    binding = probeIsLeft ? left.id : right.id;
    const { keys, residual } = splitOn(from.on, new Set([left.id]), new Set([right.id]));
    if (keys.length !== 1 || residual.length > 0) return undefined;
    const { left: l, right: r } = keys[0]!;
    const [buildKey, probeKey] = probeIsLeft ? [r, l] : [l, r];
    if (bareColumn(buildKey)?.binding !== keyColumn.binding || bareColumn(probeKey)?.binding !== binding)
      return undefined;
    const numbers = keyNumbers(buildKey, probeKey, env);
    const buildTable = env.tables[keyColumn.binding];
    if (!numbers || !buildTable) return undefined;
    const buildConditions = select.bindings[keyColumn.binding]!.local;
    join = {
      buildNumbers: numbers.left,
      probeNumbers: numbers.right,
      keys: numbers.keys,
      isBuildFiltered: buildConditions.length > 0,
      buildList:
        buildConditions.length === 1 ? viewRows(buildConditions[0]!, keyColumn.binding, env) : undefined,
      buildRowCount: buildTable.rowCount,
      keepUnmatched: type === 'left',
      mustProbeMore: type === 'inner',
      probeIsLeft,
    };
  }
  const table = env.tables[binding];
  const keyTable = env.tables[keyColumn.binding];
  const keyDictionary = keyTable?.dictionary(keyColumn.attr);
  const keyRead = keyTable?.reader(keyColumn.attr);
  if (!table || !keyDictionary || !keyRead) return undefined;
  const columns = new Map<AggregateCall, { attr: string; numbers: ScaledNumbers }>();
  for (const call of calls) {
    if (call.name === 'COUNT') {
      if (call.arg) return undefined;
      continue;
    }
    const column = bareColumn(call.arg);
    if (column?.binding !== binding) return undefined;
    // MIN and MAX only where the column is held as numbers, so MIN(name) does not decode names.
    if ((call.name === 'MIN' || call.name === 'MAX') && !table.holdsNumbers(column.attr)) return undefined;
    const numbers = table.scaledNumbers(column.attr);
    if (!numbers) return undefined;
    columns.set(call, { attr: column.attr, numbers });
  }
  const form: ScanForm = {
    binding,
    rowCount: table.rowCount,
    keyBinding: keyColumn.binding,
    keyCodes: keyDictionary.codes,
    keySize: keyDictionary.size,
    keyRead,
    columns,
    join,
  };
  return withConditions(form, select.bindings[binding]!.local, env);
}

/** The walked side's own conditions as the row list and the one filter, or undefined. */
function withConditions(form: ScanForm, conditions: BExpr[], env: CompileEnv): ScanForm | undefined {
  for (const condition of conditions) {
    const rows = form.rows ? undefined : viewRows(condition, form.binding, env);
    if (rows) {
      form.rows = rows;
      continue;
    }
    const test = form.filter ? undefined : codeTest(condition, env);
    if (test?.binding !== form.binding || !test.codes) return undefined;
    form.filter = { codes: test.codes, accepts: test.accepts };
  }
  return form;
}

/** An entity view's rows (table.ts `prefixRows`) when `condition` is the view's prefix test of `binding`. */
function viewRows(condition: BExpr, binding: number, env: CompileEnv): Int32Array | undefined {
  const prefix = prefixCondition(condition);
  if (prefix?.binding !== binding) return undefined;
  return env.tables[binding]?.prefixRows(prefix.attr, prefix.prefix);
}

/**
 * A join as a lookup: per row of the walked side, the group key's code at the row it matches
 * (-1: the row is dropped, as an INNER join drops a row with no match; a LEFT join's unmatched
 * rows get 0, the NULL key's code), and per key number + 1 (0: a NULL or missing key) the key
 * side's row holding it, which the key's value is read from (-1: none).
 */
interface Lookup extends KeptOrder {
  /**
   * The join resolved per row, once: the loop then reads a row's group as it reads a plain
   * GROUP BY's code, instead of its key number and then that number's code per row (a chain of
   * loads that made the join's loop 1.45× the hand-written one's; docs/PERFORMANCE.md, sqljoin8).
   * Over an entity view, a row outside the view's rows gets -1 too, as a row the INNER join drops:
   * the loop then walks the table's rows in order and reads no row list, as the hand-written
   * side's does (its orders' user code is NONE on a user's row).
   */
  groupOf: Int32Array;
  buildRowOf: Int32Array;
  /** The key side's rows after its own conditions (the general path's build side). */
  buildRows: number;
  /**
   * Per key code, its string once read (see keyValues): kept with the lookup, so the next
   * statement reads its groups' keys from here instead of at rows all over the key side.
   */
  keyStrings: Value[];
}

/**
 * The lookup from the key side's rows; undefined when a key repeats among them (not a lookup).
 * Kept with the key numbers while the same rows and codes are asked for again (the next
 * statement over the same tables), as the hand-written side resolves its join at load.
 */
function joinLookup(
  form: ScanForm,
  join: JoinForm,
  bindingRows: (binding: number) => Frame,
): Lookup | undefined {
  let rows = join.buildList;
  let length = rows ? rows.length : join.buildRowCount;
  if (!rows && join.isBuildFiltered) {
    const build = bindingRows(form.keyBinding);
    rows = build.idx[form.keyBinding];
    length = build.length;
    if (!rows || rows.length < length) return undefined;
  }
  const kept = keptLookups.get(join.buildNumbers);
  const isKept =
    kept !== undefined &&
    kept.probeNumbers === join.probeNumbers &&
    kept.rows === rows &&
    kept.length === length &&
    kept.walked === form.rows &&
    kept.keyCodes === form.keyCodes &&
    kept.keepUnmatched === join.keepUnmatched &&
    kept.keys === join.keys;
  if (isKept) return kept.lookup;
  const codeOf = new Int32Array(join.keys + 1).fill(join.keepUnmatched ? 0 : -1);
  const buildRowOf = new Int32Array(join.keys + 1).fill(-1);
  const isUnique = lookupCodes(rows, length, join.buildNumbers, form.keyCodes, codeOf, buildRowOf);
  let lookup: Lookup | undefined;
  if (isUnique) {
    const groupOf = new Int32Array(join.probeNumbers.length);
    if (form.rows) {
      groupOf.fill(-1);
      groupsOfListed(form.rows, join.probeNumbers, codeOf, groupOf);
    } else groupsOfRows(join.probeNumbers, codeOf, groupOf);
    lookup = {
      groupOf,
      buildRowOf,
      buildRows: length,
      keyStrings: new Array<Value>(form.keySize),
      order: undefined,
    };
  }
  keptLookups.set(join.buildNumbers, {
    probeNumbers: join.probeNumbers,
    rows,
    length,
    walked: form.rows,
    keyCodes: form.keyCodes,
    keepUnmatched: join.keepUnmatched,
    keys: join.keys,
    lookup,
  });
  return lookup;
}

/** The last lookup made from a key numbering (weak: it goes with the numbering). */
const keptLookups = new WeakMap<
  Int32Array,
  {
    probeNumbers: Int32Array;
    rows: Int32Array | undefined;
    length: number;
    /** The walked side's rows the groups were resolved for (an entity view's), or every row. */
    walked: Int32Array | undefined;
    keyCodes: Int32Array;
    keepUnmatched: boolean;
    keys: number;
    lookup: Lookup | undefined;
  }
>();

/**
 * codeOf[k + 1] and buildRowOf[k + 1] from each build row (the listed rows, or every row when
 * `rows` is undefined) with key number k; false as soon as a number repeats. Once per key
 * numbering and rows (kept), so one function serves both.
 */
function lookupCodes(
  rows: Int32Array | undefined,
  length: number,
  buildNumbers: Int32Array,
  keyCodes: Int32Array,
  codeOf: Int32Array,
  buildRowOf: Int32Array,
): boolean {
  for (let r = 0; r < length; r++) {
    const b = rows ? rows[r]! : r;
    const k = b < 0 ? 0 : buildNumbers[b]! + 1;
    if (k === 0) continue;
    if (buildRowOf[k]! >= 0) return false;
    buildRowOf[k] = b;
    codeOf[k] = keyCodes[b]!;
  }
  return true;
}

/** out[i] = codeOf[numbers[i] + 1]: each walked row's group through the lookup. */
function groupsOfRows(numbers: Int32Array, codeOf: Int32Array, out: Int32Array): void {
  for (let i = 0; i < numbers.length; i++) out[i] = codeOf[numbers[i]! + 1]!;
}

/** groupsOfRows for the listed rows only (the rest stay -1). */
function groupsOfListed(rows: Int32Array, numbers: Int32Array, codeOf: Int32Array, out: Int32Array): void {
  for (let p = 0; p < rows.length; p++) {
    const i = rows[p]!;
    out[i] = codeOf[numbers[i]! + 1]!;
  }
}

/** Where the general path would probe this side too (see JoinForm.mustProbeMore). */
function orderKept(join: JoinForm, probeRows: number, buildRows: number): boolean {
  return join.probeIsLeft ? probeRows >= buildRows : probeRows > buildRows;
}

/**
 * The key's value per group, read at the row it first appeared at, as the general path reads it.
 * Through a lookup, a group's code above 0 is one string wherever it is read, so it is read once
 * and kept with the lookup (code 0 is NULL or missing, which the row tells apart).
 */
function keyValues(form: ScanForm, lookup: Lookup | undefined, pass: Pass, groups: number): Value[] {
  // The groups in a kept order (no filter) have the same keys in every statement: kept with it.
  const kept = lookup?.order?.order === pass.order ? lookup.order : undefined;
  if (kept?.keys) return kept.keys.slice();
  const out = lookedUpKeys(form, lookup, pass, groups);
  if (kept) kept.keys = out.slice();
  return out;
}

function lookedUpKeys(form: ScanForm, lookup: Lookup | undefined, pass: Pass, groups: number): Value[] {
  const read = form.keyRead;
  const numbers = form.join?.probeNumbers;
  const out = new Array<Value>(groups);
  if (lookup && numbers) {
    const { keyStrings, buildRowOf } = lookup;
    for (let g = 0; g < groups; g++) {
      const c = pass.order[g]!;
      const kept = c > 0 ? keyStrings[c] : undefined;
      if (kept !== undefined) {
        out[g] = kept;
        continue;
      }
      const row = buildRowOf[numbers[pass.firstRow[g]!]! + 1]!;
      const value = row < 0 ? undefined : read(row);
      if (c > 0) keyStrings[c] = value;
      out[g] = value;
    }
    return out;
  }
  for (let g = 0; g < groups; g++) {
    const i = pass.firstRow[g]!;
    out[g] = read(i);
  }
  return out;
}

/** COUNT(*) per group. */
function countValues(counts: Float64Array, order: Int32Array, groups: number): Value[] {
  const out = new Array<Value>(groups);
  for (let g = 0; g < groups; g++) out[g] = counts[order[g]!]!;
  return out;
}

/**
 * SUM or AVG per group from a SUM pass. A total below 10^15 is scaledTotal's common case, read
 * here: that call per group was 0.060 against 0.024 ms for 5,000 groups, run as `npm run
 * bench:sql` runs the engine (docs/PERFORMANCE.md, sqljoin9); the rest goes through it.
 */
function sumValues(pass: Pass, isSum: boolean, scale: number, order: Int32Array, groups: number): Value[] {
  const { acc, counts, others } = pass;
  const p = POW10[scale]!;
  const out = new Array<Value>(groups);
  for (let g = 0; g < groups; g++) {
    const c = order[g]!;
    const total = acc[c]!;
    const n = counts[c]! - others[c]!;
    out[g] =
      isSum && n > 0 && total < 1e15 && total > -1e15 ? total / p + 0 : scaledTotal(total, n, scale, isSum);
  }
  return out;
}

/** MIN or MAX per group; undefined when a value was not a number (the general path says so). */
function bestValues(pass: Pass, scale: number, order: Int32Array, groups: number): Value[] | undefined {
  if (pass.tally[SKIPPED]! > 0) return undefined;
  const p = POW10[scale]!;
  const out = new Array<Value>(groups);
  for (let g = 0; g < groups; g++) {
    const best = pass.acc[order[g]!]!;
    // Every number survived round(v · p) / p === v when it was scaled, so this gives v back.
    out[g] = best !== best ? null : best / p;
  }
  return out;
}
