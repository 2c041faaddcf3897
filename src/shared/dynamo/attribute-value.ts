import { z } from 'zod';

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

export const attributeValueSchema: z.ZodType<AttributeValue> = z.lazy(() =>
  z.union([
    z.strictObject({ S: z.string() }),
    z.strictObject({ N: decimal }),
    z.strictObject({ B: base64 }),
    z.strictObject({ BOOL: z.boolean() }),
    z.strictObject({ NULL: z.literal(true) }),
    z.strictObject({ L: z.array(attributeValueSchema) }),
    z.strictObject({ M: z.record(z.string(), attributeValueSchema) }),
    z.strictObject({ SS: z.array(z.string()) }),
    z.strictObject({ NS: z.array(decimal) }),
    z.strictObject({ BS: z.array(base64) }),
  ]),
);

export const itemSchema: z.ZodType<Item> = z.record(z.string(), attributeValueSchema);

export type AttributeType = 'S' | 'N' | 'B' | 'BOOL' | 'NULL' | 'L' | 'M' | 'SS' | 'NS' | 'BS';

export function typeOf(value: AttributeValue): AttributeType {
  return Object.keys(value)[0] as AttributeType;
}
