import type { BExpr } from '../../binder/bound';
import type { CompileEnv } from '../compile';
import type { Frame } from '../frame';
import { BATCH_ROWS, type FrameStream, streamOf } from '../frame-stream';
import { type NumberedIndex, numberedIndex } from './join-keys';
import { joinFrames, joinSides, splitOn } from './join';

/**
 * A join whose rows an aggregate can read in batches (frame-stream.ts): an INNER or LEFT join on
 * one equality of bare columns with nothing else in ON, whose pairs come from the numbered keys'
 * index. Its batches are the rows joinFrames would give, in the same order (so groups are
 * numbered the same), without the frame of every pair. Any other join is made whole.
 */
export function joinStream(
  left: Frame,
  right: Frame,
  type: 'inner' | 'left' | 'full' | 'cross',
  on: BExpr[],
  env: CompileEnv,
  leftIds: Set<number>,
  rightIds: Set<number>,
): FrameStream {
  const whole = (): Frame => joinFrames(left, right, type, on, env, leftIds, rightIds);
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
  // A local: an imported binding read in the loop is a getter call under some module loaders.
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
  const buildRows = isDirect ? build.idx[buildOnly]! : next;
  if (isDirect) {
    idx[probeOnly] = pairProbe;
    idx[buildOnly] = pairBuild;
  }
  // n is not captured by a closure, so it stays a register in the loop below.
  const flush = (n: number): number => {
    for (let b = 0; b < idx.length && !isDirect; b++) {
      const out = idx[b]!;
      if (out.length === 0) continue;
      if (fromProbe[b]) gather(out, probe.idx[b]!, pairProbe, n);
      else gather(out, build.idx[b]!, pairBuild, n);
    }
    visit({ length: n, idx });
    return 0;
  };
  let n = 0;
  for (let p = 0; p < probe.length; p++) {
    const i = probeIdx[p]!;
    const k = i < 0 ? -1 : probeNumbers[i]!;
    let b = k < 0 ? -1 : head[k]!;
    if (b < 0 && !keepUnmatched) continue;
    do {
      pairProbe[n] = isDirect ? i : p;
      pairBuild[n] = b < 0 || !isDirect ? b : buildRows[b]!;
      if (++n === capacity) n = flush(n);
      b = b < 0 ? -1 : next[b]!;
    } while (b >= 0);
  }
  if (n > 0) flush(n);
}

/** The frame's one binding with rows, or undefined when it has several. */
function onlyBinding(frame: Frame): number | undefined {
  const bindings = frame.idx.flatMap((rows, b) => (rows.length > 0 ? [b] : []));
  return bindings.length === 1 ? bindings[0] : undefined;
}

/** out[r] = rows[at[r]] for the first n pairs; -1 (no row) stays -1. */
function gather(out: Int32Array, rows: Int32Array, at: Int32Array, n: number): void {
  for (let r = 0; r < n; r++) {
    const a = at[r]!;
    out[r] = a < 0 ? -1 : rows[a]!;
  }
}
