import type { Expr } from './ast';
import { ExpressionParser } from './expression-parser';

/** One GROUP BY element as the grouping sets it stands for, each a list of expressions. */
type Element = Expr[][];

/**
 * GROUP BY with ROLLUP, CUBE and GROUPING SETS. The result lists each distinct key expression
 * once; the sets name keys by position, and the elements of the clause combine as a cross
 * product (`GROUP BY a, ROLLUP(b, c)` is (a, b, c), (a, b), (a)), as in the SQL standard.
 */
export abstract class GroupByParser extends ExpressionParser {
  protected groupByClause(): { groupBy: Expr[]; groupingSets?: number[][] } {
    const elements: Element[] = [];
    let plain = true;
    do {
      const element = this.groupElement();
      if (element.length !== 1 || element[0]!.length !== 1) plain = false;
      elements.push(element);
    } while (this.acceptOp(','));
    const groupBy: Expr[] = [];
    const positionOf = (e: Expr): number => {
      const text = this.text.slice(e.span.start, e.span.end);
      let index = groupBy.findIndex((g) => this.text.slice(g.span.start, g.span.end) === text);
      if (index < 0) index = groupBy.push(e) - 1;
      return index;
    };
    let sets: number[][] = [[]];
    for (const element of elements) {
      const positions = element.map((set) => set.map(positionOf));
      sets = sets.flatMap((prefix) => positions.map((set) => [...new Set([...prefix, ...set])]));
    }
    return plain ? { groupBy } : { groupBy, groupingSets: sets };
  }

  private groupElement(): Element {
    const token = this.peek();
    const isList = (word: string): boolean =>
      token.kind === 'ident' && token.upper === word && this.peekOp('(', 1);
    if (isList('ROLLUP') || isList('CUBE')) {
      this.next();
      const parts = this.parenthesized(() => {
        const list: Expr[][] = [];
        do list.push(this.keyList());
        while (this.acceptOp(','));
        return list;
      });
      if (token.upper === 'ROLLUP')
        return parts.map((_, n) => parts.slice(0, parts.length - n).flat()).concat([[]]);
      return subsets(parts);
    }
    if (token.kind === 'ident' && token.upper === 'GROUPING' && this.peekKeyword('SETS', 1)) {
      this.next();
      this.next();
      return this.parenthesized(() => {
        const sets: Expr[][] = [];
        do {
          if (this.peekOp('(') && this.peekOp(')', 1)) {
            this.next();
            this.next();
            sets.push([]);
          } else sets.push(this.keyList());
        } while (this.acceptOp(','));
        return sets;
      });
    }
    if (this.peekOp('(') && this.peekOp(')', 1)) {
      this.next();
      this.next();
      return [[]];
    }
    return [[this.expression()]];
  }

  /** `a` or `(a, b)`: one key or a composite of keys that roll up together. */
  private keyList(): Expr[] {
    if (!this.peekOp('(')) return [this.expression()];
    this.next();
    const keys = [this.expression()];
    while (this.acceptOp(',')) keys.push(this.expression());
    this.expectOp(')');
    return keys;
  }

  private parenthesized<T>(inner: () => T): T {
    this.expectOp('(');
    const value = inner();
    this.expectOp(')');
    return value;
  }
}

/** CUBE(a, b): every subset, largest first, as (a, b), (a), (b), (). */
function subsets(parts: Expr[][]): Expr[][] {
  const out: Expr[][] = [];
  const count = 1 << parts.length;
  for (let mask = count - 1; mask >= 0; mask--)
    out.push(parts.filter((_, i) => mask & (1 << (parts.length - 1 - i))).flat());
  return out;
}
