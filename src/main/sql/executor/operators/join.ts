import { AppFailure } from '../../../../shared/errors';
import { compositeKey, hashKey, type HashKey } from '../../values/compare';
import { isNull, type Value } from '../../values/value';
import type { BExpr } from '../../binder/bound';
import { compile, type CompileEnv, type Evaluator } from '../compile';
import { truth } from '../compile';
import { and, bindingsOf } from '../../binder/conjuncts';
import { type Frame, IntBuffer } from '../frame';
import { joinByNumberedKeys } from './join-keys';

/** Joins without an equality would compare every pair; past this many we ask for a condition. */
export const MAX_NESTED_LOOP_PAIRS = 50_000_000;

interface EquiKey {
  left: BExpr;
  right: BExpr;
}

function isSubset(used: Set<number>, ids: Set<number>): boolean {
  if (used.size === 0) return false;
  for (const id of used) if (!ids.has(id)) return false;
  return true;
}

/** The equalities between the two sides (left part first), and the rest of the ON condition. */
export function splitOn(
  on: BExpr[],
  leftIds: Set<number>,
  rightIds: Set<number>,
): { keys: EquiKey[]; residual: BExpr[] } {
  const keys: EquiKey[] = [];
  const residual: BExpr[] = [];
  for (const part of on) {
    if (part.kind === 'binary' && part.op === '=') {
      const l = bindingsOf(part.left);
      const r = bindingsOf(part.right);
      if (isSubset(l, leftIds) && isSubset(r, rightIds)) {
        keys.push({ left: part.left, right: part.right });
        continue;
      }
      if (isSubset(l, rightIds) && isSubset(r, leftIds)) {
        keys.push({ left: part.right, right: part.left });
        continue;
      }
    }
    residual.push(part);
  }
  return { keys, residual };
}

function keyFunction(evaluators: Evaluator[]): (r: number) => HashKey | undefined {
  if (evaluators.length === 1) {
    const ev = evaluators[0]!;
    return (r) => {
      const v = ev(r);
      // NULL never equals anything, so it never joins.
      return isNull(v) ? undefined : hashKey(v);
    };
  }
  return (r) => {
    const values: Value[] = evaluators.map((ev) => ev(r));
    return values.some(isNull) ? undefined : compositeKey(values);
  };
}

/** The general hash join: any key expressions, hashed per row. */
function hashJoin(
  build: Frame,
  probe: Frame,
  buildExprs: BExpr[],
  probeExprs: BExpr[],
  env: CompileEnv,
  buildOut: IntBuffer,
  probeOut: IntBuffer,
): void {
  const buildKey = keyFunction(buildExprs.map((e) => compile(e, env)(build)));
  const probeKey = keyFunction(probeExprs.map((e) => compile(e, env)(probe)));
  const heads = new Map<HashKey, number>();
  const next = new Int32Array(build.length);
  for (let r = build.length - 1; r >= 0; r--) {
    const key = buildKey(r);
    if (key === undefined) continue;
    next[r] = heads.get(key) ?? -1;
    heads.set(key, r);
  }
  for (let p = 0; p < probe.length; p++) {
    const key = probeKey(p);
    if (key === undefined) continue;
    for (let b = heads.get(key) ?? -1; b >= 0; b = next[b]!) {
      probeOut.push(p);
      buildOut.push(b);
    }
  }
}

function combine(left: Frame, right: Frame, leftRows: Int32Array, rightRows: Int32Array): Frame {
  const idx = left.idx.map((column, b) => {
    const source = column.length > 0 ? column : right.idx[b]!;
    const rows = column.length > 0 ? leftRows : rightRows;
    if (source.length === 0) return source;
    const out = new Int32Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      out[i] = row < 0 ? -1 : source[row]!;
    }
    return out;
  });
  return { length: leftRows.length, idx };
}

/**
 * Which side a hash join builds on: INNER on the smaller side, LEFT and FULL on the right (the
 * left is probed in order), with each side's key expressions.
 */
export function joinSides(
  left: Frame,
  right: Frame,
  type: 'inner' | 'left' | 'full' | 'cross',
  keys: EquiKey[],
): { buildOnLeft: boolean; build: Frame; probe: Frame; buildExprs: BExpr[]; probeExprs: BExpr[] } {
  const buildOnLeft = type === 'inner' && left.length < right.length;
  return {
    buildOnLeft,
    build: buildOnLeft ? left : right,
    probe: buildOnLeft ? right : left,
    buildExprs: keys.map((k) => (buildOnLeft ? k.left : k.right)),
    probeExprs: keys.map((k) => (buildOnLeft ? k.right : k.left)),
  };
}

