import type { AttributeValue } from '../../../shared/dynamo/attribute-value';
import { numberProblem } from '../../../shared/dynamo/number';
import type { BExpr, PathStep } from '../binder/bound';
import { sqlCompare } from '../values/compare';
import { fromTagged, toTagged, type Value } from '../values/value';
import { isNum, numToString } from '../values/decimal';

/**
 * Conditions DynamoDB can evaluate itself, converted from SQL. Pushdown only ever narrows what
 * is fetched to a superset of the rows SQL keeps — the engine applies the full WHERE again —
 * so a condition is pushed only when DynamoDB's answer is true wherever SQL's is true.
 */
export type DCond =
  | { op: '=' | '<>' | '<' | '<=' | '>' | '>='; path: PathStep[]; value: AttributeValue }
  | { op: 'between'; path: PathStep[]; low: AttributeValue; high: AttributeValue }
  | { op: 'in'; path: PathStep[]; values: AttributeValue[] }
  | { op: 'begins_with' | 'contains'; path: PathStep[]; value: AttributeValue }
  | { op: 'exists' | 'missing'; path: PathStep[] }
  | { op: 'and' | 'or'; parts: DCond[] };

/** A literal DynamoDB accepts as an expression value (numbers within its range and precision). */
function literal(e: BExpr): AttributeValue | undefined {
  if (e.kind !== 'lit') return undefined;
  const v: Value = e.value;
  if (v === null || v === undefined) return undefined;
  if (isNum(v) && numberProblem(numToString(v)) !== undefined) return undefined;
  if (typeof v !== 'string' && typeof v !== 'boolean' && !isNum(v)) return undefined;
  return toTagged(v);
}

function path(e: BExpr, binding: number): PathStep[] | undefined {
  // `tags[0]` is the first element of a list or of a set for SQL; DynamoDB has no element of a
  // set, so a condition through an index could drop rows SQL keeps.
  if (e.kind !== 'col' || e.binding !== binding || e.path.some((step) => typeof step === 'number'))
    return undefined;
  return [e.attr, ...e.path];
}

/** DynamoDB orders (`<`, BETWEEN) only strings, numbers and binary; it rejects anything else. */
function isOrderable(v: AttributeValue): boolean {
  return 'S' in v || 'N' in v || 'B' in v;
}

/** `BETWEEN a AND b` DynamoDB accepts: bounds of one orderable type, the lower not above the upper. */
export function isValidRange(low: AttributeValue, high: AttributeValue): boolean {
  if (!isOrderable(low) || !isOrderable(high)) return false;
  const c = sqlCompare(fromTagged(low), fromTagged(high));
  return c !== null && c <= 0;
}

const FLIP = { '=': '=', '<>': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' } as const;

/** LIKE 'abc%...' → begins_with 'abc'; LIKE '%abc%' → contains 'abc'. */
function likeCondition(p: PathStep[], pattern: string): DCond | undefined {
  if (pattern.includes('\\')) return undefined;
  const firstWild = pattern.search(/[%_]/);
  if (firstWild > 0) return { op: 'begins_with', path: p, value: { S: pattern.slice(0, firstWild) } };
  const inner = /^%([^%_]+)%$/.exec(pattern);
  if (inner) return { op: 'contains', path: p, value: { S: inner[1]! } };
  return undefined;
}

/**
 * SQL condition → DynamoDB condition, or undefined when DynamoDB cannot say it. `nullable`:
 * the binding is the optional side of a LEFT JOIN, where only conditions that are false for a
 * missing row may move into the fetch (IS NULL may not).
 */
export function toDCond(e: BExpr, binding: number, nullable: boolean): DCond | undefined {
  switch (e.kind) {
    case 'binary': {
      if (e.op === 'AND' || e.op === 'OR') {
        const parts = [toDCond(e.left, binding, nullable), toDCond(e.right, binding, nullable)];
        if (e.op === 'OR' && parts.some((p) => p === undefined)) return undefined;
        const kept = parts.filter((p): p is DCond => p !== undefined);
        if (kept.length === 0) return undefined;
        return kept.length === 1 ? kept[0] : { op: e.op === 'AND' ? 'and' : 'or', parts: kept };
      }
      if (!(e.op in FLIP)) return undefined;
      const op = e.op as keyof typeof FLIP;
      const lp = path(e.left, binding);
      const rv = literal(e.right);
      const rp = path(e.right, binding);
      const lv = literal(e.left);
      const value = lp ? rv : lv;
      if (!value || (op !== '=' && op !== '<>' && !isOrderable(value))) return undefined;
      if (lp && rv) return { op, path: lp, value: rv };
      if (rp && lv) return { op: FLIP[op], path: rp, value: lv };
      return undefined;
    }
    case 'between': {
      const p = path(e.operand, binding);
      const [low, high] = [literal(e.low), literal(e.high)];
      // BETWEEN 300 AND 100 is simply false for SQL, but DynamoDB refuses the request.
      if (e.negated || !p || !low || !high || !isValidRange(low, high)) return undefined;
      return { op: 'between', path: p, low, high };
    }
    case 'inList': {
      const p = path(e.operand, binding);
      const values = e.items.map(literal);
      if (e.negated || !p || values.length > 100 || values.some((v) => v === undefined)) return undefined;
      return { op: 'in', path: p, values: values as AttributeValue[] };
    }
    case 'like': {
      const p = path(e.operand, binding);
      if (
        e.negated ||
        e.caseInsensitive ||
        e.escape ||
        !p ||
        e.pattern.kind !== 'lit' ||
        typeof e.pattern.value !== 'string'
      )
        return undefined;
      return likeCondition(p, e.pattern.value);
    }
    case 'call': {
      const p = e.args[0] ? path(e.args[0], binding) : undefined;
      const v = e.args[1] ? literal(e.args[1]) : undefined;
      if (!p || !v || e.args.length !== 2) return undefined;
      if ((e.name === 'BEGINS_WITH' || e.name === 'STARTS_WITH') && 'S' in v && v.S !== '')
        return { op: 'begins_with', path: p, value: v };
      // contains() takes a string or a number (a set's element); '' is in every string for SQL.
      if (e.name === 'CONTAINS' && (('S' in v && v.S !== '') || 'N' in v))
        return { op: 'contains', path: p, value: v };
      return undefined;
    }
    case 'isNull': {
      const p = path(e.operand, binding);
      if (!p) return undefined;
      if (e.negated) return { op: 'exists', path: p };
      return nullable ? undefined : { op: 'missing', path: p };
    }
    default:
      return undefined;
  }
}
