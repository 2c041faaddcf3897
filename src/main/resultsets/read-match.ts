import { typeOf, type AttributeValue, type Item } from '../../shared/dynamo/attribute-value';
import { keyAttributeNames, partitionAttributes, sortAttributes } from '../../shared/dynamo/key-model';
import { ownValue } from '../../shared/dynamo/proto-keys';
import { valuesEqual } from '../../shared/dynamo/value-equality';
import { compareValues } from '../../shared/dynamo/value-order';
import type { FilterCondition, FilterGroup, ReadSpec, SortKeyCondition } from '../../shared/ipc/query';
import type { KeySchema } from '../../shared/ipc/tables';

/**
 * What a result set was read with, so a write DynoTable makes can be applied to it: whether a
 * written item belongs in it, and which of its attributes the read would have returned.
 */
export interface ReadScope {
  /** The table's key attributes: how a written item is found among the rows. */
  tableKeys: string[];
  spec: ReadSpec;
  /** The index's key schema when the read went to an index. */
  indexKeys?: KeySchema;
  /** Attributes the index projects besides keys (INCLUDE); absent when it projects ALL. */
  indexProjection?: { isKeysOnly: boolean; attributes: string[] };
}

/** true: the read would return the item; false: it would not; undefined: we cannot tell. */
export type Verdict = boolean | undefined;

/**
 * Whether the read would return `item`. Raw expressions and the rarer filter operators are not
 * evaluated here (undefined): the result set is then marked as possibly stale rather than guessed at.
 */
export function readMatches(scope: ReadScope, item: Item): Verdict {
  const { spec, indexKeys } = scope;
  if (spec.raw?.keyCondition || spec.raw?.filter) return undefined;
  // An index holds only the items that carry every one of its key attributes (a sparse index).
  if (indexKeys && keyAttributeNames(indexKeys).some((name) => ownValue(item, name) === undefined))
    return false;
  if (spec.mode === 'query') {
    const keys = indexKeys ?? tableKeySchema(scope);
    if (!keys || !spec.partitionKey) return undefined;
    // Every partition attribute by `=`, then the sort conditions left to right (key-model order).
    const partition = partitionAttributes(keys);
    const values = [spec.partitionKey, ...(spec.morePartitionKeys ?? [])];
    if (values.length !== partition.length) return undefined;
    for (const [i, attribute] of partition.entries()) {
      const value = ownValue(item, attribute.name);
      if (!value || !valuesEqual(value, values[i] as AttributeValue)) return false;
    }
    const sorts = sortAttributes(keys);
    for (const [i, condition] of [spec.sortKey, ...(spec.moreSortKeys ?? [])].entries()) {
      if (!condition) continue;
      const attribute = sorts[i];
      if (!attribute) return undefined;
      const verdict = sortKeyMatches(ownValue(item, attribute.name), condition);
      if (verdict !== true) return verdict;
    }
  }
  return spec.filter ? groupMatches(spec.filter, item) : true;
}