/** Two sides' rows to join: the bindings each side holds, and ON's conditions. */
export interface JoinInput {
  left: Frame;
  right: Frame;
  type: 'inner' | 'left' | 'full' | 'cross';
  on: BExpr[];
  leftIds: Set<number>;
  rightIds: Set<number>;
}

/**
 * Hash join (nested loop when there is no equality). INNER builds the hash on the smaller side;
 * LEFT and FULL build on the right and probe with the left in order, so every left row appears
 * once per match, or once with the right side missing; FULL then adds the unmatched right rows.
 */
export function joinFrames({ left, right, type, on, leftIds, rightIds }: JoinInput, env: CompileEnv): Frame {
  const { keys, residual } = splitOn(on, leftIds, rightIds);
  const pairsLeft = new IntBuffer(Math.max(left.length, right.length));
  const pairsRight = new IntBuffer(Math.max(left.length, right.length));
  if (keys.length > 0) {
    const { buildOnLeft, build, probe, buildExprs, probeExprs } = joinSides(left, right, type, keys);
    const [probeOut, buildOut] = buildOnLeft ? [pairsRight, pairsLeft] : [pairsLeft, pairsRight];
    const isNumbered =
      keys.length === 1 &&
      joinByNumberedKeys(build, probe, buildExprs[0]!, probeExprs[0]!, env, buildOut, probeOut);
    if (!isNumbered) hashJoin(build, probe, buildExprs, probeExprs, env, buildOut, probeOut);
  } else {
    if (left.length * right.length > MAX_NESTED_LOOP_PAIRS) {
      throw new AppFailure(
        'SqlJoinTooLarge',
        `This join has no equality between the two sides and would compare ${left.length.toLocaleString('en-US')} × ${right.length.toLocaleString('en-US')} rows; add a condition like ON a.id = b.id.`,
      );
    }
    for (let l = 0; l < left.length; l++) {
      for (let r = 0; r < right.length; r++) {
        pairsLeft.push(l);
        pairsRight.push(r);
      }
    }
  }
  let matched = combine(left, right, pairsLeft.toArray(), pairsRight.toArray());
  let survivors = { left: pairsLeft.toArray(), right: pairsRight.toArray() };
  const condition = and(residual);
  if (condition) {
    const test = compile(condition, env)(matched);
    const keep = new IntBuffer(matched.length);
    for (let i = 0; i < matched.length; i++) if (truth(test(i)) === true) keep.push(i);
    const rows = keep.toArray();
    survivors = { left: rows.map((i) => survivors.left[i]!), right: rows.map((i) => survivors.right[i]!) };
    matched = combine(left, right, survivors.left, survivors.right);
  }
  if (type !== 'left' && type !== 'full') return matched;
  if (type === 'left') return withUnmatched(left, right, survivors.left, survivors.right, false);
  return withUnmatched(left, right, survivors.left, survivors.right, true);
}

/**
 * Adds the left rows that found no match (right side -1), keeping left order; for a FULL JOIN
 * then the right rows that found none (left side -1).
 */
function withUnmatched(
  left: Frame,
  right: Frame,
  pairLeft: Int32Array,
  pairRight: Int32Array,
  isFull: boolean,
): Frame {
  const outLeft = new IntBuffer(pairLeft.length + 16);
  const outRight = new IntBuffer(pairLeft.length + 16);
  let p = 0;
  for (let l = 0; l < left.length; l++) {
    if (p < pairLeft.length && pairLeft[p] === l) {
      while (p < pairLeft.length && pairLeft[p] === l) {
        outLeft.push(l);
        outRight.push(pairRight[p]!);
        p += 1;
      }
    } else {
      outLeft.push(l);
      outRight.push(-1);
    }
  }
  if (isFull) {
    const matched = new Uint8Array(right.length);
    for (const r of pairRight) matched[r] = 1;
    for (let r = 0; r < right.length; r++) {
      if (matched[r]) continue;
      outLeft.push(-1);
      outRight.push(r);
    }
  }
  return combine(left, right, outLeft.toArray(), outRight.toArray());
}
