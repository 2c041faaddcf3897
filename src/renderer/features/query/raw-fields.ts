import { formatDynamoJson, formatPlainJson, plainJsonObstacle } from '../../../shared/dynamo/item-json';
import { defineOwn } from '../../../shared/dynamo/proto-keys';
import { buildReadRequest, type ReadTarget } from '../../../shared/dynamo/read-request';
import type { AppError } from '../../../shared/ipc';
import { toReadSpec, type BuilderErrors, type BuilderState } from './builder-state';

/** The builder's own placeholders (#n0, :v0), which raw boxes may not use. */
const BUILDER_PLACEHOLDER = /[#:][nv]\d+(?!\w)/g;
const RESERVED = /^[#:][nv]\d+$/;

function freshPlaceholder(prefix: '#' | ':', wanted: string, used: Set<string>): string {
  const base = wanted.replace(/[^A-Za-z0-9_]/g, '') || (prefix === '#' ? 'name' : 'value');
  let candidate = `${prefix}${base}`;
  for (let i = 2; used.has(candidate) || RESERVED.test(candidate); i++) candidate = `${prefix}${base}_${i}`;
  used.add(candidate);
  return candidate;
}

function isRawUntouched(state: BuilderState): boolean {
  const empty = (text: string): boolean => text.trim() === '' || text.trim() === '{}';
  return [state.rawKeyCondition, state.rawFilter, state.rawNames, state.rawValues].every(empty);
}

/**
 * Raw mode, starting from what the form says: the same key condition and filter with readable
 * placeholders (#status, :status) in place of the builder's #n0 and :v0, which raw boxes may
 * not use. Raw text the user already wrote is kept; a form that does not build yet carries nothing.
 */
export function withRawFromForm(
  state: BuilderState,
  target: ReadTarget,
  names: readonly string[],
): BuilderState {
  const next = { ...state, isRaw: true };
  if (!isRawUntouched(state)) return next;
  const built = toReadSpec({ ...state, isRaw: false }, target.keys, target.indexes, names);
  if ('errors' in built) return next;
  let input;
  try {
    input = buildReadRequest(target, { ...built.spec, projection: undefined }).input;
  } catch {
    return next;
  }
  const used = new Set<string>();
  const renamed = new Map<string, string>();
  const attributeNames: Record<string, string> = {};
  for (const [placeholder, attribute] of Object.entries(input.ExpressionAttributeNames ?? {})) {
    const fresh = freshPlaceholder('#', attribute, used);
    renamed.set(placeholder, fresh);
    defineOwn(attributeNames, fresh, attribute);
  }
  // A value is named after the attribute it is compared with: the last name before it.
  const rename = (expression: string | undefined): string => {
    let lastName = '';
    return (expression ?? '').replace(BUILDER_PLACEHOLDER, (token) => {
      if (token.startsWith('#')) {
        lastName = input.ExpressionAttributeNames?.[token] ?? '';
        return renamed.get(token) ?? token;
      }
      const existing = renamed.get(token);
      if (existing) return existing;
      const fresh = freshPlaceholder(':', lastName, used);
      renamed.set(token, fresh);
      return fresh;
    });
  };
  const rawKeyCondition = rename(input.KeyConditionExpression);
  const rawFilter = rename(input.FilterExpression);
  const values: Record<string, NonNullable<typeof input.ExpressionAttributeValues>[string]> = {};
  for (const [placeholder, value] of Object.entries(input.ExpressionAttributeValues ?? {})) {
    const fresh = renamed.get(placeholder) ?? freshPlaceholder(':', '', used);
    defineOwn(values, fresh, value);
  }
  const format = plainJsonObstacle(values) === undefined ? formatPlainJson : formatDynamoJson;
  return {
    ...next,
    rawKeyCondition,
    rawFilter,
    rawNames: Object.keys(attributeNames).length > 0 ? JSON.stringify(attributeNames, null, 2) : '{}',
    rawValues: Object.keys(values).length > 0 ? format(values) : '{}',
  };
}

const API_WORDS: [RegExp, string][] = [
  [/KeyConditionExpression/g, 'the key condition'],
  [/FilterExpression/g, 'the filter expression'],
  [/ExpressionAttributeNames/g, 'the expression attribute names'],
  [/ExpressionAttributeValues/g, 'the expression attribute values'],
];

/** The builder fields that show their own error (the rest shows above the grid). */
const FIELDS_SHOWN = new Set([
  'partitionKey',
  'sortKey',
  ...[0, 1, 2].flatMap((i) => [`morePartitionKeys.${i}`, `moreSortKeys.${i}`]),
  'projection',
  'rawKeyCondition',
  'rawFilter',
  'rawNames',
  'rawValues',
]);

/** Which box DynamoDB's complaint is about, so the sentence can sit under it. */
function boxOf(message: string): keyof BuilderErrors | undefined {
  if (/KeyConditionExpression|key condition/i.test(message)) return 'rawKeyCondition';
  if (/FilterExpression/.test(message)) return 'rawFilter';
  if (/ExpressionAttributeNames|attribute name/i.test(message)) return 'rawNames';
  if (/ExpressionAttributeValues|attribute value/i.test(message)) return 'rawValues';
  return undefined;
}

/**
 * A failed read's error, placed at the builder field it is about: main names the field for the
 * builder's own checks, and DynamoDB's ValidationException names its request parameter, which is
 * said in the words of the box the user typed in. Undefined when no field is to blame.
 */
export function readErrorAtField(error: AppError | undefined, isRaw: boolean): BuilderErrors | undefined {
  if (!error) return undefined;
  const field = error.details?.field;
  if (typeof field === 'string' && FIELDS_SHOWN.has(field)) return { [field]: error.message };
  if (!isRaw || error.code !== 'ValidationException') return undefined;
  const aws = typeof error.details?.awsMessage === 'string' ? error.details.awsMessage : error.message;
  const box = boxOf(aws);
  if (!box) return undefined;
  const sentence = API_WORDS.reduce((text, [api, words]) => text.replace(api, words), aws);
  return { [box]: `DynamoDB refused this: ${sentence.replace(/\.?$/, '.')}` };
}
