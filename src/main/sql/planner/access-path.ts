import type { AttributeValue, Item } from '../../../shared/dynamo/attribute-value';
import { keyAttributeNames, partitionAttributes, sortAttributes } from '../../../shared/dynamo/key-model';
import type { IndexInfo } from '../../../shared/ipc/tables';
import type { TableInfo } from '../../../shared/sql/catalog';
import { type DCond, isValidRange } from './conditions';
import { hashKey, type HashKey } from '../values/compare';
import { fromTagged } from '../values/value';
import { showCondition } from './expression-builder';

export interface SortCondition {
  name: string;
  op: '=' | '<' | '<=' | '>' | '>=' | 'between' | 'begins_with';
  values: AttributeValue[];
}

export type Access =
  | { operation: 'GetItem' | 'BatchGetItem'; keys: Item[] }
  | {
      operation: 'Query';
      index?: string;
      partition: { name: string; values: AttributeValue[] };
      /**
       * A multi-attribute index key: = on its further partition attributes and on the sort
       * attributes before `sort`'s, one value each (key-model.ts). DynamoDB takes them in any order.
       */
      equalities?: { name: string; value: AttributeValue }[];
      sort?: SortCondition;
    }
  | { operation: 'Scan'; segments: number };

export interface AccessChoice {
  access: Access;
  /** Conditions the key access already guarantees or that DynamoDB may not filter on. */
  consumed: Set<DCond>;
  reason: string;
}

/** Batch lookups and multi-partition queries stay small; beyond this a Scan is simpler. */
export const MAX_KEYS = 1000;
export const MAX_PARTITIONS = 25;

type KeyDef = { name: string; type: 'S' | 'N' | 'B' };

function typeMatches(v: AttributeValue, key: KeyDef): boolean {
  // DynamoDB rejects a key condition whose value has another type, and empty key strings.
  if (key.type === 'S') return 'S' in v && v.S !== '';
  if (key.type === 'N') return 'N' in v;
  return 'B' in v && v.B !== '';
}

/**
 * `IN ('a', 'a')` and `IN (1, 1.0)` name one key twice: DynamoDB refuses duplicate keys in a
 * BatchGetItem, and a partition queried twice would return its items twice.
 */