/** The attributes of `item` that the read returns (its projection, an index's projection). */
export function projectForRead(scope: ReadScope, item: Item): Item | undefined {
  let names: Set<string> | undefined;
  if (scope.indexProjection && scope.indexKeys) {
    names = new Set([...scope.tableKeys, ...keyAttributeNames(scope.indexKeys)]);
    if (!scope.indexProjection.isKeysOnly)
      for (const name of scope.indexProjection.attributes) names.add(name);
  }
  const projection = scope.spec.projection;
  if (projection && projection.length > 0) {
    // A nested path returns part of a map or list; we do not rebuild that shape here.
    if (projection.some((path) => path.length !== 1 || typeof path[0] !== 'string')) return undefined;
    const wanted = new Set(projection.map((path) => String(path[0])));
    names = names ? new Set([...names].filter((n) => wanted.has(n))) : wanted;
  }
  if (!names) return item;
  const out: Item = Object.create(null) as Item;
  for (const name of names) {
    const value = ownValue(item, name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function tableKeySchema(scope: ReadScope): KeySchema | undefined {
  // Only the names are needed to read values; the types are never consulted.
  const [pk, sk] = scope.tableKeys;
  if (pk === undefined) return undefined;
  return {
    partitionKey: { name: pk, type: 'S' },
    ...(sk !== undefined ? { sortKey: { name: sk, type: 'S' } } : {}),
  };
}

function sortKeyMatches(value: AttributeValue | undefined, condition: SortKeyCondition): Verdict {
  if (value === undefined) return false;
  return compare(value, condition.op, condition.value, condition.value2);
}

function groupMatches(group: FilterGroup, item: Item): Verdict {
  let verdict: Verdict = group.join === 'AND';
  for (const part of group.items) {
    const one = part.kind === 'group' ? groupMatches(part, item) : conditionMatches(part, item);
    if (group.join === 'AND') {
      if (one === false) return group.not ? true : false;
      if (one === undefined) verdict = undefined;
    } else {
      if (one === true) return group.not ? false : true;
      if (one === undefined) verdict = undefined;
    }
  }
  if (verdict === undefined) return undefined;
  return group.not ? !verdict : verdict;
}

function valueAt(item: Item, path: (string | number)[]): AttributeValue | undefined {
  let value: AttributeValue | undefined = item[String(path[0])];
  for (const step of path.slice(1)) {
    if (value === undefined) return undefined;
    if (typeof step === 'number') value = 'L' in value ? value.L[step] : undefined;
    else value = 'M' in value ? value.M[step] : undefined;
  }
  return value;
}

function conditionMatches(condition: FilterCondition, item: Item): Verdict {
  const value = valueAt(item, condition.path);
  switch (condition.op) {
    case 'attribute_exists':
      return value !== undefined;
    case 'attribute_not_exists':
      return value === undefined;
    case 'attribute_type':
      return value !== undefined && condition.type !== undefined && typeOf(value) === condition.type;
    case 'in':
      if (value === undefined) return false;
      return (condition.values ?? []).some((candidate) => valuesEqual(value, candidate));
    case 'contains':
    case 'not_contains': {
      const found = contains(value, condition.value);
      if (found === undefined) return undefined;
      return condition.op === 'contains' ? found : !found;
    }
    case 'size':
      return undefined;
    default:
      if (!condition.value) return undefined;
      if (value === undefined) return condition.op === '<>' ? undefined : false;
      return compare(value, condition.op, condition.value, condition.value2);
  }
}

function compare(
  value: AttributeValue,
  op: string,
  operand: AttributeValue,
  upper: AttributeValue | undefined,
): Verdict {
  if (op === '=') return valuesEqual(value, operand);
  if (op === '<>') return !valuesEqual(value, operand);
  const type = typeOf(value);
  // Binary orders by bytes, which the base64 text does not keep; other types do not order.
  if (type !== 'S' && type !== 'N') return type === 'B' ? undefined : false;
  if (typeOf(operand) !== type) return false;
  if (op === 'begins_with')
    return type === 'S' && 'S' in value && 'S' in operand && value.S.startsWith(operand.S);
  const order = compareValues(value, operand);
  switch (op) {
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
    case 'between':
      return upper !== undefined && typeOf(upper) === type && order >= 0 && compareValues(value, upper) <= 0;
    default:
      return undefined;
  }
}

function contains(value: AttributeValue | undefined, operand: AttributeValue | undefined): Verdict {
  if (value === undefined) return false;
  if (operand === undefined) return undefined;
  if ('S' in value) return 'S' in operand ? value.S.includes(operand.S) : false;
  if ('SS' in value) return 'S' in operand ? value.SS.includes(operand.S) : false;
  if ('L' in value) return value.L.some((member) => valuesEqual(member, operand));
  // Number and binary sets compare by value, not by text; not evaluated here.
  if ('NS' in value || 'BS' in value) return undefined;
  return false;
}
