import {
  addDecimals,
  type Decimal,
  divDecimals,
  makeDecimal,
  mulDecimals,
  normalizeDecimal,
  type Num,
  pow10Big,
  toDecimal,
} from './decimal';

/**
 * Arithmetic on exact numbers. The fast paths stay in doubles only while the integer they work
 * on is below 1E15 (so below 2^53 with room for one carry) — then every step is exact — and fall
 * back to BigInt decimals otherwise. 0.1 + 0.2 is 0.3 here, as it is in DynamoDB.
 */
export const POW10: readonly number[] = Array.from({ length: 23 }, (_, k) => 10 ** k);
const LIMIT = 1e15;

/**
 * Decimal places of a double that holds a ≤15-digit decimal, or -1. Math.round(x·10^k)/10^k === x
 * with |x·10^k| < 1E15 means a decimal of at most 15 digits rounds to x, and only one such
 * decimal can, so it is the value x stands for.
 */
export function scaleOf(x: number): number {
  for (let k = 0; k <= 15; k++) {
    const r = Math.round(x * POW10[k]!);
    if (r >= LIMIT || r <= -LIMIT) return -1;
    if (r / POW10[k]! === x) return k;
  }
  return -1;
}

function fromScaled(r: number, k: number): Num {
  if (r < LIMIT && r > -LIMIT) return r / POW10[k]! + 0;
  return normalizeDecimal(makeDecimal(BigInt(r), -k));
}

export function add(a: Num, b: Num): Num {
  if (typeof a === 'number' && typeof b === 'number') {
    const sum = a + b;
    if (Number.isInteger(a) && Number.isInteger(b) && sum < LIMIT && sum > -LIMIT) return sum + 0;
    const ka = scaleOf(a);
    const kb = scaleOf(b);
    if (ka >= 0 && kb >= 0) {
      const k = Math.max(ka, kb);
      const ra = Math.round(a * POW10[k]!);
      const rb = Math.round(b * POW10[k]!);
      if (ra < LIMIT && ra > -LIMIT && rb < LIMIT && rb > -LIMIT) return fromScaled(ra + rb, k);
    }
  }
  return normalizeDecimal(addDecimals(toDecimal(a), toDecimal(b)));
}

export function negate(a: Num): Num {
  if (typeof a === 'number') return -a + 0;
  return normalizeDecimal(makeDecimal(-a.coef, a.exp));
}

export function subtract(a: Num, b: Num): Num {
  return add(a, negate(b));
}

export function multiply(a: Num, b: Num): Num {
  if (typeof a === 'number' && typeof b === 'number') {
    const product = a * b;
    if (Number.isInteger(a) && Number.isInteger(b) && product < LIMIT && product > -LIMIT) return product + 0;
    const ka = scaleOf(a);
    const kb = scaleOf(b);
    if (ka >= 0 && kb >= 0 && ka + kb <= 22) {
      const scaled = Math.round(a * POW10[ka]!) * Math.round(b * POW10[kb]!);
      if (scaled < LIMIT && scaled > -LIMIT) return fromScaled(scaled, ka + kb);
    }
  }
  return normalizeDecimal(mulDecimals(toDecimal(a), toDecimal(b)));
}

/** Division rounds to 38 significant digits (DynamoDB's precision); undefined for division by zero. */
export function divide(a: Num, b: Num): Num | undefined {
  if (typeof a === 'number' && typeof b === 'number') {
    if (b === 0) return undefined;
    if (Number.isInteger(a) && Number.isInteger(b) && a % b === 0 && a < LIMIT && a > -LIMIT)
      return a / b + 0;
  }
  const quotient = divDecimals(toDecimal(a), toDecimal(b));
  return quotient === undefined ? undefined : normalizeDecimal(quotient);
}

/** Remainder with the sign of the dividend, as in SQL's % and MOD. */
export function modulo(a: Num, b: Num): Num | undefined {
  if (typeof a === 'number' && typeof b === 'number' && Number.isInteger(a) && Number.isInteger(b)) {
    return b === 0 ? undefined : (a % b) + 0;
  }
  const x = toDecimal(a);
  const y = toDecimal(b);
  if (y.coef === 0n) return undefined;
  const exp = Math.min(x.exp, y.exp);
  const cx = x.coef * pow10Big(x.exp - exp);
  const cy = y.coef * pow10Big(y.exp - exp);
  return normalizeDecimal(makeDecimal(cx % cy, exp));
}

export function isZero(a: Num): boolean {
  return typeof a === 'number' ? a === 0 : a.coef === 0n;
}

export function signOf(a: Num): number {
  if (typeof a === 'number') return a < 0 ? -1 : a > 0 ? 1 : 0;
  return a.coef < 0n ? -1 : a.coef > 0n ? 1 : 0;
}

export type { Decimal };
