import { z } from 'zod';
import { MAX_DEPTH, tooDeepAt } from './value-depth';

/**
 * DynamoDB's own tagged form, as it crosses every boundary (IPC, HTTP, worker threads, files).
 * Numbers stay decimal strings and binary stays base64 so that structured clone and JSON keep
 * every digit and byte: a JS number would round past 2^53 and JSON has no sets or bytes.
 */
export type AttributeValue =
  | { S: string }
  | { N: string }
  | { B: string }
  | { BOOL: boolean }
  | { NULL: true }
  | { L: AttributeValue[] }
  | { M: Record<string, AttributeValue> }
  | { SS: string[] }
  | { NS: string[] }
  | { BS: string[] };

export type Item = Record<string, AttributeValue>;

/** DynamoDB numbers: up to 38 significant digits, exponent -130..+125. Checked fully in main. */
const decimalPattern = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const base64Pattern = /^[A-Za-z0-9+/]*={0,2}$/;
const decimal = z.string().regex(decimalPattern, 'not a decimal number');
const base64 = z.string().regex(base64Pattern, 'not base64');

/** The recursive shape; parse through attributeValueSchema, which bounds the depth first. */
export const attributeValueTreeSchema: z.ZodType<AttributeValue> = z.lazy(() =>
  z.union([
    z.strictObject({ S: z.string() }),
    z.strictObject({ N: decimal }),
    z.strictObject({ B: base64 }),
    z.strictObject({ BOOL: z.boolean() }),
    z.strictObject({ NULL: z.literal(true) }),
    z.strictObject({ L: z.array(attributeValueTreeSchema) }),
    z.strictObject({ M: z.record(z.string(), attributeValueTreeSchema) }),
    z.strictObject({ SS: z.array(z.string()) }),
    z.strictObject({ NS: z.array(decimal) }),
    z.strictObject({ BS: z.array(base64) }),
  ]),
);

/**
 * A value from outside (a request, a file). Its depth is checked iteratively before the
 * recursive schema runs, which would overflow the stack on a value nested thousands of levels.
 */
export const attributeValueSchema: z.ZodType<AttributeValue> = z.preprocess((value, ctx) => {
  if (tooDeepAt(value))
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: `the value is nested deeper than DynamoDB's limit of ${MAX_DEPTH} levels of lists and maps; flatten it, or store the innermost part as a JSON string`,
    });
  return value;
}, attributeValueTreeSchema);

export const itemSchema: z.ZodType<Item> = z.record(z.string(), attributeValueSchema);

/**
 * Whether `value` is an item itemSchema accepts, without saying why not: for data the app sent
 * itself (a read's rows on an event), where zod's union, trying each of ten shapes per value,
 * cost the page 13–50 ms per 100 items on a busy machine. Own keys only, so `__proto__` is a name.
 */
export function isItem(value: unknown): value is Item {
  return isRecordOfValues(value, 1);
}

function isRecordOfValues(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  for (const name of Object.keys(record)) if (!isValueAt(record[name], depth)) return false;
  return true;
}

const isStringList = (value: unknown, pattern?: RegExp): boolean =>
  Array.isArray(value) && value.every((s) => typeof s === 'string' && (!pattern || pattern.test(s)));

/** One value at nesting level `depth` (an item's attributes are level 1). */
function isValueAt(value: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const tags = Object.keys(value);
  if (tags.length !== 1) return false;
  const tag = tags[0] as string;
  const inner = (value as Record<string, unknown>)[tag];
  switch (tag) {
    case 'S':
      return typeof inner === 'string';
    case 'N':
      return typeof inner === 'string' && decimalPattern.test(inner);
    case 'B':
      return typeof inner === 'string' && base64Pattern.test(inner);
    case 'BOOL':
      return typeof inner === 'boolean';
    case 'NULL':
      return inner === true;
    case 'SS':
      return isStringList(inner);
    case 'NS':
      return isStringList(inner, decimalPattern);
    case 'BS':
      return isStringList(inner, base64Pattern);
    case 'L':
      return Array.isArray(inner) && inner.every((member) => isValueAt(member, depth + 1));
    case 'M':
      return isRecordOfValues(inner, depth + 1);
    default:
      return false;
  }
}

export type AttributeType = 'S' | 'N' | 'B' | 'BOOL' | 'NULL' | 'L' | 'M' | 'SS' | 'NS' | 'BS';

export function typeOf(value: AttributeValue): AttributeType {
  return Object.keys(value)[0] as AttributeType;
}

/** Every type, in the order the item editor and the filter builder offer them. */
export const attributeTypes: readonly AttributeType[] = [
  'S',
  'N',
  'B',
  'BOOL',
  'NULL',
  'L',
  'M',
  'SS',
  'NS',
  'BS',
];

/** Each type in the words a newcomer knows. */
export const typeWords: Record<AttributeType, string> = {
  S: 'String',
  N: 'Number',
  B: 'Binary',
  BOOL: 'Boolean',
  NULL: 'Null',
  L: 'List',
  M: 'Map',
  SS: 'String set',
  NS: 'Number set',
  BS: 'Binary set',
};

/** "String (S)": the word first, DynamoDB's code after it as a hint for those who know it. */
export function typeLabel(type: AttributeType): string {
  return `${typeWords[type]} (${type})`;
}
