import type { FilterCondition, FilterGroup, ReadSpec, SortKeyCondition } from '../ipc/query';
import type { IndexInfo, KeySchema } from '../ipc/tables';
import { typeOf, type AttributeValue, type Item } from './attribute-value';
import { ExpressionContext } from './expression-context';

/** The Query or Scan request the builder produces, in tagged form (shown, copied, then sent). */
export interface ReadRequest {
  operation: 'Query' | 'Scan';
  input: {
    TableName: string;
    IndexName?: string;
    KeyConditionExpression?: string;
    FilterExpression?: string;
    ProjectionExpression?: string;
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Item;
    ScanIndexForward?: boolean;
    ConsistentRead?: boolean;
  };
}

export interface ReadTarget {
  table: string;
  keys: KeySchema;
  indexes: IndexInfo[];
}

/** A builder mistake, named by the field the user should fix. */
export class ReadSpecError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export const GSI_CONSISTENT_READ =
  'Global secondary indexes are always eventually consistent: DynamoDB refuses a consistent read on them. Read the table or a local index, or turn consistent read off.';

function keysFor(
  target: ReadTarget,
  index: string | undefined,
): { keys: KeySchema; kind: 'table' | 'GSI' | 'LSI' } {
  if (!index) return { keys: target.keys, kind: 'table' };
  const found = target.indexes.find((i) => i.name === index);
  if (!found) throw new ReadSpecError('index', `The table ${target.table} has no index named ${index}.`);
  return { keys: found.keys, kind: found.kind };
}

function sortCondition(
  ctx: ExpressionContext,
  name: string,
  type: string,
  condition: SortKeyCondition,
): string {
  const check = (value: AttributeValue): string => {
    if (typeOf(value) !== type)
      throw new ReadSpecError('sortKey', `The sort key "${name}" is of type ${type}, not ${typeOf(value)}.`);
    return ctx.value(value);
  };
  const path = ctx.name(name);
  switch (condition.op) {
    case 'begins_with':
      if (type === 'N')
        throw new ReadSpecError('sortKey', 'begins_with works on string and binary sort keys, not numbers.');
      return `begins_with(${path}, ${check(condition.value)})`;
    case 'between':
      if (!condition.value2) throw new ReadSpecError('sortKey', 'between needs an upper bound.');
      return `${path} BETWEEN ${check(condition.value)} AND ${check(condition.value2)}`;
    default:
      return `${path} ${condition.op} ${check(condition.value)}`;
  }
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new ReadSpecError('filter', `The filter needs ${what}.`);
  return value;
}

function conditionText(ctx: ExpressionContext, c: FilterCondition): string {
  const path = ctx.path(c.path);
  switch (c.op) {
    case 'attribute_exists':
    case 'attribute_not_exists':
      return `${c.op}(${path})`;
    case 'attribute_type':
      return `attribute_type(${path}, ${ctx.value({ S: need(c.type, 'a type') })})`;
    case 'begins_with':
    case 'contains':
      return `${c.op}(${path}, ${ctx.value(need(c.value, 'a value'))})`;
    case 'not_contains':
      return `NOT contains(${path}, ${ctx.value(need(c.value, 'a value'))})`;
    case 'between':
      return `${path} BETWEEN ${ctx.value(need(c.value, 'a lower bound'))} AND ${ctx.value(need(c.value2, 'an upper bound'))}`;
    case 'size':
      return `size(${path}) ${c.sizeOp ?? '='} ${ctx.value(need(c.value, 'a size'))}`;
    case 'in': {
      const values = need(c.values, 'at least one value');
      if (values.length === 0) throw new ReadSpecError('filter', 'IN needs at least one value.');
      return `${path} IN (${values.map((v) => ctx.value(v)).join(', ')})`;
    }
    default:
      return `${path} ${c.op} ${ctx.value(need(c.value, 'a value'))}`;
  }
}

