import type { AttributeValue } from '../../../shared/dynamo/attribute-value';
import { parseExpressionNames, parseExpressionValues } from '../../../shared/dynamo/expression-values';
import { JsonTextError } from '../../../shared/dynamo/json-text';
import { numberProblem } from '../../../shared/dynamo/number';
import { partitionAttributes, sortAttributes } from '../../../shared/dynamo/key-model';
import { keyConditionProblem } from '../../../shared/dynamo/read-request';
import type { FilterCondition, FilterOperator, ReadSpec, SortKeyCondition } from '../../../shared/ipc/query';
import type { IndexInfo, KeyAttributeInfo, KeySchema } from '../../../shared/ipc/tables';
import { parseAttributePath } from './attribute-path';

export type ScalarType = 'S' | 'N' | 'B' | 'BOOL' | 'NULL';
/** The types a value typed in one box can have (a filter's value, a bulk update's new value). */
export const scalarTypes: readonly ScalarType[] = ['S', 'N', 'B', 'BOOL', 'NULL'];
export type SortKeyOp = '' | '=' | '<' | '<=' | '>' | '>=' | 'begins_with' | 'between';

export interface ConditionDraft {
  id: string;
  path: string;
  op: FilterOperator;
  type: ScalarType;
  value: string;
  value2: string;
  sizeOp: '=' | '<>' | '<' | '<=' | '>' | '>=';
}

/** A condition on a multi-attribute key's 2nd to 4th sort attribute, as typed. */
export interface SortDraft {
  op: SortKeyOp;
  value: string;
  value2: string;
}

/** What the builder form holds: text as typed, turned into a ReadSpec only when run. */
export interface BuilderState {
  mode: 'query' | 'scan';
  index: string;
  partitionKey: string;
  sortOp: SortKeyOp;
  sortValue: string;
  sortValue2: string;
  /** A multi-attribute index key's further partition values and sort conditions, in key order. */
  morePartitionKeys: { value: string }[];
  moreSortKeys: SortDraft[];
  join: 'AND' | 'OR';
  conditions: ConditionDraft[];
  isRaw: boolean;
  rawKeyCondition: string;
  rawFilter: string;
  rawNames: string;
  rawValues: string;
  projection: string;
  descending: boolean;
  consistent: boolean;
  pageSize: string;
  maxItems: string;
  untilMatches: boolean;
}

/** What each part of the builder form gets: the whole state and a way to change some of it. */
export interface BuilderPartProps {
  state: BuilderState;
  set(change: Partial<BuilderState>): void;
}

export const initialBuilder: BuilderState = {
  mode: 'scan',
  index: '',
  partitionKey: '',
  sortOp: '',
  sortValue: '',
  sortValue2: '',
  morePartitionKeys: [],
  moreSortKeys: [],
  join: 'AND',
  conditions: [],
  isRaw: false,
  rawKeyCondition: '',
  rawFilter: '',
  rawNames: '{}',
  rawValues: '{}',
  projection: '',
  descending: false,
  consistent: false,
  pageSize: '100',
  maxItems: '100',
  untilMatches: false,
};

export const noValueOps = new Set<FilterOperator>(['attribute_exists', 'attribute_not_exists']);

/** A typed value from the text of a field; a sentence when the text is not one. */
export function typedValue(type: ScalarType, text: string): AttributeValue | string {
  switch (type) {
    case 'S':
      return { S: text };
    case 'N': {
      const problem = numberProblem(text);
      return problem ? `The number ${problem}.` : { N: text.trim() };
    }
    case 'B':
      return /^[A-Za-z0-9+/]*={0,2}$/.test(text.trim()) ? { B: text.trim() } : 'Binary is written as base64.';
    case 'BOOL':
      return text === 'true' || text === 'false' ? { BOOL: text === 'true' } : 'Write true or false.';
    case 'NULL':
      return { NULL: true };
  }
}

export function keysOf(keys: KeySchema, indexes: IndexInfo[], index: string): KeySchema {
  return indexes.find((i) => i.name === index)?.keys ?? keys;
}

export type BuilderErrors = Partial<Record<string, string>>;

