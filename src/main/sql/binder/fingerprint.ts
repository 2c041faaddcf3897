import { Decimal, decimalToString } from '../values/decimal';
import type { Value } from '../values/value';
import type { BExpr, BoundQuery } from './bound';

const queryIds = new WeakMap<BoundQuery, number>();
let nextQueryId = 1;

function valuePrint(v: Value): string {
  if (v === undefined) return 'missing';
  if (v instanceof Decimal) return `d${decimalToString(v)}`;
  return `${typeof v}:${JSON.stringify(v)}`;
}

function queryPrint(q: BoundQuery): number {
  let id = queryIds.get(q);
  if (id === undefined) {
    id = nextQueryId++;
    queryIds.set(q, id);
  }
  return id;
}

/**
 * A text that is equal for structurally equal expressions, so `SELECT upper(name) ... GROUP BY
 * upper(name)` recognises the grouped expression. Subqueries compare by identity.
 */
export function fingerprint(e: BExpr): string {
  switch (e.kind) {
    case 'lit':
      return valuePrint(e.value);
    case 'col':
      // A plain column (no path) is most of them: its path's text is the constant "[]".
      return `c${e.binding}.${JSON.stringify(e.attr)}${e.path.length === 0 ? '[]' : JSON.stringify(e.path)}`;
    case 'slot':
      return `s${e.index}`;
    case 'param':
      return `p${e.index}`;
    case 'unary':
      return `(${e.op} ${fingerprint(e.operand)})`;
    case 'binary':
      return `(${fingerprint(e.left)} ${e.op} ${fingerprint(e.right)})`;
    case 'isMissing':
      return `(${fingerprint(e.operand)} is${e.negated ? ' not' : ''} missing)`;
    case 'win':
      return `w${e.index}`;
    case 'grouping':
      return `grouping(${e.keys.join(',')})`;
    case 'isNull':
      return `(${fingerprint(e.operand)} is${e.negated ? ' not' : ''} null)`;
    case 'between':
      return `(${fingerprint(e.operand)} ${e.negated ? 'not ' : ''}between ${fingerprint(e.low)} ${fingerprint(e.high)})`;
    case 'inList':
      return `(${fingerprint(e.operand)} ${e.negated ? 'not ' : ''}in [${e.items.map(fingerprint).join(',')}])`;
    case 'inQuery':
      return `(${fingerprint(e.operand)} ${e.negated ? 'not ' : ''}in q${queryPrint(e.query)})`;
    case 'like':
      return `(${fingerprint(e.operand)} ${e.negated ? 'not ' : ''}${e.caseInsensitive ? 'ilike' : 'like'} ${fingerprint(e.pattern)} ${e.escape ? fingerprint(e.escape) : ''})`;
    case 'exists':
      return `(${e.negated ? 'not ' : ''}exists q${queryPrint(e.query)})`;
    case 'scalar':
      return `q${queryPrint(e.query)}`;
    case 'case':
      return `(case ${e.operand ? fingerprint(e.operand) : ''} ${e.whens.map((w) => `${fingerprint(w.when)}→${fingerprint(w.then)}`).join(' ')} else ${e.otherwise ? fingerprint(e.otherwise) : ''})`;
    case 'cast':
      return `(cast ${fingerprint(e.operand)} ${e.type})`;
    case 'call':
      return `${e.name}(${e.args.map(fingerprint).join(',')})`;
  }
}
