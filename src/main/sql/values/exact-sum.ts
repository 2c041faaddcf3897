import {
  addDecimals,
  Decimal,
  DIVISION_DIGITS,
  divDecimals,
  makeDecimal,
  normalizeDecimal,
  type Num,
  pow10Big,
  roundToDigits,
  toDecimal,
} from './decimal';
import { POW10, scaleOf } from './arith';

const SAFE = 9e15; // below 2^53: adding one more value below 1E15 cannot lose a unit

/**
 * SUM that never rounds. Values are added as integers scaled by 10^scale in a double while that
 * stays exact (the common case: prices with two decimals, counts), and spill into a BigInt
 * decimal when a value has more digits or the running total grows past 2^53.
 */
export class ExactSum {
  private scale = 0;
  private acc = 0;
  private big: Decimal | undefined;
  count = 0;

  /** A sum already added up as an integer `acc` scaled by 10^scale (|acc| below 2^53). */
  static fromScaled(acc: number, scale: number, count: number): ExactSum {
    const sum = new ExactSum();
    sum.acc = acc;
    sum.scale = scale;
    sum.count = count;
    return sum;
  }

  add(x: Num): void {
    this.count += 1;
    if (typeof x === 'number') {
      const p = POW10[this.scale]!;
      const r = Math.round(x * p);
      if (r / p === x && r < 1e15 && r > -1e15) {
        const next = this.acc + r;
        if (next < SAFE && next > -SAFE) this.acc = next;
        else {
          this.flush();
          this.acc = r;
        }
        return;
      }
      const k = scaleOf(x);
      if (k > this.scale) {
        // A value with more decimals: move what we have to the BigInt side, then widen the scale.
        this.flush();
        this.scale = k;
        this.acc = Math.round(x * POW10[k]!);
        return;
      }
    }
    this.big = this.big === undefined ? toDecimal(x) : addDecimals(this.big, toDecimal(x));
  }

  private flush(): void {
    if (this.acc === 0) return;
    const part = makeDecimal(BigInt(this.acc), -this.scale);
    this.big = this.big === undefined ? part : addDecimals(this.big, part);
    this.acc = 0;
  }

  /** The exact total, or null when nothing was added (SQL's SUM of no rows). */
  total(): Num | null {
    if (this.count === 0) return null;
    if (this.big === undefined) {
      if (this.acc < 1e15 && this.acc > -1e15) return this.acc / POW10[this.scale]! + 0;
      return normalizeDecimal(makeDecimal(BigInt(this.acc), -this.scale));
    }
    const rest = makeDecimal(BigInt(this.acc), -this.scale);
    return normalizeDecimal(addDecimals(this.big, rest));
  }

  /** AVG: the exact total divided by the count, rounded to 38 significant digits. */
  average(): Num | null {
    if (this.big === undefined && this.count > 0) return scaledQuotient(this.acc, this.count, this.scale);
    const total = this.total();
    if (total === null) return null;
    const quotient = divDecimals(toDecimal(total), new Decimal(BigInt(this.count), 0));
    return quotient === undefined ? null : normalizeDecimal(quotient);
  }
}

/** Decimal digits of a positive safe integer. */
function digitsOf(x: number): number {
  let digits = 1;
  while (digits < 16 && x >= POW10[digits]!) digits += 1;
  return digits;
}

/**
 * acc / count × 10^-scale rounded to 38 digits (half to even), for a sum still held as a safe
 * integer: AVG per group runs this once per group (10,000 customers' averages in a correlated
 * subquery), so it skips the text round trip and digit counts of the general division. An exact
 * integer quotient stays a double; otherwise it is divDecimals' rounding on the same numbers.
 */
function scaledQuotient(acc: number, count: number, scale: number): Num {
  if (acc % count === 0) {
    const q = acc / count;
    if (q < 1e15 && q > -1e15) return q / POW10[scale]! + 0;
  }
  const magnitude = acc < 0 ? -acc : acc;
  if (magnitude === 0) return 0;
  // Two digits more than kept, as divDecimals does; the remainder decides ties.
  const shift = DIVISION_DIGITS + 2 + digitsOf(count) - digitsOf(magnitude);
  const dividend = BigInt(magnitude) * pow10Big(shift);
  const divisor = BigInt(count);
  const quotient = dividend / divisor;
  const inexact = dividend % divisor !== 0n;
  const average = normalizeDecimal(
    roundToDigits(acc < 0 ? -quotient : quotient, -scale - shift, DIVISION_DIGITS, inexact),
  );
  // Two correctly rounded divisions of exact doubles (10^scale is exact): within an ulp of the
  // quotient, which is within 10^-37 relative of its 38-digit rounding. Saves printing it to
  // find its double when it is compared with rows.
  return average instanceof Decimal ? average.knownNear(acc / count / POW10[scale]!) : average;
}
