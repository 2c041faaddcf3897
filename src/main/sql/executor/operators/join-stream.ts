import type { CompileEnv } from '../compile';
import type { Frame } from '../frame';
import { BATCH_ROWS, type FrameStream, type ManyToOne, streamOf } from '../frame-stream';
import { type NumberedIndex, numberedIndex } from './join-keys';
import { type JoinInput, joinFrames, joinSides, splitOn } from './join';

/**
 * A join whose rows an aggregate can read in batches (frame-stream.ts): an INNER or LEFT join on
 * one equality of bare columns with nothing else in ON, whose pairs come from the numbered keys'
 * index. Its batches are the rows joinFrames would give, in the same order (so groups are
 * numbered the same), without the frame of every pair. Any other join is made whole.
 */
export function joinStream(join: JoinInput, env: CompileEnv): FrameStream {
  const { left, right, type, on, leftIds, rightIds } = join;
  const whole = (): Frame => joinFrames(join, env);
  const { keys, residual } = splitOn(on, leftIds, rightIds);
  if ((type !== 'inner' && type !== 'left') || keys.length !== 1 || residual.length > 0)
    return streamOf(whole());
  // The same sides as joinFrames, so the rows come in the same order.
  const { build, probe, buildExprs, probeExprs } = joinSides(left, right, type, keys);
  const index = numberedIndex(build, probe, buildExprs[0]!, probeExprs[0]!, env);
  if (!index) return streamOf(whole());
  let made: Frame | undefined;
  return {
    frame: () => (made ??= whole()),
    batches: (visit) => pairBatches(probe, build, index, type === 'left', visit),
    manyToOne: () => manyToOne(probe, build, index, type === 'left'),
  };
}

/** The join as a lookup when each side is one binding's rows and no build key repeats. */
function manyToOne(
  probe: Frame,
  build: Frame,
  { head, probeIdx, probeNumbers, isUnique }: NumberedIndex,
  keepUnmatched: boolean,
): ManyToOne | undefined {
  const probeBinding = onlyBinding(probe);
  const buildBinding = onlyBinding(build);
  if (!isUnique || probeBinding === undefined || buildBinding === undefined) return undefined;
  if (probe.idx[probeBinding] !== probeIdx) return undefined;
  const buildRowOfKey = new Int32Array(head.length);
  tableRowsOf(head, build.idx[buildBinding]!, buildRowOfKey);
  return {
    probeBinding,
    buildBinding,
    probeRows: probeIdx.subarray(0, probe.length),
    probeNumbers,
    buildRowOfKey,
    keepUnmatched,
  };
}

/**
 * Probe rows in order, each with its build rows in order (or with none, -1, for a LEFT join's
 * row that matched nothing), a batch of pairs at a time; then each binding's table rows are
 * gathered from the side it belongs to.
 */
function pairBatches(
  probe: Frame,
  build: Frame,
  { head, next, probeIdx, probeNumbers }: NumberedIndex,
  keepUnmatched: boolean,
  visit: (batch: Frame) => void,
): void {
  const capacity = BATCH_ROWS;
  const pairProbe = new Int32Array(capacity);
  const pairBuild = new Int32Array(capacity);
  const fromProbe = probe.idx.map((rows) => rows.length > 0);
  const idx = probe.idx.map((rows, b) =>
    rows.length > 0 || build.idx[b]!.length > 0 ? new Int32Array(capacity) : rows,
  );
  // One binding a side (two tables joined): the pairs are written as table rows, and are the
  // batch's rows themselves; otherwise as frame rows, and each binding's rows gathered from them.
  const probeOnly = onlyBinding(probe);
  const buildOnly = onlyBinding(build);
  const isDirect = probeOnly !== undefined && buildOnly !== undefined && probe.idx[probeOnly] === probeIdx;
  const buildRows = isDirect ? build.idx[buildOnly] : undefined;
  if (isDirect) {
    idx[probeOnly] = pairProbe;
    idx[buildOnly] = pairBuild;
  }
  const flush = (n: number): void => {
    for (let b = 0; b < idx.length && !isDirect; b++) {
      const out = idx[b]!;
      if (out.length === 0) continue;
      if (fromProbe[b]) gather(out, probe.idx[b]!, pairProbe, n);
      else gather(out, build.idx[b]!, pairBuild, n);
    }
    visit({ length: n, idx });
  };
  const cursor = new Int32Array(CURSOR_SIZE);
  cursor[BUILD] = -1;
  for (;;) {
    const n = pairsInto(
      probeIdx,
      probe.length,
      probeNumbers,
      head,
      next,
      buildRows,
      keepUnmatched,
      pairProbe,
      pairBuild,
      cursor,
    );
    if (n > 0) flush(n);
    if (n < capacity) break;
  }
}

