import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toAppError } from '../../src/main/core/to-app-error';
import { itemSchema, type AttributeValue } from '../../src/shared/dynamo/attribute-value';
import { itemSize } from '../../src/shared/dynamo/item-size';
import { validateItem } from '../../src/shared/dynamo/validate-item';
import { tooDeepAt } from '../../src/shared/dynamo/value-depth';

function nested(levels: number): AttributeValue {
  let value: AttributeValue = { S: 'x' };
  for (let i = 0; i < levels; i++) value = i % 2 ? { M: { a: value } } : { L: [value] };
  return value;
}

const keys = { partitionKey: { name: 'pk', type: 'S' as const } };

describe('values nested past the limit, checked without recursion', () => {
  it('finds the first level past 32 and nothing within it', () => {
    expect(tooDeepAt(nested(31))).toBeUndefined();
    // 32 containers put the innermost string at level 33: its path is 32 steps long.
    expect(tooDeepAt(nested(32))).toHaveLength(32);
    expect(tooDeepAt(nested(32))?.slice(0, 2)).toEqual(['a', 0]);
  });

  it('agrees with validateItem on where the limit is', () => {
    for (const levels of [30, 31, 32, 33]) {
      const tooDeep = validateItem({ pk: { S: 'a' }, v: nested(levels) }, { keys }).length > 0;
      expect(tooDeep, `${levels} levels`).toBe(tooDeepAt(nested(levels)) !== undefined);
    }
  });

  it('parses, validates and sizes a value nested 100,000 levels without overflowing the stack', () => {
    const item = { pk: { S: 'a' }, v: nested(100_000) };
    const parsed = itemSchema.safeParse(item);
    expect(parsed.success).toBe(false);
    expect(toAppError(parsed.error).message).toMatch(/^The request was not valid at v: .*32 levels/);
    expect(validateItem(item, { keys }).map((i) => i.message)).toContain(
      "Nested deeper than DynamoDB's limit of 32 levels.",
    );
    expect(itemSize({ wide: { L: Array.from({ length: 200_000 }, () => ({ NULL: true as const })) } })).toBe(
      4 + 3 + 200_000 * 2,
    );
  });
});

describe('a refused request as a sentence that names the field', () => {
  const schema = z.object({
    connectionId: z.string(),
    format: z.enum(['csv', 'jsonl']),
    path: z.string().min(1),
  });
  const sentence = (input: unknown) => {
    const result = schema.safeParse(input);
    if (result.success) throw new Error('expected a refusal');
    return toAppError(result.error);
  };

  it('says which field is missing, which has the wrong type, which value is not allowed', () => {
    expect(sentence({ format: 'csv', path: 'x' }).message).toBe(
      'The request was not valid at connectionId: it is missing; send a string.',
    );
    expect(sentence({ connectionId: 7, format: 'csv', path: 'x' }).message).toBe(
      'The request was not valid at connectionId: it must be a string, not a number.',
    );
    expect(sentence({ connectionId: 'c', format: 'xml', path: 'x' }).message).toBe(
      'The request was not valid at format: it must be one of "csv", "jsonl".',
    );
    expect(sentence({ connectionId: 'c', format: 'csv', path: '' }).message).toBe(
      'The request was not valid at path: it cannot be empty.',
    );
    expect(sentence('text').message).toBe('The request body must be a JSON object, not a string.');
  });
});

describe('file system failures as sentences', () => {
  const fsError = (code: string, syscall: string, extra: Record<string, string>) =>
    Object.assign(new Error(`${code}: raw`), { code, syscall, ...extra });

  it('names the path and the problem, and keeps sockets and child processes out of it', () => {
    expect(toAppError(fsError('ENOENT', 'open', { path: '/data/in.jsonl' }))).toMatchObject({
      code: 'FileNotFound',
      message: expect.stringContaining('"/data/in.jsonl": there is no such file or folder') as unknown,
    });
    expect(toAppError(fsError('EISDIR', 'rename', { path: '/out/x.part', dest: '/out/x' }))).toMatchObject({
      code: 'NotAFile',
      message: expect.stringContaining('"/out/x": it is a folder') as unknown,
    });
    expect(toAppError(fsError('ECONNREFUSED', 'connect', {})).code).toBe('ECONNREFUSED');
    expect(toAppError(fsError('ECONNRESET', 'read', {}))).toMatchObject({
      code: 'ECONNRESET',
      message: expect.stringContaining('Could not reach DynamoDB') as unknown,
    });
    expect(toAppError(fsError('ENOENT', 'spawn java', { path: 'java' })).code).not.toBe('FileNotFound');
  });
});
