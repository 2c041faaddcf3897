import { divide } from '../../values/arith';
import { isNum } from '../../values/decimal';
import { isNull, type Value } from '../../values/value';
import { conjuncts } from '../../binder/conjuncts';
import type { BExpr, FrameEdge, WindowCall } from '../../binder/bound';
import { compile, type CompileEnv, type Evaluator } from '../compile';
import { type Frame, IntBuffer } from '../frame';
import { frameAccumulator } from './window-aggregate';
import { windowOrder } from './window-order';

/** One partition in window order, and where each position's peers (equal ORDER BY values) end. */
interface Partition {
  rows: Int32Array;
  /** peerStart[i] / peerEnd[i]: first position of i's peer group, and one past its last. */
  peerStart: Int32Array;
  peerEnd: Int32Array;
}

function peers(
  rows: Int32Array,
  same: (a: number, b: number) => boolean,
): Pick<Partition, 'peerStart' | 'peerEnd'> {
  const m = rows.length;
  const peerStart = new Int32Array(m);
  const peerEnd = new Int32Array(m);
  for (let i = 0; i < m; i++) peerStart[i] = i > 0 && same(rows[i - 1]!, rows[i]!) ? peerStart[i - 1]! : i;
  for (let i = m - 1; i >= 0; i--)
    peerEnd[i] = i < m - 1 && peerStart[i + 1] === peerStart[i] ? peerEnd[i + 1]! : i + 1;
  return { peerStart, peerEnd };
}

/** First and last position of row i's frame (first > last: an empty frame). */
function frameBounds(call: WindowCall, p: Partition, i: number): [number, number] {
  const m = p.rows.length;
  const position = (edge: FrameEdge, isStart: boolean): number => {
    switch (edge.kind) {
      case 'unboundedPreceding':
        return 0;
      case 'unboundedFollowing':
        return m - 1;
      case 'preceding':
        return i - edge.offset;
      case 'following':
        return i + edge.offset;
      case 'currentRow':
        if (call.frame.unit === 'ROWS') return i;
        return isStart ? p.peerStart[i]! : p.peerEnd[i]! - 1;
    }
  };
  return [Math.max(0, position(call.frame.start, true)), Math.min(m - 1, position(call.frame.end, false))];
}

function ntile(buckets: number, m: number, i: number): number {
  const size = Math.floor(m / buckets);
  const larger = m % buckets; // the first `larger` buckets hold one row more
  const cut = larger * (size + 1);
  return i < cut ? Math.floor(i / (size + 1)) + 1 : larger + Math.floor((i - cut) / size) + 1;
}

type Fill = (p: Partition, out: Value[]) => void;

function rankingFill(call: WindowCall, args: Evaluator[]): Fill {
  const literal = (k: number): number => {
    const arg = call.args[k];
    return arg?.kind === 'lit' && typeof arg.value === 'number' ? arg.value : 1;
  };
  switch (call.name) {
    case 'ROW_NUMBER':
      return (p, out) => p.rows.forEach((r, i) => (out[r] = i + 1));
    case 'RANK':
      return (p, out) => p.rows.forEach((r, i) => (out[r] = p.peerStart[i]! + 1));
    case 'DENSE_RANK':
      return (p, out) => {
        let rank = 0;
        p.rows.forEach((r, i) => (out[r] = p.peerStart[i] === i ? ++rank : rank));
      };
    case 'PERCENT_RANK':
      return (p, out) =>
        p.rows.forEach(
          (r, i) => (out[r] = p.rows.length > 1 ? (divide(p.peerStart[i]!, p.rows.length - 1) ?? 0) : 0),
        );
    case 'CUME_DIST':
      return (p, out) => p.rows.forEach((r, i) => (out[r] = divide(p.peerEnd[i]!, p.rows.length) ?? null));
    case 'NTILE': {
      const buckets = literal(0);
      return (p, out) => p.rows.forEach((r, i) => (out[r] = ntile(buckets, p.rows.length, i)));
    }
    default: {
      // LAG / LEAD: the value `offset` rows before / after in window order, else the default.
      const offset = (call.name === 'LAG' ? -1 : 1) * (call.args.length > 1 ? literal(1) : 1);
      const [value, fallback] = [args[0]!, args[2]];
      return (p, out) =>
        p.rows.forEach((r, i) => {
          const j = i + offset;
          out[r] = j >= 0 && j < p.rows.length ? value(p.rows[j]!) : fallback ? fallback(r) : null;
        });
    }
  }
}