const PROBE = 0;
const BUILD = 1;
const CURSOR_SIZE = 2;

/**
 * Up to pairProbe.length pairs from where `cursor` stopped (PROBE: the probe row, BUILD: the
 * next build row of its chain, -1 for none yet), into the pair arrays; answers how many. Table
 * rows when `buildRows` is given (the direct case), frame rows otherwise. A function of typed
 * arrays on its own so that V8 optimizes it once and keeps it (see groupsByCode).
 */
function pairsInto(
  probeIdx: Int32Array,
  probeLength: number,
  probeNumbers: Int32Array,
  head: Int32Array,
  next: Int32Array,
  buildRows: Int32Array | undefined,
  keepUnmatched: boolean,
  pairProbe: Int32Array,
  pairBuild: Int32Array,
  cursor: Int32Array,
): number {
  const capacity = pairProbe.length;
  let n = 0;
  let p = cursor[PROBE]!;
  let b = cursor[BUILD]!;
  // A chain left part-way in the last call goes on first.
  while (b >= 0) {
    if (n === capacity) return stop(cursor, p, b, n);
    pairProbe[n] = buildRows ? probeIdx[p]! : p;
    pairBuild[n] = buildRows ? buildRows[b]! : b;
    n += 1;
    b = next[b]!;
  }
  if (cursor[BUILD]! >= 0) p += 1;
  for (; p < probeLength; p++) {
    const i = probeIdx[p]!;
    const k = i < 0 ? -1 : probeNumbers[i]!;
    b = k < 0 ? -1 : head[k]!;
    if (b < 0) {
      if (!keepUnmatched) continue;
      if (n === capacity) return stop(cursor, p, -1, n);
      pairProbe[n] = buildRows ? i : p;
      pairBuild[n] = -1;
      n += 1;
      continue;
    }
    while (b >= 0) {
      if (n === capacity) return stop(cursor, p, b, n);
      pairProbe[n] = buildRows ? i : p;
      pairBuild[n] = buildRows ? buildRows[b]! : b;
      n += 1;
      b = next[b]!;
    }
  }
  return stop(cursor, probeLength, -1, n);
}

function stop(cursor: Int32Array, p: number, b: number, n: number): number {
  cursor[PROBE] = p;
  cursor[BUILD] = b;
  return n;
}

/** The frame's one binding with rows, or undefined when it has several. */
function onlyBinding(frame: Frame): number | undefined {
  const bindings = frame.idx.flatMap((rows, b) => (rows.length > 0 ? [b] : []));
  return bindings.length === 1 ? bindings[0] : undefined;
}

/**
 * out[k] = rows[at[k]], -1 staying -1. A function of its own (see pairsInto): as a loop in
 * manyToOne it was compiled on stack and deoptimized at the loop's end in every statement.
 */
function tableRowsOf(at: Int32Array, rows: Int32Array, out: Int32Array): void {
  for (let k = 0; k < out.length; k++) {
    const a = at[k]!;
    out[k] = a < 0 ? -1 : rows[a]!;
  }
}

/** out[r] = rows[at[r]] for the first n pairs; -1 (no row) stays -1. */
function gather(out: Int32Array, rows: Int32Array, at: Int32Array, n: number): void {
  for (let r = 0; r < n; r++) {
    const a = at[r]!;
    out[r] = a < 0 ? -1 : rows[a]!;
  }
}
