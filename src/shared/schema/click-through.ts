import type { AttributeValue } from '../dynamo/attribute-value';
import type { FilterCondition } from '../ipc/query';
import type { AttributeSchema, SchemaReport, SchemaStringFormat, SchemaValueType } from '../ipc/schema';
import { parseSchemaPath } from './schema-paths';

/**
 * From what the Schema tab shows to the items behind it (issue 15 item 1): one path, and what of
 * it was clicked (its presence, a type, a format, a common value), as a DynamoDB filter for the
 * Items tab and as a SQL statement for the workbench. Both are scoped to the entity shown.
 */
export type SchemaPick =
  | { kind: 'present' }
  | { kind: 'missing' }
  | { kind: 'type'; type: SchemaValueType }
  | { kind: 'value'; type: SchemaValueType; value: string }
  | { kind: 'format'; format: SchemaStringFormat };

export interface PickScope {
  report: SchemaReport;
  /** '' for all items. */
  entity: string;
  path: string;
}

/** The path's names, or why neither a filter nor SQL can name it. */
export function pathNames(path: string): string[] | string {
  const steps = parseSchemaPath(path);
  if (steps.includes(-1))
    return 'A path through every list element has no filter: DynamoDB and SQL name one element at a time.';
  return steps as string[];
}

const sqlName = (name: string) => `"${name.replace(/"/g, '""')}"`;
const sqlString = (text: string) => `'${text.replace(/'/g, "''")}'`;

function sqlLiteral(value: AttributeValue): string {
  if ('S' in value) return sqlString(value.S);
  if ('N' in value) return value.N;
  if ('BOOL' in value) return value.BOOL ? 'TRUE' : 'FALSE';
  throw new Error('Only strings, numbers and booleans are compared as values.');
}

/** A top value as the Schema tab lists it, back to a DynamoDB value (undefined: not comparable). */
export function pickedValue(type: SchemaValueType, value: string): AttributeValue | undefined {
  if (type === 'S') return { S: value };
  if (type === 'N') return { N: value };
  if (type === 'BOOL' && (value === 'true' || value === 'false')) return { BOOL: value === 'true' };
  return undefined;
}

/**
 * What LIKE can say of each detected format: a shape, not the detector's full check (an ISO
 * date-time's digits or an e-mail's domain), so the statement may find a few more.
 */
const FORMAT_LIKE: Partial<Record<SchemaStringFormat, string[]>> = {
  isoDateTime: ['____-__-__T%'],
  isoDate: ['____-__-__'],
  uuid: ['________-____-____-____-____________'],
  email: ['%_@_%'],
  url: ['http://%', 'https://%'],
  json: ['{%', '[%'],
};

interface KeyFilter {
  attribute: string;
  op: '=' | '<' | '<=' | '>' | '>=' | 'between' | 'begins_with';
  values: AttributeValue[];
}

/** The conditions that pick the shown entity's items out of the table (or index). */
function entityFilters(report: SchemaReport, entity: string): KeyFilter[] {
  const e = entity ? report.entities.find((x) => x.name === entity) : undefined;
  if (!e) return [];
  if (report.entitySource.kind === 'attribute')
    return [{ attribute: report.entitySource.name, op: '=', values: [{ S: e.name }] }];
  return (e.conditions ?? []).map((c) => ({ attribute: c.attribute, op: c.op, values: c.values }));
}

function sqlKeyFilter(f: KeyFilter): string {
  const name = sqlName(f.attribute);
  const [a, b] = f.values.map(sqlLiteral);
  if (f.op === 'begins_with') return `begins_with(${name}, ${a})`;
  if (f.op === 'between') return `${name} BETWEEN ${a} AND ${b}`;
  return `${name} ${f.op} ${a}`;
}

function sqlPick(ref: string, pick: SchemaPick): string {
  switch (pick.kind) {
    case 'present':
      return `${ref} IS NOT MISSING`;
    case 'missing':
      return `${ref} IS MISSING`;
    case 'type':
      return `TYPE_OF(${ref}) = ${sqlString(pick.type)}`;
    case 'value': {
      const value = pickedValue(pick.type, pick.value);
      return value
        ? `TYPE_OF(${ref}) = ${sqlString(pick.type)} AND ${ref} = ${sqlLiteral(value)}`
        : `TYPE_OF(${ref}) = ${sqlString(pick.type)}`;
    }
    case 'format': {
      if (pick.format === 'epochString')
        return `TYPE_OF(${ref}) = 'S' AND CAST(${ref} AS NUMBER) IS NOT NULL`;
      const likes = (FORMAT_LIKE[pick.format] ?? ['%']).map((p) => `${ref} LIKE ${sqlString(p)}`);
      return `TYPE_OF(${ref}) = 'S' AND ${likes.length > 1 ? `(${likes.join(' OR ')})` : likes[0]}`;
    }
  }
}