function frameFill(call: WindowCall, args: Evaluator[]): Fill {
  if (call.name === 'FIRST_VALUE' || call.name === 'LAST_VALUE' || call.name === 'NTH_VALUE') {
    const value = args[0]!;
    const nth =
      call.args[1]?.kind === 'lit' && typeof call.args[1].value === 'number' ? call.args[1].value : 1;
    return (p, out) =>
      p.rows.forEach((r, i) => {
        const [first, last] = frameBounds(call, p, i);
        const at = call.name === 'LAST_VALUE' ? last : first + nth - 1;
        out[r] = first <= last && at <= last ? value(p.rows[at]!) : null;
      });
  }
  const accumulator = frameAccumulator(call.name, call.args.length === 0);
  const value: Evaluator = args[0] ?? (() => null);
  const { start, end } = call.frame;
  return (p, out) => {
    const m = p.rows.length;
    if (start.kind === 'unboundedPreceding' || end.kind === 'unboundedFollowing') {
      // Frames anchored at one end of the partition grow one way: add rows as they enter.
      const forward = start.kind === 'unboundedPreceding';
      const acc = accumulator();
      let added = forward ? 0 : m - 1;
      for (let step = 0; step < m; step++) {
        const i = forward ? step : m - 1 - step;
        const [first, last] = frameBounds(call, p, i);
        if (forward) for (; added <= last; added++) acc.add(value(p.rows[added]!));
        else for (; added >= first; added--) acc.add(value(p.rows[added]!));
        out[p.rows[i]!] = first <= last ? acc.result() : accumulator().result();
      }
      return;
    }
    for (let i = 0; i < m; i++) {
      const [first, last] = frameBounds(call, p, i);
      const acc = accumulator();
      for (let j = first; j <= last; j++) acc.add(value(p.rows[j]!));
      out[p.rows[i]!] = acc.result();
    }
  };
}

const POSITIONAL = new Set([
  'ROW_NUMBER',
  'RANK',
  'DENSE_RANK',
  'PERCENT_RANK',
  'CUME_DIST',
  'NTILE',
  'LAG',
  'LEAD',
]);

const PEERLESS = new Set(['ROW_NUMBER', 'NTILE', 'LAG', 'LEAD']);

/**
 * The window operator: one value per frame row for one window call. Rows are split into
 * partitions, each sorted by the window's ORDER BY (ties keep their input order), then the
 * function fills its values in. Ranking functions and LAG/LEAD look at positions only;
 * FIRST_VALUE, LAST_VALUE, NTH_VALUE and the aggregates look at each row's frame.
 */
export function evaluateWindow(
  call: WindowCall,
  frame: Frame,
  env: CompileEnv,
  warn: (message: string) => void,
  keep?: number,
): Value[] {
  const args = call.args.map((arg) => compile(arg, env)(frame));
  // Rows past the first `keep` of their partition may be left out of the order; they get a
  // number past `keep`, which fails the QUALIFY test that set it and is never read otherwise.
  const kept = call.name === 'ROW_NUMBER' ? keep : undefined;
  const out = new Array<Value>(frame.length).fill(kept === undefined ? null : kept + 1);
  const fill = POSITIONAL.has(call.name) ? rankingFill(call, args) : frameFill(call, args);
  const { rows, starts, same } = windowOrder(call, frame, env, kept);
  // Peers (rows with equal ORDER BY values) matter to RANK and its kin and to RANGE frames only.
  const needsPeers = POSITIONAL.has(call.name) ? !PEERLESS.has(call.name) : call.frame.unit === 'RANGE';
  const noPeers = new Int32Array(0);
  for (let p = 0; p + 1 < starts.length; p++) {
    const partition = rows.subarray(starts[p], starts[p + 1]);
    fill(
      needsPeers
        ? { rows: partition, ...peers(partition, same) }
        : { rows: partition, peerStart: noPeers, peerEnd: noPeers },
      out,
    );
  }
  if ((call.name === 'SUM' || call.name === 'AVG') && args[0]) {
    let skipped = 0;
    for (let r = 0; r < frame.length; r++) {
      const v = args[0](r);
      if (!isNull(v) && !isNum(v)) skipped += 1;
    }
    if (skipped > 0)
      warn(
        `${call.text} skipped ${skipped.toLocaleString('en-US')} ${skipped === 1 ? 'value that is not a number' : 'values that are not numbers'}.`,
      );
  }
  return out;
}

