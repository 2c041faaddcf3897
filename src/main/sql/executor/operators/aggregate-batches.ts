import type { Value } from '../../values/value';
import type { BExpr } from '../../binder/bound';
import { compile, type CompileEnv } from '../compile';
import { BATCH_ROWS, type FrameStream, type ManyToOne } from '../frame-stream';
import { emptyIdx, type Frame } from '../frame';
import type { Aggregated, AggregateSpec } from './aggregate';
import { bareColumn, CountRows, grown, ScaledSum, type TypedCall, typedCall } from './aggregate-calls';
import {
  CAPACITY,
  combineCodes,
  COUNT,
  FILLED,
  groupsByCode,
  lookupGroups,
  NEEDS_ROOM,
  STATE_SIZE,
} from './aggregate-kernels';

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
  // The first SUM or AVG is added by the pass that finds the groups; the others after it.
  const fused = calls.find((c): c is ScaledSum => c instanceof ScaledSum);
  const rest = calls.filter((c) => c !== fused);
  const joined = lookupJoin(rows, keys, calls);
  const isLookedUp = joined !== undefined && groups.lookupBatches(joined, env.tables.length, fused, rest);
  if (!isLookedUp) {
    rows.batches((batch) => {
      const groupOf = groups.assign(batch, fused);
      for (const call of rest) call.add(batch, groupOf, groups.count);
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

/** What the kernels are given when no SUM is added with the groups (never read). */
const NO_SUM = new ScaledSum(-1, { scaled: new Float64Array(0), kind: new Uint8Array(0), scale: 0 }, 'SUM');

/**
 * Group numbers in order of first appearance (as the general path numbers them), from the keys'
 * codes combined into one number; and each group's first row per binding, which the keys'
 * values are read from at the end. The per-group arrays (`sizes`, the first rows, a fused SUM's)
 * hold `capacity` groups; the kernels number new groups themselves and stop only when it is
 * reached, so a statement's outer loops turn once a batch, not once a group.
 */
class Groups {
  /** COUNT: groups so far; CAPACITY: groups the arrays hold; FILLED, NEEDS_ROOM: a lookup's. */
  private readonly state = new Int32Array(STATE_SIZE);
  /** Rows per group: COUNT(*) without a pass of its own. */
  sizes: Float64Array = new Float64Array(16);
  /** Per binding that has a key, each group's first row of it; empty for the others. */
  private readonly firstRows: Int32Array[];
  private readonly groupOf = new Int32Array(BATCH_ROWS);

  private constructor(
    private readonly keys: KeyCodes[],
    bindingCount: number,
    private readonly byArray: Int32Array | undefined,
    private readonly byMap: Map<number, number> | undefined,
  ) {
    this.firstRows = Array.from({ length: bindingCount }, (_, b) =>
      keys.some((k) => k.binding === b) ? new Int32Array(16) : emptyIdx(),
    );
    this.state[CAPACITY] = 16;
    if (keys.length === 0) this.state[COUNT] = 1;
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

  get count(): number {
    return this.state[COUNT]!;
  }

  /** Room for twice the groups in every per-group array (a fused SUM's too). */
  private makeRoom(sum: ScaledSum | undefined): void {
    const capacity = this.state[CAPACITY]! * 2;
    this.state[CAPACITY] = capacity;
    this.sizes = grown(this.sizes, capacity);
    for (let b = 0; b < this.firstRows.length; b++) {
      const rows = this.firstRows[b]!;
      if (rows.length === 0) continue;
      const next = new Int32Array(capacity);
      next.set(rows);
      this.firstRows[b] = next;
    }
    sum?.grow(capacity);
  }

  /**
   * The batch rows' group numbers (valid for batch.length rows until the next call), with `sum`
   * (a SUM or AVG of rows of the batch) added to its groups in the same pass.
   */
  assign(batch: Frame, sum: ScaledSum | undefined): Int32Array {
    const { groupOf, byArray } = this;
    if (batch.length > groupOf.length) throw new RangeError('batch larger than BATCH_ROWS');
    const key = this.keys.length === 1 ? this.keys[0]! : undefined;
    if (key && byArray && (!sum || sum.binding === key.binding)) {
      const rows = batch.idx[key.binding]!;
      const s = sum ?? NO_SUM;
      sum?.grow(this.state[CAPACITY]!);
      for (let r = 0; r < batch.length;) {
        r = groupsByCode(
          rows,
          r,
          batch.length,
          key.codes,
          byArray,
          groupOf,
          this.sizes,
          this.firstRows[key.binding]!,
          this.state,
          sum !== undefined,
          s.numbers.scaled,
          s.numbers.kind,
          s.sums,
          s.counts,
          s.tally,
        );
        if (r < batch.length) this.makeRoom(sum);
      }
      return groupOf;
    }
    if (this.keys.length === 0) {
      groupOf.fill(0, 0, batch.length);
      this.sizes[0]! += batch.length;
    } else this.assignCombined(batch);
    sum?.add(batch, groupOf, this.count);
    return groupOf;
  }

  private assignCombined(batch: Frame): void {
    const { groupOf, byArray, state } = this;
    for (let r = 0; r < batch.length; r++) {
      let combined = 0;
      for (let k = this.keys.length - 1; k >= 0; k--) {
        const { binding, codes, size } = this.keys[k]!;
        const i = batch.idx[binding]![r]!;
        combined = combined * size + (i < 0 ? 0 : codes[i]!);
      }
      let g = byArray ? byArray[combined]! : (this.byMap!.get(combined) ?? -1);
      if (g < 0) {
        if (state[COUNT] === state[CAPACITY]) this.makeRoom(undefined);
        g = state[COUNT]!;
        state[COUNT] = g + 1;
        for (let b = 0; b < this.firstRows.length; b++) {
          const firsts = this.firstRows[b]!;
          if (firsts.length > 0) firsts[g] = batch.idx[b]![r]!;
        }
        if (byArray) byArray[combined] = g;
        else this.byMap!.set(combined, g);
      }
      groupOf[r] = g;
      this.sizes[g]! += 1;
    }
  }

  /**
   * The rows of a lookup join, a batch at a time with their group numbers: each probe row's
   * group from its key number (the build row's combined key codes, computed once per key
   * number), LEFT JOIN's unmatched rows in the group of NULL keys; `sum` (of the probe side)
   * added as the groups are found, the `rest` of the calls a batch at a time. Only with an array
   * of groups (false otherwise, before any row is read). Batches carry the probe binding's rows
   * only.
   */
  lookupBatches(
    joined: ManyToOne,
    bindingCount: number,
    sum: ScaledSum | undefined,
    rest: readonly TypedCall[],
  ): boolean {
    const byCode = this.byArray;
    if (!byCode) return false;
    const { probeRows, probeNumbers, buildRowOfKey, keepUnmatched, probeBinding, buildBinding } = joined;
    const codeOfKey = new Int32Array(buildRowOfKey.length);
    for (let k = this.keys.length - 1; k >= 0; k--) {
      const { codes, size } = this.keys[k]!;
      combineCodes(buildRowOfKey, codes, size, codeOfKey);
    }
    const outRows = new Int32Array(BATCH_ROWS);
    const idx = Array.from({ length: bindingCount }, emptyIdx);
    idx[probeBinding] = outRows;
    const { groupOf, state } = this;
    state[FILLED] = 0;
    const s = sum ?? NO_SUM;
    sum?.grow(state[CAPACITY]!);
    for (let p = 0; p < probeRows.length;) {
      p = lookupGroups(
        probeRows,
        p,
        probeNumbers,
        buildRowOfKey,
        codeOfKey,
        keepUnmatched,
        byCode,
        groupOf,
        this.sizes,
        this.firstRows[buildBinding]!,
        outRows,
        state,
        sum !== undefined,
        s.numbers.scaled,
        s.numbers.kind,
        s.sums,
        s.counts,
        s.tally,
      );
      if (state[NEEDS_ROOM] === 1) {
        this.makeRoom(sum);
        continue;
      }
      const n = state[FILLED];
      if (n === outRows.length || p === probeRows.length) {
        if (n > 0) for (const call of rest) call.add({ length: n, idx }, groupOf, this.count);
        state[FILLED] = 0;
      }
    }
    return true;
  }

  /** Each key's value per group, read from the group's first row as the general path reads it. */
  keyValues(keys: BExpr[], env: CompileEnv): Value[][] {
    const count = this.keys.length === 0 ? 0 : this.count;
    const firsts: Frame = {
      length: count,
      idx: this.firstRows.map((rows) => (rows.length === 0 ? rows : rows.subarray(0, count))),
    };
    return keys.map((key) => {
      const read = compile(key, env)(firsts);
      return Array.from({ length: firsts.length }, (_, g) => read(g));
    });
  }
}