export function filterText(ctx: ExpressionContext, group: FilterGroup): string {
  const parts = group.items
    .map((item) => (item.kind === 'group' ? filterText(ctx, item) : conditionText(ctx, item)))
    .filter(Boolean);
  if (parts.length === 0) return '';
  const joined = parts.length === 1 ? (parts[0] ?? '') : `(${parts.join(` ${group.join} `)})`;
  return group.not ? `NOT ${joined.startsWith('(') ? joined : `(${joined})`}` : joined;
}

function rawPlaceholders(spec: ReadSpec): void {
  const boxes = [
    ['rawNames', Object.keys(spec.raw?.names ?? {})],
    ['rawValues', Object.keys(spec.raw?.values ?? {})],
  ] as const;
  for (const [field, placeholders] of boxes) {
    const reserved = placeholders.find((name) => /^[#:][nv]\d+$/.test(name));
    if (reserved) {
      throw new ReadSpecError(
        field,
        `The placeholder ${reserved} is reserved for the builder; name yours differently (e.g. #status, :paid).`,
      );
    }
  }
}

/**
 * Builds the Query or Scan request from the builder's spec. Everything the user named goes
 * through placeholders; projections always include the key attributes so every row can be
 * opened and edited.
 */
export function buildReadRequest(target: ReadTarget, spec: ReadSpec): ReadRequest {
  const { keys, kind } = keysFor(target, spec.index);
  if (spec.consistent && kind === 'GSI') throw new ReadSpecError('consistent', GSI_CONSISTENT_READ);
  rawPlaceholders(spec);
  const ctx = new ExpressionContext();
  let keyCondition: string | undefined;
  if (spec.mode === 'query') {
    if (spec.raw?.keyCondition) keyCondition = spec.raw.keyCondition;
    else {
      const pk = spec.partitionKey;
      if (!pk)
        throw new ReadSpecError(
          'partitionKey',
          `A query needs a value for the partition key "${keys.partitionKey.name}".`,
        );
      if (typeOf(pk) !== keys.partitionKey.type) {
        throw new ReadSpecError(
          'partitionKey',
          `The partition key "${keys.partitionKey.name}" is of type ${keys.partitionKey.type}, not ${typeOf(pk)}.`,
        );
      }
      keyCondition = `${ctx.name(keys.partitionKey.name)} = ${ctx.value(pk)}`;
      if (spec.sortKey) {
        if (!keys.sortKey)
          throw new ReadSpecError('sortKey', `${spec.index ?? target.table} has no sort key.`);
        keyCondition += ` AND ${sortCondition(ctx, keys.sortKey.name, keys.sortKey.type, spec.sortKey)}`;
      }
    }
  }
  const filter = spec.raw?.filter ?? (spec.filter ? filterText(ctx, spec.filter) : '');
  let projection: string | undefined;
  if (spec.projection && spec.projection.length > 0) {
    const keyPaths = [target.keys, keys]
      .flatMap((k) => [k.partitionKey.name, ...(k.sortKey ? [k.sortKey.name] : [])])
      .map((n) => [n]);
    const all = [...keyPaths, ...spec.projection];
    const seen = new Set<string>();
    projection = all
      .map((p) => ctx.path(p))
      .filter((p) => (seen.has(p) ? false : (seen.add(p), true)))
      .join(', ');
  }
  const names = { ...ctx.names, ...(spec.raw?.names ?? {}) };
  const values = { ...ctx.values, ...(spec.raw?.values ?? {}) };
  return {
    operation: spec.mode === 'query' ? 'Query' : 'Scan',
    input: {
      TableName: target.table,
      ...(spec.index ? { IndexName: spec.index } : {}),
      ...(keyCondition ? { KeyConditionExpression: keyCondition } : {}),
      ...(filter ? { FilterExpression: filter } : {}),
      ...(projection ? { ProjectionExpression: projection } : {}),
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
      ...(spec.mode === 'query' && spec.descending ? { ScanIndexForward: false } : {}),
      ...(spec.consistent ? { ConsistentRead: true } : {}),
    },
  };
}
