import type { AttributeValue } from '../../../shared/dynamo/attribute-value';
import { ExpressionContext } from '../../../shared/dynamo/expression-context';
import type { PathStep } from '../binder/bound';
import type { DCond } from './conditions';

/**
 * Builds the FilterExpression and ProjectionExpression of the SQL planner's reads on the same
 * placeholders as every other request (ExpressionContext), so reserved words, dots and '#' in
 * names, and any value are safe. showCondition() below is the readable twin, values inline,
 * for the plan preview.
 */
export class ExpressionBuilder extends ExpressionContext {
  condition(c: DCond): string {
    switch (c.op) {
      case 'and':
      case 'or':
        return c.parts.map((p) => `(${this.condition(p)})`).join(c.op === 'and' ? ' AND ' : ' OR ');
      case 'between':
        return `${this.path(c.path)} BETWEEN ${this.value(c.low)} AND ${this.value(c.high)}`;
      case 'in':
        return `${this.path(c.path)} IN (${c.values.map((v) => this.value(v)).join(', ')})`;
      case 'begins_with':
      case 'contains':
        return `${c.op}(${this.path(c.path)}, ${this.value(c.value)})`;
      case 'exists':
        return `attribute_exists(${this.path(c.path)})`;
      case 'missing': {
        // SQL's IS NULL is true for a missing attribute and for DynamoDB's NULL type alike.
        const p = this.path(c.path);
        return `attribute_not_exists(${p}) OR attribute_type(${p}, ${this.value({ S: 'NULL' })})`;
      }
      default:
        return `${this.path(c.path)} ${c.op} ${this.value(c.value)}`;
    }
  }

  /** Names of top-level attributes to fetch (and nothing else). */
  projection(attributes: readonly string[]): string {
    return attributes.map((a) => this.name(a)).join(', ');
  }
}

function showValue(v: AttributeValue): string {
  if ('S' in v) return `'${v.S.replace(/'/g, "''")}'`;
  if ('N' in v) return v.N;
  if ('BOOL' in v) return String(v.BOOL);
  return JSON.stringify(v);
}

function showPath(steps: PathStep[]): string {
  return steps
    .map((s, i) =>
      typeof s === 'number'
        ? `[${s}]`
        : `${i > 0 ? '.' : ''}${/^[A-Za-z_][A-Za-z0-9_]*$/.test(s) ? s : `"${s}"`}`,
    )
    .join('');
}

/** The condition as a person reads it in the plan: `begins_with(SK, 'ORDER#') AND amount > 10`. */
export function showCondition(c: DCond): string {
  switch (c.op) {
    case 'and':
    case 'or':
      return c.parts
        .map((p) => (p.op === 'and' || p.op === 'or' ? `(${showCondition(p)})` : showCondition(p)))
        .join(c.op === 'and' ? ' AND ' : ' OR ');
    case 'between':
      return `${showPath(c.path)} BETWEEN ${showValue(c.low)} AND ${showValue(c.high)}`;
    case 'in':
      return `${showPath(c.path)} IN (${c.values.map(showValue).join(', ')})`;
    case 'begins_with':
    case 'contains':
      return `${c.op}(${showPath(c.path)}, ${showValue(c.value)})`;
    case 'exists':
      return `attribute_exists(${showPath(c.path)})`;
    case 'missing':
      return `attribute_not_exists(${showPath(c.path)}) OR attribute_type(${showPath(c.path)}, NULL)`;
    default:
      return `${showPath(c.path)} ${c.op} ${showValue(c.value)}`;
  }
}
