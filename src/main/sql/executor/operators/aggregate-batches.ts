import type { Value } from '../../values/value';
import type { BExpr } from '../../binder/bound';
import { compile, type CompileEnv } from '../compile';
import { BATCH_ROWS, type FrameStream, type ManyToOne } from '../frame-stream';
import { emptyIdx, type Frame, IntBuffer } from '../frame';
import type { Aggregated, AggregateSpec } from './aggregate';
import { bareColumn, CountRows, grown, type TypedCall, typedCall } from './aggregate-calls';

/**
 * GROUP BY read a batch at a time (frame-stream.ts), every group key and aggregate in typed
 * arrays: a group is found from the keys' dictionary codes (an array lookup per row, or a Map
 * of combined codes when several keys make too many combinations for an array), and COUNT,
 * SUM, AVG, MIN and MAX add into per-group arrays from the columns' scaled integers
 * (column-views.ts). Nothing per row is allocated and no row is boxed; the rows of a join are
 * never all written out.
 *
 * It answers only what it answers exactly, the same as the general path (aggregate.ts) would:
 * keys that are bare string columns, and COUNT(*), COUNT(col), SUM/AVG/MIN/MAX(col) of bare
 * columns whose numbers fit a double's integers. Anything else — an expression, DISTINCT,
 * grouping sets, a BigInt decimal, a total past SAFE_TOTAL, MIN/MAX over numbers mixed with
 * other types — is undefined, and the caller runs the general path over the whole frame.
 */
export function aggregateBatches(
  rows: FrameStream,
  spec: AggregateSpec,
  env: CompileEnv,
): { aggregated: Aggregated; skipped: number[] } | undefined {
  if (spec.sets || spec.calls.some((c) => c.distinct)) return undefined;
  const keys: KeyCodes[] = [];
  for (const key of spec.keys) {
    const codes = keyCodes(key, env);
    if (!codes) return undefined;
    keys.push(codes);
  }
  const groups = Groups.of(keys, env.tables.length);
  if (!groups) return undefined;
  const calls: TypedCall[] = [];
  for (const call of spec.calls) {
    const typed = call.name === 'COUNT' && !call.arg ? new CountRows(groups) : typedCall(call, env);
    if (!typed) return undefined;
    calls.push(typed);
  }
  const joined = lookupJoin(rows, keys, calls);
  const isLookedUp =
    joined !== undefined &&
    groups.lookupBatches(joined, env.tables.length, (batch, groupOf) => {
      for (const call of calls) call.add(batch, groupOf, groups.count);
    });
  if (!isLookedUp) {
    rows.batches((batch) => {
      const groupOf = groups.assign(batch);
      for (const call of calls) call.add(batch, groupOf, groups.count);
    });
  }
  const finished: Value[][] = [];
  for (const call of calls) {
    const values = call.finish(groups.count);
    if (!values) return undefined;
    finished.push(values);
  }
  const slots = [...groups.keyValues(spec.keys, env), ...finished];
  return { aggregated: { slots, groups: groups.count }, skipped: calls.map((c) => c.skipped) };
}

/**
 * A join read as a lookup (frame-stream.ts ManyToOne) when every key is a column of its build
 * side and every call reads only its probe side (COUNT(*) reads neither): a star query's
 * `SUM(order.total) … GROUP BY customer.country`. Then a probe row's group comes from its key
 * number in one step, with no pairs written and none read back.
 */
function lookupJoin(rows: FrameStream, keys: KeyCodes[], calls: TypedCall[]): ManyToOne | undefined {
  if (!rows.manyToOne || keys.length === 0) return undefined;
  const joined = rows.manyToOne();
  if (!joined) return undefined;
  const fits =
    keys.every((k) => k.binding === joined.buildBinding) &&
    calls.every((c) => c.binding === undefined || c.binding === joined.probeBinding);
  return fits ? joined : undefined;
}

/** A GROUP BY key that is a bare string column held as dictionary codes (0: NULL or missing). */
interface KeyCodes {
  binding: number;
  codes: Int32Array;
  size: number;
}

function keyCodes(key: BExpr, env: CompileEnv): KeyCodes | undefined {
  const column = bareColumn(key);
  if (!column) return undefined;
  const dictionary = env.tables[column.binding]?.dictionary(column.attr);
  return dictionary && { binding: column.binding, codes: dictionary.codes, size: dictionary.size };
}

/** Combinations of key codes up to this many are looked up in an array, more in a Map. */
const ARRAY_GROUPS = 1 << 20;

