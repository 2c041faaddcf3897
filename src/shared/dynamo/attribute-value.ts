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
const decimal = z.string().regex(/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/, 'not a decimal number');
const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64');

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

export type AttributeType = 'S' | 'N' | 'B' | 'BOOL' | 'NULL' | 'L' | 'M' | 'SS' | 'NS' | 'BS';

export function typeOf(value: AttributeValue): AttributeType {
  return Object.keys(value)[0] as AttributeType;
}
