import { sortCompare } from '../../values/compare';
import { isNum } from '../../values/decimal';
import { ExactSum } from '../../values/exact-sum';
import { isNull, type Value } from '../../values/value';

/**
 * An aggregate over a window frame, with the same rules as GROUP BY's (aggregate.ts): SUM and
 * AVG add only numbers, exactly; MIN and MAX prefer numbers over other types; COUNT counts
 * values that are not NULL (or rows, for COUNT(*)).
 */
export interface FrameAccumulator {
  add(v: Value): void;
  result(): Value;
}

class CountAccumulator implements FrameAccumulator {
  private count = 0;
  constructor(private readonly rows: boolean) {}
  add(v: Value): void {
    if (this.rows || !isNull(v)) this.count += 1;
  }
  result(): Value {
    return this.count;
  }
}

class SumAccumulator implements FrameAccumulator {
  private readonly sum = new ExactSum();
  constructor(private readonly average: boolean) {}
  add(v: Value): void {
    if (isNum(v)) this.sum.add(v);
  }
  result(): Value {
    return this.average ? this.sum.average() : this.sum.total();
  }
}

class ExtremeAccumulator implements FrameAccumulator {
  private bestNumber: Value = null;
  private bestOther: Value = null;
  constructor(private readonly sign: number) {}
  add(v: Value): void {
    if (isNull(v)) return;
    const current = isNum(v) ? this.bestNumber : this.bestOther;
    if (current !== null && sortCompare(v, current) * this.sign <= 0) return;
    if (isNum(v)) this.bestNumber = v;
    else this.bestOther = v;
  }
  result(): Value {
    return this.bestNumber ?? this.bestOther;
  }
}

export function frameAccumulator(name: string, star: boolean): () => FrameAccumulator {
  switch (name) {
    case 'COUNT':
      return () => new CountAccumulator(star);
    case 'SUM':
      return () => new SumAccumulator(false);
    case 'AVG':
      return () => new SumAccumulator(true);
    case 'MIN':
      return () => new ExtremeAccumulator(-1);
    default:
      return () => new ExtremeAccumulator(1);
  }
}
