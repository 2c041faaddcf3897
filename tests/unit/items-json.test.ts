import { describe, expect, it } from 'vitest';
import {
  formatDynamoJson,
  formatPlainJson,
  parseDynamoJson,
  parsePlainJson,
  plainJsonObstacle,
} from '../../src/shared/dynamo/item-json';
import { JsonTextError } from '../../src/shared/dynamo/json-text';
import { everyTypeItem } from '../fixtures/items-every-type';

function errorOf(run: () => unknown): JsonTextError {
  try {
    run();
  } catch (error) {
    if (error instanceof JsonTextError) return error;
    throw error;
  }
  throw new Error('expected a JsonTextError');
}

describe('the editor text views', () => {
  it('round-trips every type through the DynamoDB-JSON view', () => {
    const item = everyTypeItem();
    expect(parseDynamoJson(formatDynamoJson(item))).toEqual(item);
  });

  it('accepts unquoted numbers in DynamoDB JSON without rounding them', () => {
    expect(parseDynamoJson('{"n": {"N": 12345678901234567890123456789012345678}}')).toEqual({
      n: { N: '12345678901234567890123456789012345678' },
    });
  });

  it('points at the line and column of a mistake', () => {
    const text = '{\n  "a": {"S": "x"},\n  "b": {"N": "12x"}\n}';
    const error = errorOf(() => parseDynamoJson(text));
    expect([error.line, error.column]).toEqual([3, 14]);
    expect(error.message).toMatch(/not a number/);
    expect(errorOf(() => parseDynamoJson('{"a": {"S": "x"},}')).message).toMatch(/Expected a quoted name/);
    expect(errorOf(() => parseDynamoJson('{"a": {"STR": "x"}}')).message).toMatch(
      /"STR" is not a DynamoDB type/,
    );
    expect(errorOf(() => parseDynamoJson('{"a": {"S": "x"}, "a": {"S": "y"}}')).message).toMatch(
      /appears twice/,
    );
  });

  it('offers plain JSON only when it is unambiguous, and keeps every digit in it', () => {
    expect(plainJsonObstacle(everyTypeItem())).toMatch(/binary|set/);
    const item = {
      pk: { S: 'x' },
      n: { N: '12345678901234567890123456789012345678' },
      m: { M: { z: { NULL: true as const }, l: { L: [{ BOOL: true }] } } },
    };
    expect(plainJsonObstacle(item)).toBeUndefined();
    const text = formatPlainJson(item);
    expect(text).toContain('12345678901234567890123456789012345678');
    expect(parsePlainJson(text)).toEqual(item);
    expect(parsePlainJson('{"n": .5}'.replace('.5', '0.5'))).toEqual({ n: { N: '0.5' } });
  });

  it('keeps an attribute called __proto__ as an attribute', () => {
    const item = parseDynamoJson('{"__proto__": {"S": "x"}}');
    expect(Object.keys(item)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
  });
});