/** Window functions whose value is a whole number for every row (never NULL). */
const WHOLE = new Set(['ROW_NUMBER', 'RANK', 'DENSE_RANK', 'NTILE']);

export type NumberTest = (v: number) => boolean;
const NUMBER_TESTS: Partial<Record<string, (k: number) => NumberTest>> = {
  '<': (k) => (v) => v < k,
  '<=': (k) => (v) => v <= k,
  '>': (k) => (v) => v > k,
  '>=': (k) => (v) => v >= k,
  '=': (k) => (v) => v === k,
  '<>': (k) => (v) => v !== k,
};

export interface RankTest {
  index: number;
  op: string;
  value: number;
  test: NumberTest;
}

/** `rn <= 3` (either way round) over a ranking window: its call index and a test of the number. */
export function rankTest(e: BExpr, calls: readonly WindowCall[]): RankTest | undefined {
  if (e.kind !== 'binary') return undefined;
  const flipped: Record<string, string> = {
    '<': '>',
    '<=': '>=',
    '>': '<',
    '>=': '<=',
    '=': '=',
    '<>': '<>',
  };
  const [win, lit, op] =
    e.left.kind === 'win' ? [e.left, e.right, e.op] : [e.right, e.left, flipped[e.op] ?? ''];
  if (win.kind !== 'win' || lit.kind !== 'lit' || typeof lit.value !== 'number') return undefined;
  const make = NUMBER_TESTS[op];
  const call = calls[win.index];
  return make && call && WHOLE.has(call.name)
    ? { index: win.index, op, value: lit.value, test: make(lit.value) }
    : undefined;
}

/** The largest whole number a test lets through, if it has one (`<= 3`, `< 4`, `= 3`: 3). */
export function upperBound({ op, value }: RankTest): number | undefined {
  if (op === '<=') return Math.floor(value);
  if (op === '<') return Math.ceil(value) - 1;
  if (op === '=' && Number.isInteger(value)) return value;
  return undefined;
}

/**
 * How many rows of each partition window call `index` needs numbered, when QUALIFY keeps only
 * rows whose number is at most that (`ROW_NUMBER() … <= 3` among its AND-ed conditions): a row
 * numbered past it fails the whole condition, whatever its exact number. Undefined: all rows.
 */
export function rowsKept(
  qualify: BExpr | undefined,
  calls: readonly WindowCall[],
  index: number,
): number | undefined {
  if (!qualify || calls[index]?.name !== 'ROW_NUMBER') return undefined;
  let kept: number | undefined;
  for (const c of conjuncts(qualify)) {
    const test = rankTest(c, calls);
    const bound = test?.index === index ? upperBound(test) : undefined;
    if (bound !== undefined && bound >= 1) kept = Math.min(kept ?? bound, bound);
  }
  return kept;
}

/**
 * The frame rows that pass QUALIFY, in order. A conjunction of comparisons of a ranking
 * window's value with a number (`rn <= 3`, `rk = 1`: top N per partition, including a derived
 * table's outer filter moved in by push-into-derived.ts) reads the window's numbers directly;
 * any other condition is compiled and tested row by row.
 */
export function qualifyingRows(
  qualify: BExpr,
  calls: readonly WindowCall[],
  env: CompileEnv,
  frame: Frame,
): Int32Array {
  const tests = conjuncts(qualify).map((c) => rankTest(c, calls));
  const rows = new IntBuffer(frame.length >> 2);
  if (tests.every((t) => t !== undefined)) {
    const columns = tests.map((t) => env.windows![t.index]! as readonly number[]);
    const checks = tests.map((t) => t.test);
    const [column, check] = [columns[0]!, checks[0]!];
    for (let r = 0; r < frame.length; r++) {
      if (!check(column[r]!)) continue;
      let pass = true;
      for (let k = 1; k < checks.length && pass; k++) pass = checks[k]!(columns[k]![r]!);
      if (pass) rows.push(r);
    }
    return rows.toArray();
  }
  const test = compile(qualify, env)(frame);
  for (let r = 0; r < frame.length; r++) if (test(r) === true) rows.push(r);
  return rows.toArray();
}