function distinct(values: AttributeValue[]): AttributeValue[] {
  const seen = new Set<HashKey>();
  return values.filter((v) => {
    const key = hashKey(fromTagged(v));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function equalities(conds: DCond[], key: KeyDef): { values: AttributeValue[]; cond: DCond } | undefined {
  for (const c of conds) {
    if (c.op === '=' && c.path.length === 1 && c.path[0] === key.name && typeMatches(c.value, key))
      return { values: [c.value], cond: c };
    if (
      c.op === 'in' &&
      c.path.length === 1 &&
      c.path[0] === key.name &&
      c.values.every((v) => typeMatches(v, key))
    )
      return { values: distinct(c.values), cond: c };
  }
  return undefined;
}

function sortCondition(
  conds: DCond[],
  key: KeyDef | undefined,
): { sort: SortCondition; used: DCond[] } | undefined {
  if (!key) return undefined;
  const mine = conds.filter((c) => 'path' in c && c.path.length === 1 && c.path[0] === key.name);
  const pick = (op: string) => mine.find((c) => c.op === op);
  const eq = pick('=');
  if (eq && eq.op === '=' && typeMatches(eq.value, key))
    return { sort: { name: key.name, op: '=', values: [eq.value] }, used: [eq] };
  const between = pick('between');
  if (
    between?.op === 'between' &&
    typeMatches(between.low, key) &&
    typeMatches(between.high, key) &&
    isValidRange(between.low, between.high)
  ) {
    return { sort: { name: key.name, op: 'between', values: [between.low, between.high] }, used: [between] };
  }
  const prefix = pick('begins_with');
  if (prefix?.op === 'begins_with' && key.type !== 'N' && typeMatches(prefix.value, key)) {
    return { sort: { name: key.name, op: 'begins_with', values: [prefix.value] }, used: [prefix] };
  }
  const lower = mine.find((c) => (c.op === '>' || c.op === '>=') && typeMatches(c.value, key));
  const upper = mine.find((c) => (c.op === '<' || c.op === '<=') && typeMatches(c.value, key));
  if (lower?.op === '>=' && upper?.op === '<=' && isValidRange(lower.value, upper.value))
    return {
      sort: { name: key.name, op: 'between', values: [lower.value, upper.value] },
      used: [lower, upper],
    };
  const one = lower ?? upper;
  if (one && (one.op === '>' || one.op === '>=' || one.op === '<' || one.op === '<='))
    return { sort: { name: key.name, op: one.op, values: [one.value] }, used: [one] };
  return undefined;
}

function covers(index: IndexInfo, table: TableInfo, needed: Set<string> | 'ALL'): boolean {
  if (index.projection === 'ALL') return true;
  if (needed === 'ALL') return false;
  const available = new Set([
    ...keyAttributeNames(table.keys),
    ...keyAttributeNames(index.keys),
    ...(index.projectedAttributes ?? []),
  ]);
  return [...needed].every((a) => available.has(a));
}

/** Key attributes a Query's FilterExpression may not mention (DynamoDB refuses them there). */
function keyNames(table: TableInfo, index?: IndexInfo): string[] {
  return [...keyAttributeNames(table.keys), ...(index ? keyAttributeNames(index.keys) : [])];
}

/** The one `=` condition on `key` with a value of its type (a multi-attribute key takes no IN there). */
function singleEquality(conds: DCond[], key: KeyDef): DCond | undefined {
  return conds.find(
    (c) => c.op === '=' && c.path.length === 1 && c.path[0] === key.name && typeMatches(c.value, key),
  );
}

type IndexQuery = { access: Extract<Access, { operation: 'Query' }>; used: DCond[] };

/**
 * A Query on a GSI, or why there is none: DynamoDB needs = on every partition attribute of the
 * index (IN only on the first, each value its own Query), and reads sort attributes left to right
 * with = on all but the last one used, which may take a range or begins_with.
 */
function indexQuery(gsi: IndexInfo, conds: DCond[]): IndexQuery | string {
  const [first, ...rest] = partitionAttributes(gsi.keys);
  const partition = first ? equalities(conds, first) : undefined;
  const missing = [first, ...rest].filter((a, i) => a && (i === 0 ? !partition : !singleEquality(conds, a)));
  if (!first || !partition || missing.length > 0) {
    const names = partitionAttributes(gsi.keys).map((a) => a.name);
    return names.length === 1
      ? ''
      : `index ${gsi.name} needs = on every partition attribute (${names.join(', ')}); none is given for ${missing.map((a) => a?.name).join(', ')}`;
  }
  if (partition.values.length > MAX_PARTITIONS) return '';
  const equalitiesUsed: DCond[] = [];
  const equal: { name: string; value: AttributeValue }[] = [];
  for (const a of rest) {
    const c = singleEquality(conds, a);
    if (c?.op === '=') {
      equal.push({ name: a.name, value: c.value });
      equalitiesUsed.push(c);
    }
  }
  const sortKeys = sortAttributes(gsi.keys);
  let sort: { sort: SortCondition; used: DCond[] } | undefined;
  for (let i = 0; i < sortKeys.length; i++) {
    const attribute = sortKeys[i]!;
    const eq = i < sortKeys.length - 1 ? singleEquality(conds, attribute) : undefined;
    if (eq?.op === '=') {
      equal.push({ name: attribute.name, value: eq.value });
      equalitiesUsed.push(eq);
      continue;
    }
    sort = sortCondition(conds, attribute);
    break;
  }
  return {
    access: {
      operation: 'Query',
      index: gsi.name,
      partition: { name: first.name, values: partition.values },
      ...(equal.length > 0 ? { equalities: equal } : {}),
      sort: sort?.sort,
    },
    used: [partition.cond, ...equalitiesUsed, ...(sort?.used ?? [])],
  };
}

/** A Query's key conditions, plus every other condition on a key attribute (see keyNames). */
function queryConsumes(
  table: TableInfo,
  index: IndexInfo | undefined,
  conds: DCond[],
  keyConds: DCond[],
): Set<DCond> {
  const consumed = new Set<DCond>(keyConds);
  const keys = keyNames(table, index);
  for (const c of conds) if (mentions(c, keys)) consumed.add(c);
  return consumed;
}

/** Whether a condition reads one of `names`, also inside AND/OR (`SK = 1 OR SK = 3`). */
function mentions(c: DCond, names: string[]): boolean {
  if ('parts' in c) return c.parts.some((p) => mentions(p, names));
  return names.includes(String(c.path[0]));
}

function show(values: AttributeValue[], name: string): string {
  return values.length === 1
    ? showCondition({ op: '=', path: [name], value: values[0]! })
    : showCondition({ op: 'in', path: [name], values });
}

/**
 * The cheapest DynamoDB read that returns every item the conditions can keep: GetItem or
 * BatchGetItem for full keys, Query for a partition key (table, LSI, then GSIs), else Scan.
 */
export function chooseAccess(table: TableInfo, conds: DCond[], needed: Set<string> | 'ALL'): AccessChoice {
  const pk = table.keys.partitionKey;
  const sk = table.keys.sortKey;
  const partition = equalities(conds, pk);
  if (partition) {
    const sortValues = sk ? equalities(conds, sk) : undefined;
    if (!sk || (sortValues && partition.values.length * sortValues.values.length <= MAX_KEYS)) {
      const keys: Item[] = [];
      for (const p of partition.values) {
        if (!sk) keys.push({ [pk.name]: p });
        else for (const s of sortValues!.values) keys.push({ [pk.name]: p, [sk.name]: s });
      }
      if (keys.length <= MAX_KEYS) {
        const consumed = new Set<DCond>([partition.cond, ...(sortValues ? [sortValues.cond] : [])]);
        const operation = keys.length === 1 ? 'GetItem' : 'BatchGetItem';
        return {
          access: { operation, keys },
          consumed,
          reason: `the full primary key is given (${show(partition.values, pk.name)}${sortValues ? ` and ${show(sortValues.values, sk!.name)}` : ''})`,
        };
      }
    }
    if (partition.values.length <= MAX_PARTITIONS) {
      let sort = sortCondition(conds, sk);
      let index: IndexInfo | undefined;
      if (!sort) {
        for (const lsi of table.indexes.filter((i) => i.kind === 'LSI' && covers(i, table, needed))) {
          const candidate = sortCondition(conds, lsi.keys.sortKey);
          if (candidate) {
            sort = candidate;
            index = lsi;
            break;
          }
        }
      }
      return {
        access: {
          operation: 'Query',
          index: index?.name,
          partition: { name: pk.name, values: partition.values },
          sort: sort?.sort,
        },
        consumed: queryConsumes(table, index, conds, [partition.cond, ...(sort?.used ?? [])]),
        reason: `${show(partition.values, pk.name)} is the table's partition key${index ? `; ${index.name} has the sort condition` : ''}`,
      };
    }
  }
  const whyNot: string[] = [];
  for (const gsi of table.indexes.filter((i) => i.kind === 'GSI')) {
    const found = indexQuery(gsi, conds);
    if (typeof found === 'string') {
      if (found) whyNot.push(found);
      continue;
    }
    if (!covers(gsi, table, needed)) continue;
    const names = partitionAttributes(gsi.keys).map((a) => a.name);
    return {
      access: found.access,
      consumed: queryConsumes(table, gsi, conds, found.used),
      reason:
        names.length === 1
          ? `${show(found.access.partition.values, names[0]!)} is the partition key of index ${gsi.name}`
          : `every partition attribute of index ${gsi.name} (${names.join(', ')}) is given with =`,
    };
  }
  const megabytes = table.sizeBytes / 2 ** 20;
  // One segment per ~64 MB, at most 8: DynamoDB serves segments in parallel, and more than a
  // few concurrent pages only queue behind each other on a laptop's connection.
  const segments = Math.min(8, Math.max(1, Math.ceil(megabytes / 64)));
  const hasCondition = conds.length > 0;
  return {
    access: { operation: 'Scan', segments },
    consumed: new Set(),
    reason: hasCondition
      ? `no condition on a partition key (of the table or an index): Scan with a filter${whyNot.length > 0 ? `; ${whyNot.join('; ')}` : ''}`
      : 'no condition narrows the items: Scan',
  };
}
