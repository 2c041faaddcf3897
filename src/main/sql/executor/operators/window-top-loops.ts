import { NOT_NUMBER } from '../column-views';

/**
 * The loops of top N per partition (window-top.ts): each over typed arrays alone, in a function
 * of its own with nothing after it, so that code reading an object never shares its
 * optimisation (`--trace-deopt` found that deoptimising on every statement).
 */

// Read in the loop as a module constant (window-order.ts says why).
const OTHER = NOT_NUMBER;

/**
 * The kept rows whose number passes, partition by partition (a row's number is its place + 1),
 * moved to the front of `best` and `bestKey`, which are the caller's own; their numbers into
 * `numbers`. Their count. A loop of typed arrays alone: code after an optimised loop that reads
 * an object deoptimised it on every statement (`--trace-deopt`).
 */
export function numberKept(
  best: Int32Array,
  bestKey: Float64Array,
  held: Int32Array,
  keep: number,
  passes: Uint8Array,
  numbers: Uint8Array,
): number {
  let count = 0;
  for (let c = 0; c < held.length; c++) {
    const base = c * keep;
    const h = held[c]!;
    for (let j = 0; j < h; j++) {
      if (passes[j + 1] === 0) continue;
      best[count] = best[base + j]!;
      bestKey[count] = bestKey[base + j]!;
      numbers[count++] = j + 1;
    }
  }
  return count;
}

/**
 * window-order.ts `keepBest` with each row's code and key read from the stored columns in the
 * same loop: the frame row's table row, its code, its kind and scaled integer. A partition's
 * free places hold +Infinity, which every key is below (a row with no number has a finite key:
 * storedKeys), so a row enters when it goes before the last place and no count per partition
 * is read or kept; `heldOf` counts the places taken afterwards. False when a value is not a
 * number (the caller refuses; the general path orders mixed types). Typed arrays and numbers
 * only: a destructured object at its top was read with no type feedback when V8 compiled the
 * loop on the stack in the first run, and deoptimised the next run (`--trace-deopt`).
 */
export function keepStored(
  idx: Int32Array,
  codes: Int32Array,
  kind: Uint8Array,
  scaled: Float64Array,
  sign: number,
  nullKey: number,
  keep: number,
  best: Int32Array,
  bestKey: Float64Array,
): boolean {
  const last = keep - 1;
  bestKey.fill(Infinity);
  for (let r = 0; r < idx.length; r++) {
    const i = idx[r]!;
    let c = 0;
    let k = nullKey;
    if (i >= 0) {
      c = codes[i]!;
      const t = kind[i]!;
      // 1 is a number; any other kind but OTHER (missing, NULL) has none.
      if (t === 1) k = sign * scaled[i]!;
      else if (t === OTHER) return false;
    }
    const base = c * keep;
    if (!(k < bestKey[base + last]!)) continue;
    let j = base + last;
    while (j > base && k < bestKey[j - 1]!) {
      best[j] = best[j - 1]!;
      bestKey[j] = bestKey[j - 1]!;
      j -= 1;
    }
    best[j] = r;
    bestKey[j] = k;
  }
  return true;
}

/**
 * keepNumbers for at most three places a partition, each `3` apart (keep 1 and 2 use the first
 * places): the row's key goes through the three places, each keeping the lesser and handing on
 * the greater, with no early exit and no loop. keepNumbers tests the last place and shifts, and
 * on random keys six rows of a partition of nine enter its top three, which of them a coin toss:
 * on the bench's one table this took 0.78–0.88× its time; on two tables, whose partition codes
 * are in random order (a cache miss a row), 0.93–1.03× (docs/PERFORMANCE.md, sqlwin8). Ties
 * need no order here: only keys are kept. Answers as keepNumbers does.
 */
export function keepThree(
  idx: Int32Array,
  codes: Int32Array,
  kind: Uint8Array,
  scaled: Float64Array,
  sign: number,
  bestKey: Float64Array,
): number {
  bestKey.fill(Infinity);
  for (let r = 0; r < idx.length; r++) {
    const i = idx[r]!;
    if (i < 0 || kind[i] !== 1) return r;
    const k = sign * scaled[i]!;
    const base = codes[i]! * 3;
    const a = bestKey[base]!;
    const b = bestKey[base + 1]!;
    const c = bestKey[base + 2]!;
    bestKey[base] = a < k ? a : k;
    const ak = a < k ? k : a;
    bestKey[base + 1] = b < ak ? b : ak;
    const bk = b < k ? k : b;
    bestKey[base + 2] = c < bk ? c : bk;
  }
  return -1;
}

/**
 * keepStored for frame rows that all have a number, without their row numbers (keptTally): no
 * NULL key, no kind but a number to tell apart, one array moved. Answers -1, or the first frame
 * row with no number, where it stopped.
 */
export function keepNumbers(
  idx: Int32Array,
  codes: Int32Array,
  kind: Uint8Array,
  scaled: Float64Array,
  sign: number,
  keep: number,
  bestKey: Float64Array,
): number {
  const last = keep - 1;
  bestKey.fill(Infinity);
  for (let r = 0; r < idx.length; r++) {
    const i = idx[r]!;
    if (i < 0 || kind[i] !== 1) return r;
    const k = sign * scaled[i]!;
    const base = codes[i]! * keep;
    if (!(k < bestKey[base + last]!)) continue;
    let j = base + last;
    while (j > base && k < bestKey[j - 1]!) {
      bestKey[j] = bestKey[j - 1]!;
      j -= 1;
    }
    bestKey[j] = k;
  }
  return -1;
}

/**
 * tally: how many kept keys pass (a key's number is its place in its partition + 1; a place
 * not filled holds +Infinity), how many of them are numbers (not `nullKey`), their sum and
 * their magnitudes. A partition's places begin `stride` apart; its first `keep` are read.
 */
export function tallyPlaces(
  bestKey: Float64Array,
  stride: number,
  keep: number,
  passes: Uint8Array,
  nullKey: number,
  tally: Float64Array,
): void {
  let rows = 0;
  let numbers = 0;
  let sum = 0;
  let magnitude = 0;
  for (let base = 0; base < bestKey.length; base += stride) {
    for (let j = 0; j < keep; j++) {
      const k = bestKey[base + j]!;
      if (k === Infinity) break;
      if (passes[j + 1] === 0) continue;
      rows += 1;
      if (k === nullKey) continue;
      numbers += 1;
      sum += k;
      magnitude += k < 0 ? -k : k;
    }
  }
  tally[0] = rows;
  tally[1] = numbers;
  tally[2] = sum;
  tally[3] = magnitude;
}

/**
 * tallyPlaces where every place passes and no key is NULL's: one flat loop, half the nested
 * one's time over the bench's 30,000 places (49 against 138 µs).
 */
export function tallyEvery(bestKey: Float64Array, tally: Float64Array): void {
  let rows = 0;
  let sum = 0;
  let magnitude = 0;
  for (let p = 0; p < bestKey.length; p++) {
    const k = bestKey[p]!;
    if (k === Infinity) continue;
    rows += 1;
    sum += k;
    magnitude += Math.abs(k);
  }
  tally[0] = rows;
  tally[1] = rows;
  tally[2] = sum;
  tally[3] = magnitude;
}

/** held[c]: the places of partition c that keepStored filled. */
export function heldOf(bestKey: Float64Array, keep: number, held: Int32Array): void {
  for (let c = 0; c < held.length; c++) {
    const base = c * keep;
    let j = 0;
    while (j < keep && bestKey[base + j]! !== Infinity) j += 1;
    held[c] = j;
  }
}
