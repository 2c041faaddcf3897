import type { FilterCondition, FilterGroup, ReadSpec, SortKeyCondition } from '../ipc/query';
import type { IndexInfo, KeySchema } from '../ipc/tables';
import { typeOf, type AttributeValue, type Item } from './attribute-value';
import { ExpressionContext } from './expression-context';
import { keyAttributeNames, partitionAttributes, sortAttributes } from './key-model';

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
  field = 'sortKey',
): string {
  const check = (value: AttributeValue): string => {
    if (typeOf(value) !== type)
      throw new ReadSpecError(field, `The sort key "${name}" is of type ${type}, not ${typeOf(value)}.`);
    return ctx.value(value);
  };
  const path = ctx.name(name);
  switch (condition.op) {
    case 'begins_with':
      if (type === 'N')
        throw new ReadSpecError(field, 'begins_with works on string and binary sort keys, not numbers.');
      return `begins_with(${path}, ${check(condition.value)})`;
    case 'between':
      if (!condition.value2) throw new ReadSpecError(field, 'between needs an upper bound.');
      return `${path} BETWEEN ${check(condition.value)} AND ${check(condition.value2)}`;
    default:
      return `${path} ${condition.op} ${check(condition.value)}`;
  }
}

/**
 * The key condition of a Query, for a single-attribute key or a multi-attribute one. DynamoDB's
 * rules for the latter (checked against DynamoDB Local): every partition attribute with `=`;
 * sort attributes from the first, none skipped; `=` on each but the last one named, which may
 * take any sort comparison. Each refusal names its rule, before anything is sent.
 */
function keyConditionText(ctx: ExpressionContext, keys: KeySchema, spec: ReadSpec, on: string): string {
  const partition = partitionAttributes(keys);
  const values = [spec.partitionKey, ...(spec.morePartitionKeys ?? [])];
  if (values.length > partition.length)
    throw new ReadSpecError(
      'partitionKey',
      `${on} has ${partition.length} partition attribute${partition.length === 1 ? '' : 's'}; the query gives ${values.length} values.`,
    );
  const parts = partition.map((attribute, i) => {
    const value = values[i];
    const field = i === 0 ? 'partitionKey' : `morePartitionKeys.${i - 1}`;
    if (!value)
      throw new ReadSpecError(
        field,
        partition.length === 1
          ? `A query needs a value for the partition key "${attribute.name}".`
          : `A query on ${on} needs a value for every partition attribute (${partition.map((a) => `"${a.name}"`).join(', ')}); "${attribute.name}" has none.`,
      );
    if (typeOf(value) !== attribute.type)
      throw new ReadSpecError(
        field,
        `The partition key "${attribute.name}" is of type ${attribute.type}, not ${typeOf(value)}.`,
      );
    return `${ctx.name(attribute.name)} = ${ctx.value(value)}`;
  });
  const sort = sortAttributes(keys);
  const conditions = [spec.sortKey ?? null, ...(spec.moreSortKeys ?? [])];
  let last = conditions.length - 1;
  while (last >= 0 && !conditions[last]) last -= 1;
  if (last >= 0 && sort.length === 0) throw new ReadSpecError('sortKey', `${on} has no sort key.`);
  if (last >= sort.length)
    throw new ReadSpecError(
      `moreSortKeys.${last - 1}`,
      `${on} has ${sort.length} sort attribute${sort.length === 1 ? '' : 's'}; the query gives conditions on ${last + 1}.`,
    );
  for (let i = 0; i <= last; i++) {
    const attribute = sort[i];
    const condition = conditions[i];
    const field = i === 0 ? 'sortKey' : `moreSortKeys.${i - 1}`;
    if (!attribute) break;
    if (!condition)
      throw new ReadSpecError(
        field,
        `The sort attribute "${attribute.name}" needs a condition, because "${sort[last]?.name ?? ''}" after it has one: DynamoDB reads sort attributes left to right and skips none.`,
      );
    if (i < last && condition.op !== '=')
      throw new ReadSpecError(
        field,
        `The sort attribute "${attribute.name}" must be compared with =, because "${sort[last]?.name ?? ''}" after it has a condition: only the last sort attribute named may take a range or begins_with.`,
      );
    parts.push(sortCondition(ctx, attribute.name, attribute.type, condition, field));
  }
  return parts.join(' AND ');
}

/** The key condition's first problem (the one main would refuse with), or undefined. */
export function keyConditionProblem(keys: KeySchema, spec: ReadSpec, on: string): ReadSpecError | undefined {
  try {
    keyConditionText(new ExpressionContext(), keys, spec, on);
    return undefined;
  } catch (error) {
    if (error instanceof ReadSpecError) return error;
    throw error;
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
    else keyCondition = keyConditionText(ctx, keys, spec, spec.index ?? target.table);
  }
  const filter = spec.raw?.filter ?? (spec.filter ? filterText(ctx, spec.filter) : '');
  let projection: string | undefined;
  if (spec.projection && spec.projection.length > 0) {
    const keyPaths = [target.keys, keys].flatMap((k) => keyAttributeNames(k)).map((n) => [n]);
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