/**
 * Group numbers in order of first appearance (as the general path numbers them), from the keys'
 * codes combined into one number; and each group's first row per binding, which the keys'
 * values are read from at the end.
 */
class Groups {
  count = 0;
  /** Rows per group: COUNT(*) without a pass of its own. */
  sizes: Float64Array = new Float64Array(16);
  private readonly groupOf = new Int32Array(BATCH_ROWS);
  private readonly firstRows: (IntBuffer | undefined)[];

  private constructor(
    private readonly keys: KeyCodes[],
    bindingCount: number,
    private readonly byArray: Int32Array | undefined,
    private readonly byMap: Map<number, number> | undefined,
  ) {
    this.firstRows = Array.from({ length: bindingCount }, (_, b) =>
      keys.some((k) => k.binding === b) ? new IntBuffer(64) : undefined,
    );
    if (keys.length === 0) this.count = 1;
  }

  static of(keys: KeyCodes[], bindingCount: number): Groups | undefined {
    const combinations = keys.reduce((product, k) => product * k.size, 1);
    if (keys.length === 0) return new Groups(keys, bindingCount, undefined, undefined);
    if (combinations <= ARRAY_GROUPS)
      return new Groups(keys, bindingCount, new Int32Array(combinations).fill(-1), undefined);
    // Beyond 2^53 two combinations could share a number.
    if (combinations > Number.MAX_SAFE_INTEGER) return undefined;
    return new Groups(keys, bindingCount, undefined, new Map());
  }

  /** The batch rows' group numbers (valid for batch.length rows until the next call). */
  assign(batch: Frame): Int32Array {
    const { groupOf } = this;
    if (batch.length > groupOf.length) throw new RangeError('batch larger than BATCH_ROWS');
    if (this.keys.length === 0) {
      groupOf.fill(0, 0, batch.length);
      this.sizes[0]! += batch.length;
      return groupOf;
    }
    const byArray = this.byArray;
    if (this.keys.length === 1 && byArray) {
      const { binding, codes } = this.keys[0]!;
      const rows = batch.idx[binding]!;
      // The kernel stops at a code with no group yet; the group is made here and it goes on.
      for (let r = 0; r < batch.length; r++) {
        r = groupsByCode(rows, r, batch.length, codes, byArray, groupOf, this.sizes);
        if (r === batch.length) break;
        const i = rows[r]!;
        const code = i < 0 ? 0 : codes[i]!;
        const g = (byArray[code] = this.newGroup(batch, r));
        groupOf[r] = g;
        this.sizes[g]! += 1;
      }
      return groupOf;
    }
    for (let r = 0; r < batch.length; r++) {
      let combined = 0;
      for (let k = this.keys.length - 1; k >= 0; k--) {
        const { binding, codes, size } = this.keys[k]!;
        const i = batch.idx[binding]![r]!;
        combined = combined * size + (i < 0 ? 0 : codes[i]!);
      }
      let g = byArray ? byArray[combined]! : (this.byMap!.get(combined) ?? -1);
      if (g < 0) {
        g = this.newGroup(batch, r);
        if (byArray) byArray[combined] = g;
        else this.byMap!.set(combined, g);
      }
      groupOf[r] = g;
      this.sizes[g]! += 1;
    }
    return groupOf;
  }

  /**
   * The rows of a lookup join, a batch at a time with their group numbers: each probe row's
   * group from its key number (the build row's combined key codes, computed once per key
   * number), LEFT JOIN's unmatched rows in the group of NULL keys. Only with an array of groups
   * (undefined otherwise, before any row is read). Batches carry the probe binding's rows only.
   */
  lookupBatches(
    joined: ManyToOne,
    bindingCount: number,
    visit: (batch: Frame, groupOf: Int32Array) => void,
  ): boolean {
    const byCode = this.byArray;
    if (!byCode) return false;
    const { probeRows, probeNumbers, buildRowOfKey, keepUnmatched, probeBinding, buildBinding } = joined;
    const codeOfKey = new Int32Array(buildRowOfKey.length);
    for (let k = 0; k < codeOfKey.length; k++) {
      const b = buildRowOfKey[k]!;
      codeOfKey[k] = b < 0 ? -1 : this.combinedCode(b);
    }
    const outRows = new Int32Array(BATCH_ROWS);
    const idx = Array.from({ length: bindingCount }, emptyIdx);
    idx[probeBinding] = outRows;
    // One row for newGroup to read a new group's first rows from.
    const first: Frame = { length: 1, idx: Array.from({ length: bindingCount }, emptyIdx) };
    first.idx[probeBinding] = new Int32Array(1);
    first.idx[buildBinding] = new Int32Array(1);
    const state = new Int32Array(STATE_SIZE);
    const { groupOf } = this;
    for (let p = 0; p < probeRows.length;) {
      p = lookupGroups(
        probeRows,
        p,
        probeNumbers,
        codeOfKey,
        keepUnmatched,
        byCode,
        groupOf,
        this.sizes,
        outRows,
        state,
      );
      if (state[NEEDS_GROUP] === 1) {
        const i = probeRows[p]!;
        const k = i < 0 ? -1 : probeNumbers[i]!;
        const b = k < 0 ? -1 : buildRowOfKey[k]!;
        first.idx[probeBinding][0] = i;
        first.idx[buildBinding][0] = b;
        byCode[b < 0 ? 0 : codeOfKey[k]!] = this.newGroup(first, 0);
        continue;
      }
      const n = state[FILLED]!;
      if (n === outRows.length || p === probeRows.length) {
        if (n > 0) visit({ length: n, idx }, groupOf);
        state[FILLED] = 0;
      }
    }
    return true;
  }