function condition(draft: ConditionDraft, names: readonly string[]): FilterCondition | string {
  const path = parseAttributePath(draft.path, names);
  if (typeof path === 'string') return path;
  const base: FilterCondition = { kind: 'condition', path, op: draft.op };
  if (noValueOps.has(draft.op)) return base;
  if (draft.op === 'attribute_type') return { ...base, type: draft.type };
  if (draft.op === 'size') {
    const size = typedValue('N', draft.value);
    return typeof size === 'string' ? size : { ...base, sizeOp: draft.sizeOp, value: size };
  }
  if (draft.op === 'in') {
    const values = draft.value.split(',').map((part) => typedValue(draft.type, part.trim()));
    const bad = values.find((v): v is string => typeof v === 'string');
    return bad ?? { ...base, values: values as AttributeValue[] };
  }
  const value = typedValue(draft.type, draft.value);
  if (typeof value === 'string') return value;
  if (draft.op !== 'between') return { ...base, value };
  const value2 = typedValue(draft.type, draft.value2);
  return typeof value2 === 'string' ? value2 : { ...base, value, value2 };
}

/** A filter row with nothing typed in it: no attribute, no value. */
export function isUntouched(draft: ConditionDraft): boolean {
  return draft.path.trim() === '' && draft.value.trim() === '' && draft.value2.trim() === '';
}

export type LimitField = 'pageSize' | 'maxItems';

const LIMITS: Record<LimitField, { label: string; max: number }> = {
  pageSize: { label: 'Page size', max: 1000 },
  maxItems: { label: 'Max items', max: 1_000_000 },
};

/** What is wrong with a typed read limit, checked as it is typed; undefined when it is fine. */
export function limitProblem(field: LimitField, text: string): string | undefined {
  const { label, max } = LIMITS[field];
  const range = `from 1 to ${max.toLocaleString('en-US')}`;
  const trimmed = text.trim();
  if (trimmed === '') return `${label} needs a number ${range}.`;
  if (!/^\d+$/.test(trimmed)) return `${label} is a whole number ${range}.`;
  const n = Number(trimmed);
  if (n < 1 || n > max)
    return `${label} must be ${range}; ${Number(trimmed).toLocaleString('en-US')} is not.`;
  return undefined;
}

/** The typed limit as a number, once it is valid (for labels that echo it). */
export function validLimit(field: LimitField, text: string): number | undefined {
  return limitProblem(field, text) === undefined ? Number(text.trim()) : undefined;
}

function count(field: LimitField, text: string, errors: BuilderErrors): number | undefined {
  const problem = limitProblem(field, text);
  if (problem) errors[field] = problem;
  return problem ? undefined : Number(text.trim());
}

/** Parses one raw box, leaving a sentence at that box when it does not parse. */
function rawBox<T>(
  text: string,
  field: 'rawNames' | 'rawValues',
  parse: (text: string) => T,
  errors: BuilderErrors,
): T | undefined {
  try {
    return parse(text);
  } catch (error) {
    errors[field] = error instanceof JsonTextError ? error.sentence : String(error);
    return undefined;
  }
}

function sortConditionOf(
  attribute: KeyAttributeInfo,
  draft: SortDraft,
  field: string,
  errors: BuilderErrors,
): SortKeyCondition | null {
  if (!draft.op) return null;
  const value = typedValue(attribute.type, draft.value);
  const value2 = draft.op === 'between' ? typedValue(attribute.type, draft.value2) : undefined;
  if (typeof value === 'string') errors[field] = value;
  else if (typeof value2 === 'string') errors[field] = value2;
  else return { op: draft.op, value, ...(value2 ? { value2 } : {}) };
  return null;
}

/**
 * The key condition's fields → the spec: every partition attribute's value, and the sort
 * attributes' conditions in order. The rules DynamoDB sets on a multi-attribute key are checked
 * by the same code main runs (keyConditionProblem), so the form says them before any request.
 */
function keyFields(state: BuilderState, keys: KeySchema, spec: ReadSpec, errors: BuilderErrors): void {
  const partition = partitionAttributes(keys);
  const texts = [state.partitionKey, ...state.morePartitionKeys.map((p) => p.value)];
  const values = partition.map((attribute, i) => {
    const field = i === 0 ? 'partitionKey' : `morePartitionKeys.${i - 1}`;
    const text = texts[i] ?? '';
    if (text === '') {
      errors[field] =
        partition.length === 1
          ? `A query needs the partition key "${attribute.name}".`
          : `A query on this index needs every partition attribute; "${attribute.name}" has no value.`;
      return undefined;
    }
    const value = typedValue(attribute.type, text);
    if (typeof value === 'string') errors[field] = value;
    return typeof value === 'string' ? undefined : value;
  });
  const [first, ...more] = values;
  if (first) spec.partitionKey = first;
  if (more.length > 0 && more.every((v) => v !== undefined)) spec.morePartitionKeys = more;
  const sort = sortAttributes(keys);
  const drafts: SortDraft[] = [
    { op: state.sortOp, value: state.sortValue, value2: state.sortValue2 },
    ...state.moreSortKeys,
  ];
  const conditions = sort.map((attribute, i) =>
    sortConditionOf(
      attribute,
      drafts[i] ?? { op: '', value: '', value2: '' },
      i === 0 ? 'sortKey' : `moreSortKeys.${i - 1}`,
      errors,
    ),
  );
  const [firstSort, ...moreSort] = conditions;
  if (firstSort) spec.sortKey = firstSort;
  while (moreSort.length > 0 && !moreSort[moreSort.length - 1]) moreSort.pop();
  if (moreSort.length > 0) spec.moreSortKeys = moreSort;
  if (Object.keys(errors).length > 0) return;
  const problem = keyConditionProblem(keys, spec, state.index || 'the table');
  if (problem) errors[problem.field] = problem.message;
}

