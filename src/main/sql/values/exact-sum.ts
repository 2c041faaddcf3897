import {
  addDecimals,
  Decimal,
  divDecimals,
  makeDecimal,
  normalizeDecimal,
  type Num,
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
    const total = this.total();
    if (total === null) return null;
    const quotient = divDecimals(toDecimal(total), new Decimal(BigInt(this.count), 0));
    return quotient === undefined ? null : normalizeDecimal(quotient);
  }
}
