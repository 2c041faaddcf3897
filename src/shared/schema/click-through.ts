import type { AttributeValue } from '../dynamo/attribute-value';
import type { FilterCondition } from '../ipc/query';
import type { AttributeSchema, SchemaReport, SchemaStringFormat, SchemaValueType } from '../ipc/schema';
import { parseSchemaPath, quoteName } from './schema-paths';

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

/** The path's names, or why a path through list elements needs its positions spelled out. */
export function pathNames(path: string): string[] | string {
  const steps = parseSchemaPath(path);
  if (steps.includes(-1))
    return 'A path through every list element has no filter: DynamoDB and SQL name one element at a time.';
  return steps as string[];
}

/** DynamoDB takes at most 100 conditions in one group; SQL stays readable. */
export const MAX_POSITIONS = 100;

/**
 * Every concrete path a `[]` path stands for in the read: each `[]` becomes the positions 0 to
 * the longest list the read saw there (`lines[].sku` → `lines[0].sku` … `lines[2].sku`). A list
 * longer in the table than in a sample is searched only that far. A string: why not.
 */
export function elementPaths(scope: PickScope): (string | number)[][] | string {
  const steps = parseSchemaPath(scope.path);
  const attributes = attributesOf(scope);
  let paths: (string | number)[][] = [[]];
  let text = '';
  for (const step of steps) {
    if (step !== -1) {
      text = text === '' ? quoteName(step) : `${text}.${quoteName(step)}`;
      for (const p of paths) p.push(step);
      continue;
    }
    const longest = attributes.find((a) => a.path === text)?.listLength?.max ?? 0;
    if (longest === 0) return `The read saw no element of ${text}.`;
    if (paths.length * longest > MAX_POSITIONS)
      return `${scope.path} stands for more than ${MAX_POSITIONS} element positions; DynamoDB takes at most ${MAX_POSITIONS} conditions.`;
    paths = paths.flatMap((p) => Array.from({ length: longest }, (_, i) => [...p, i]));
    text = `${text}[]`;
  }
  return paths;
}

function attributesOf(scope: PickScope): AttributeSchema[] {
  const e = scope.entity ? scope.report.entities.find((x) => x.name === scope.entity) : undefined;
  return e ? e.attributes : scope.report.attributes;
}

/** The concrete paths of a pick: one for a plain path, every element position for a `[]` path. */
function concretePaths(scope: PickScope): (string | number)[][] | string {
  const names = pathNames(scope.path);
  return typeof names === 'string' ? elementPaths(scope) : [names];
}

/** `lines[]` is every element, so "lacks" means no position has it: the conditions join with AND. */
const joinOf = (pick: SchemaPick): 'AND' | 'OR' => (pick.kind === 'missing' ? 'AND' : 'OR');

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
  const paths = concretePaths(scope);
  if (typeof paths === 'string') return paths;
  const { report } = scope;
  const refs = paths.map((steps) =>
    steps
      .map((step, i) => (typeof step === 'number' ? `[${step}]` : `${i > 0 ? '.' : ''}${sqlName(step)}`))
      .join(''),
  );
  const conditions = entityFilters(report, scope.entity).map(sqlKeyFilter);
  // An index holds only the items with its keys: the table's rows without them are not in it.
  if (report.index)
    for (const key of [report.keys.partitionKey, report.keys.sortKey])
      if (key) conditions.push(`${sqlName(key.name)} IS NOT MISSING`);
  const picks = refs.map((ref) => sqlPick(ref, pick));
  conditions.push(
    picks.length === 1 ? (picks[0] as string) : `(${picks.map((p) => `(${p})`).join(` ${joinOf(pick)} `)})`,
  );
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

/** An Items-tab filter: conditions the builder shows in one list, joined by one word. */
export interface ItemFilter {
  join: 'AND' | 'OR';
  conditions: FilterCondition[];
}

function pickCondition(path: (string | number)[], pick: SchemaPick): FilterCondition {
  const base = { kind: 'condition', path } as const;
  if (pick.kind === 'present') return { ...base, op: 'attribute_exists' };
  if (pick.kind === 'missing') return { ...base, op: 'attribute_not_exists' };
  if (pick.kind === 'type') return { ...base, op: 'attribute_type', type: pick.type };
  if (pick.kind === 'value') {
    const value = pickedValue(pick.type, pick.value);
    return value ? { ...base, op: '=', value } : { ...base, op: 'attribute_type', type: pick.type };
  }
  throw new Error('A DynamoDB filter cannot match a string format.');
}

/**
 * The Scan filter of the Items tab: structured conditions the builder shows and main turns into
 * a FilterExpression with every name a placeholder. A format is no DynamoDB condition. The
 * builder joins its conditions with one word, so a pick over several element positions joined
 * by OR cannot also carry an entity's key conditions (SQL can).
 */
export function itemFilter(scope: PickScope, pick: SchemaPick): ItemFilter | string {
  if (pick.kind === 'format')
    return 'A DynamoDB filter cannot match a string format: open it in SQL, which can.';
  const paths = concretePaths(scope);
  if (typeof paths === 'string') return paths;
  const conditions: FilterCondition[] = entityFilters(scope.report, scope.entity).map((f) => ({
    kind: 'condition',
    path: [f.attribute],
    op: f.op,
    value: f.values[0],
    ...(f.values[1] ? { value2: f.values[1] } : {}),
  }));
  const join = paths.length === 1 ? 'AND' : joinOf(pick);
  if (join === 'OR' && conditions.length > 0)
    return `The Items filter joins its conditions with one word: ${scope.path} at any of its ${paths.length} positions and the entity’s keys need both OR and AND. Open it in SQL, which can.`;
  for (const path of paths) conditions.push(pickCondition(path, pick));
  return { join, conditions };
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
  // Through list elements, types and values count elements, not the items that hold them.
  if (scope.path.includes('[]')) return undefined;
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
