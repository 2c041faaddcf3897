import type { BinaryOp, Expr } from './ast';
import type { Token } from './lexer';
import { PrimaryParser } from './primary-parser';

/**
 * Left-associative binary operators, loosest first: OR, AND, then (below NOT and the predicates
 * =, IS, IN, LIKE, BETWEEN, which are not chains and keep their own rules) + - ||, then * / %.
 * Each level is a loop of its own, not a chain given a closure per level and a list to search:
 * those were four closures and four searches for every operand of a statement (docs/PERFORMANCE.md,
 * session 23, sqlfixed3).
 */
function additiveOp(token: Token): BinaryOp | undefined {
  if (token.kind !== 'op') return undefined;
  return token.text === '+' || token.text === '-' || token.text === '||' ? token.text : undefined;
}

function multiplicativeOp(token: Token): BinaryOp | undefined {
  if (token.kind !== 'op') return undefined;
  return token.text === '*' || token.text === '/' || token.text === '%' ? token.text : undefined;
}

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
    let left = this.and();
    while (this.acceptKeyword('OR')) left = binary('OR', left, this.and());
    return left;
  }

  private and(): Expr {
    let left = this.not();
    while (this.acceptKeyword('AND')) left = binary('AND', left, this.not());
    return left;
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
    let left = this.multiplicative();
    for (let op = additiveOp(this.peek()); op; op = additiveOp(this.peek())) {
      this.next();
      left = binary(op, left, this.multiplicative());
    }
    return left;
  }

  private multiplicative(): Expr {
    let left = this.unary();
    for (let op = multiplicativeOp(this.peek()); op; op = multiplicativeOp(this.peek())) {
      this.next();
      left = binary(op, left, this.unary());
    }
    return left;
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
}

/** `left op right`, folded to the left by the loops above, so a - b - c is (a - b) - c. */
function binary(op: BinaryOp, left: Expr, right: Expr): Expr {
  return { kind: 'binary', op, left, right, span: { start: left.span.start, end: right.span.end } };
}
