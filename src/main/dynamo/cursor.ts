import { z } from 'zod';
import { itemSchema, type Item } from '../../shared/dynamo/attribute-value';
import { parseKeepingProtoKeys } from '../../shared/dynamo/proto-keys';
import { AppFailure, ErrorCodes } from '../../shared/errors';

/**
 * Where a bounded read stopped, as an opaque string for the renderer to hand back. Inside is
 * DynamoDB's LastEvaluatedKey in tagged form, so a number key stays a number and a binary key
 * stays bytes when it goes back as ExclusiveStartKey, plus the table/index it belongs to (a
 * cursor used on another table is refused, not silently misread) and how many items were
 * scanned before it (so progress keeps counting across "load more").
 */
export interface ReadCursor {
  table: string;
  index?: string;
  key: Item;
  /** Items DynamoDB had looked at before this position, across every earlier call. */
  scanned: number;
}

const cursorSchema = z.object({
  v: z.literal(1),
  table: z.string(),
  index: z.string().optional(),
  key: itemSchema,
  scanned: z.number().int().nonnegative(),
});

/** Two 2 KB/1 KB table keys plus two index keys fit comfortably; anything longer is not ours. */
const MAX_CURSOR_LENGTH = 16 * 1024;

export function encodeCursor(cursor: ReadCursor): string {
  const body = { v: 1, table: cursor.table, index: cursor.index, key: cursor.key, scanned: cursor.scanned };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

export function decodeCursor(text: string, expected: { table: string; index?: string }): ReadCursor {
  const invalid = (why: string): AppFailure =>
    new AppFailure(
      ErrorCodes.invalidInput,
      `This continuation cursor cannot be used: ${why}. Start the read again from the beginning.`,
    );
  if (text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text))
    throw invalid('it is not one DynoTable made');
  let parsed: z.infer<typeof cursorSchema>;
  try {
    parsed = parseKeepingProtoKeys(cursorSchema, JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw invalid('it is damaged or from another version of DynoTable');
  }
  if (parsed.table !== expected.table || (parsed.index ?? undefined) !== (expected.index ?? undefined)) {
    const where = (t: string, i?: string): string => (i ? `${t} (index ${i})` : t);
    throw invalid(
      `it belongs to ${where(parsed.table, parsed.index)}, not ${where(expected.table, expected.index)}`,
    );
  }
  return { table: parsed.table, index: parsed.index, key: parsed.key, scanned: parsed.scanned };
}
