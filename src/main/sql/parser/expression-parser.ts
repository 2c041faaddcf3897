import type { BinaryOp, Expr } from './ast';
import { PrimaryParser } from './primary-parser';

/**
 * Left-associative binary operators by precedence level: keywords match unquoted identifiers,
 * symbols match operator tokens. NOT and the predicates (=, IS, IN, LIKE, BETWEEN) sit between
 * `and` and `additive` and are not chains, so they keep their own rules.
 */
const BINARY_LEVELS = {
  or: ['OR'],
  and: ['AND'],
  additive: ['+', '-', '||'],
  multiplicative: ['*', '/', '%'],
} as const satisfies Record<string, readonly BinaryOp[]>;

const COMPARISONS: Record<string, BinaryOp> = {
  '=': '=',
  '<>': '<>',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

/** The expression grammar from loosest to tightest; parser.ts adds statements and clauses on top. */
export class ExpressionParser extends PrimaryParser {
  expression(): Expr {
    return this.or();
  }

  private or(): Expr {
    return this.chain(BINARY_LEVELS.or, () => this.and());
  }

  private and(): Expr {
    return this.chain(BINARY_LEVELS.and, () => this.not());
  }

  private not(): Expr {
    const token = this.peek();
    if (this.acceptKeyword('NOT')) {
      const operand = this.not();
      return { kind: 'unary', op: 'NOT', operand, span: this.span(token.start) };
    }
    return this.predicate();
  }

  private predicate(): Expr {
    const left = this.additive();
    const start = left.span.start;
    const token = this.peek();
    if (token.kind === 'op' && COMPARISONS[token.text]) {
      this.next();
      const right = this.additive();
      return { kind: 'binary', op: COMPARISONS[token.text]!, left, right, span: this.span(start) };
    }
    if (this.acceptKeyword('IS')) {
      const negated = this.acceptKeyword('NOT');
      if (this.acceptKeyword('MISSING'))
        return { kind: 'isMissing', operand: left, negated, span: this.span(start) };
      this.expectKeyword('NULL', 'Expected NULL or MISSING after IS');
      return { kind: 'isNull', operand: left, negated, span: this.span(start) };
    }
    const negated =
      this.peekKeyword('NOT') && ['BETWEEN', 'IN', 'LIKE', 'ILIKE'].some((w) => this.peekKeyword(w, 1));
    if (negated) this.next();
    if (this.acceptKeyword('BETWEEN')) {
      const low = this.additive();
      this.expectKeyword('AND', 'Expected AND in BETWEEN low AND high');
      const high = this.additive();
      return { kind: 'between', operand: left, low, high, negated, span: this.span(start) };
    }
    if (this.acceptKeyword('IN')) {
      this.expectOp('(');
      if (this.peekQuery()) {
        const query = this.parseQuery();
        this.expectOp(')');
        return { kind: 'inQuery', operand: left, query, negated, span: this.span(start) };
      }
      const items = [this.expression()];
      while (this.acceptOp(',')) items.push(this.expression());
      this.expectOp(')');
      return { kind: 'inList', operand: left, items, negated, span: this.span(start) };
    }
    const caseInsensitive = this.peekKeyword('ILIKE');
    if (this.acceptKeyword('LIKE') || this.acceptKeyword('ILIKE')) {
      const pattern = this.additive();
      const escape = this.acceptKeyword('ESCAPE') ? this.additive() : undefined;
      return {
        kind: 'like',
        operand: left,
        pattern,
        escape,
        negated,
        caseInsensitive,
        span: this.span(start),
      };
    }
    return left;
  }

  private additive(): Expr {
    return this.chain(BINARY_LEVELS.additive, () => this.multiplicative());
  }

  private multiplicative(): Expr {
    return this.chain(BINARY_LEVELS.multiplicative, () => this.unary());
  }

  private unary(): Expr {
    const token = this.peek();
    if (token.kind === 'op' && (token.text === '-' || token.text === '+')) {
      this.next();
      const operand = this.unary();
      // Fold -<number> into the literal so -1E+125 stays one exact literal; - -41 is 41.
      if (token.text === '-' && operand.kind === 'literal' && operand.value.type === 'number') {
        const text = operand.value.text;
        return {
          kind: 'literal',
          value: { type: 'number', text: text.startsWith('-') ? text.slice(1) : `-${text}` },
          span: this.span(token.start),
        };
      }
      return { kind: 'unary', op: token.text, operand, span: this.span(token.start) };
    }
    return this.primary();
  }

  /** `operand (op operand)*` folded to the left, so a - b - c is (a - b) - c. */
  private chain(ops: readonly BinaryOp[], operand: () => Expr): Expr {
    let left = operand();
    for (let op = this.acceptBinary(ops); op; op = this.acceptBinary(ops)) {
      const right = operand();
      left = { kind: 'binary', op, left, right, span: { start: left.span.start, end: right.span.end } };
    }
    return left;
  }

  private acceptBinary(ops: readonly BinaryOp[]): BinaryOp | undefined {
    const token = this.peek();
    const word = token.kind === 'ident' ? token.upper : token.kind === 'op' ? token.text : undefined;
    const op = ops.find((candidate) => candidate === word);
    if (op) this.next();
    return op;
  }
}