/** The first problem with the key condition's fields, for the line under them. */
export function keyFieldError(errors: BuilderErrors): string | undefined {
  const field = Object.keys(errors).find((f) =>
    /^(partitionKey|sortKey|morePartitionKeys|moreSortKeys)/.test(f),
  );
  return field ? errors[field] : undefined;
}

type BuiltRead =
  { spec: ReadSpec; pageSize: number; maxItems: number; untilMatches: boolean } | { errors: BuilderErrors };

/** The builder's text → a ReadSpec and read bounds, or an error per field (shown at the field). */
export function toReadSpec(
  state: BuilderState,
  keys: KeySchema,
  indexes: IndexInfo[],
  names: readonly string[],
): BuiltRead {
  return buildRead(state, () => keysOf(keys, indexes, state.index), names);
}

/**
 * The read of a builder that needs nothing from the table's description (a Scan of the table
 * itself, as a table's first open makes), so it can start while the description is on its way;
 * undefined for a query or an index, whose keys only the description gives.
 */
export function toReadSpecBeforeDescription(state: BuilderState): BuiltRead | undefined {
  if (state.mode !== 'scan' || state.index) return undefined;
  return buildRead(state, () => {
    throw new Error('A scan of the table itself does not use its keys.');
  }, []);
}

function buildRead(state: BuilderState, keysOfRead: () => KeySchema, names: readonly string[]): BuiltRead {
  const errors: BuilderErrors = {};
  const spec: ReadSpec = { mode: state.mode };
  if (state.index) spec.index = state.index;
  if (state.isRaw) {
    const rawNames = rawBox(state.rawNames, 'rawNames', parseExpressionNames, errors);
    const rawValues = rawBox(state.rawValues, 'rawValues', parseExpressionValues, errors);
    spec.raw = {
      ...(state.rawKeyCondition.trim() ? { keyCondition: state.rawKeyCondition } : {}),
      ...(state.rawFilter.trim() ? { filter: state.rawFilter } : {}),
      ...(rawNames && Object.keys(rawNames).length > 0 ? { names: rawNames } : {}),
      ...(rawValues && Object.keys(rawValues).length > 0 ? { values: rawValues } : {}),
    };
    if (state.mode === 'query' && !state.rawKeyCondition.trim())
      errors.rawKeyCondition = `A query needs a key condition, like #pk = :pk for the partition key "${keysOfRead().partitionKey.name}".`;
  }
  if (state.mode === 'query' && !state.isRaw) keyFields(state, keysOfRead(), spec, errors);
  // A row left as it was added (no attribute, no value) asks for nothing: it is not a mistake to
  // refuse the read over, even when the table reopens on a remembered form that kept it.
  const conditions = state.isRaw ? [] : state.conditions.filter((draft) => !isUntouched(draft));
  if (conditions.length > 0) {
    const items: FilterCondition[] = [];
    for (const draft of conditions) {
      const built = condition(draft, names);
      if (typeof built === 'string') errors[`condition:${draft.id}`] = built;
      else items.push(built);
    }
    spec.filter = { kind: 'group', join: state.join, items };
  }
  if (state.projection.trim()) {
    const paths = state.projection.split(',').map((p) => parseAttributePath(p, names));
    const bad = paths.find((p): p is string => typeof p === 'string');
    if (bad) errors.projection = bad;
    else spec.projection = paths as Exclude<(typeof paths)[number], string>[];
  }
  if (state.mode === 'query' && state.descending) spec.descending = true;
  if (state.consistent) spec.consistent = true;
  const pageSize = count('pageSize', state.pageSize, errors);
  const maxItems = count('maxItems', state.maxItems, errors);
  if (Object.keys(errors).length > 0 || pageSize === undefined || maxItems === undefined) return { errors };
  return { spec, pageSize, maxItems, untilMatches: state.untilMatches };
}