/** FROM and WHERE of the statement, for `SELECT … FROM {from} WHERE {where}`. */
export function sqlParts(scope: PickScope, pick: SchemaPick): { from: string; where: string } | string {
  const names = pathNames(scope.path);
  if (typeof names === 'string') return names;
  const { report } = scope;
  const ref = names.map(sqlName).join('.');
  const conditions = entityFilters(report, scope.entity).map(sqlKeyFilter);
  // An index holds only the items with its keys: the table's rows without them are not in it.
  if (report.index)
    for (const key of [report.keys.partitionKey, report.keys.sortKey])
      if (key) conditions.push(`${sqlName(key.name)} IS NOT MISSING`);
  conditions.push(sqlPick(ref, pick));
  return { from: sqlName(report.table), where: conditions.join('\n  AND ') };
}

/** The statement the workbench opens with, or why there is none. */
export function sqlStatement(scope: PickScope, pick: SchemaPick): { text: string } | { problem: string } {
  const parts = sqlParts(scope, pick);
  if (typeof parts === 'string') return { problem: parts };
  const note =
    pick.kind === 'format' && pick.format !== 'epochString'
      ? '-- LIKE matches the format’s shape; the Schema tab’s detector checks more.\n'
      : '';
  return { text: `${note}SELECT *\nFROM ${parts.from}\nWHERE ${parts.where}\nLIMIT 100` };
}

/**
 * The Scan filter of the Items tab: structured conditions the builder shows and main turns into
 * a FilterExpression with every name a placeholder. A format is no DynamoDB condition.
 */
export function itemFilter(scope: PickScope, pick: SchemaPick): FilterCondition[] | string {
  const names = pathNames(scope.path);
  if (typeof names === 'string') return names;
  if (pick.kind === 'format')
    return 'A DynamoDB filter cannot match a string format: open it in SQL, which can.';
  const conditions: FilterCondition[] = entityFilters(scope.report, scope.entity).map((f) => ({
    kind: 'condition',
    path: [f.attribute],
    op: f.op,
    value: f.values[0],
    ...(f.values[1] ? { value2: f.values[1] } : {}),
  }));
  const base = { kind: 'condition', path: names } as const;
  if (pick.kind === 'present') conditions.push({ ...base, op: 'attribute_exists' });
  else if (pick.kind === 'missing') conditions.push({ ...base, op: 'attribute_not_exists' });
  else if (pick.kind === 'type') conditions.push({ ...base, op: 'attribute_type', type: pick.type });
  else {
    const value = pickedValue(pick.type, pick.value);
    conditions.push(value ? { ...base, op: '=', value } : { ...base, op: 'attribute_type', type: pick.type });
  }
  return conditions;
}

/** How many of the read's items the pick should find: what the Schema tab counted. */
export function expectedCount(
  scope: PickScope,
  attribute: AttributeSchema,
  pick: SchemaPick,
): number | undefined {
  const e = scope.entity ? scope.report.entities.find((x) => x.name === scope.entity) : undefined;
  const items = e ? e.items : scope.report.itemsScanned;
  if (pick.kind === 'present') return attribute.items;
  if (pick.kind === 'missing') return items - attribute.items;
  if (pick.kind === 'type') return attribute.types[pick.type];
  if (pick.kind === 'value')
    return attribute.topValues?.find((v) => v.type === pick.type && v.value === pick.value)?.count;
  return undefined;
}

/** For people: what the pick selects, e.g. `createdAt is S`. */
export function describePick(path: string, pick: SchemaPick): string {
  switch (pick.kind) {
    case 'present':
      return `items that have ${path}`;
    case 'missing':
      return `items without ${path}`;
    case 'type':
      return `${path} is ${pick.type}`;
    case 'value':
      return `${path} = ${pick.type === 'S' ? `"${pick.value}"` : pick.value}`;
    case 'format':
      return `${path} looks like ${pick.format}`;
  }
}