  /** The keys' codes at one row of their (one) binding, combined as assign combines them. */
  private combinedCode(row: number): number {
    let combined = 0;
    for (let k = this.keys.length - 1; k >= 0; k--) {
      const { codes, size } = this.keys[k]!;
      combined = combined * size + codes[row]!;
    }
    return combined;
  }

  private newGroup(batch: Frame, r: number): number {
    for (let b = 0; b < this.firstRows.length; b++) this.firstRows[b]?.push(batch.idx[b]![r]!);
    this.sizes = grown(this.sizes, this.count + 1);
    return this.count++;
  }

  /** Each key's value per group, read from the group's first row as the general path reads it. */
  keyValues(keys: BExpr[], env: CompileEnv): Value[][] {
    const firsts: Frame = {
      length: this.keys.length === 0 ? 0 : this.count,
      idx: this.firstRows.map((rows) => rows?.toArray() ?? emptyIdx()),
    };
    return keys.map((key) => {
      const read = compile(key, env)(firsts);
      return Array.from({ length: firsts.length }, (_, g) => read(g));
    });
  }
}

/**
 * Group numbers of rows[from …] by one key's codes, counting each group's rows, up to the first
 * row whose code has no group yet (returned; `length` when there is none). The loops that run
 * per row are functions of typed arrays and numbers on their own, like this one: V8 optimizes
 * them once, on the first statement, and no later statement's objects change what they see.
 */
function groupsByCode(
  rows: Int32Array,
  from: number,
  length: number,
  codes: Int32Array,
  byCode: Int32Array,
  groupOf: Int32Array,
  sizes: Float64Array,
): number {
  for (let r = from; r < length; r++) {
    const i = rows[r]!;
    const g = byCode[i < 0 ? 0 : codes[i]!]!;
    if (g < 0) return r;
    groupOf[r] = g;
    sizes[g]! += 1;
  }
  return length;
}

const FILLED = 0;
const NEEDS_GROUP = 1;
const STATE_SIZE = 2;

/**
 * Probe rows from `from` on, looked up to their group through their key number, written to
 * outRows and groupOf after state[FILLED] rows; stops when the batch is full or at a row whose
 * code has no group yet (state[NEEDS_GROUP], that row's position returned), as groupsByCode.
 */
function lookupGroups(
  probeRows: Int32Array,
  from: number,
  probeNumbers: Int32Array,
  codeOfKey: Int32Array,
  keepUnmatched: boolean,
  byCode: Int32Array,
  groupOf: Int32Array,
  sizes: Float64Array,
  outRows: Int32Array,
  state: Int32Array,
): number {
  let n = state[FILLED]!;
  state[NEEDS_GROUP] = 0;
  const capacity = outRows.length;
  for (let p = from; p < probeRows.length; p++) {
    const i = probeRows[p]!;
    const k = i < 0 ? -1 : probeNumbers[i]!;
    let code = k < 0 ? -1 : codeOfKey[k]!;
    if (code < 0) {
      // No build row: an inner join drops the row, a LEFT join keeps it with NULL keys.
      if (!keepUnmatched) continue;
      code = 0;
    }
    const g = byCode[code]!;
    if (g < 0) {
      state[FILLED] = n;
      state[NEEDS_GROUP] = 1;
      return p;
    }
    outRows[n] = i;
    groupOf[n] = g;
    sizes[g]! += 1;
    n += 1;
    if (n === capacity) {
      state[FILLED] = n;
      return p + 1;
    }
  }
  state[FILLED] = n;
  return probeRows.length;
}
