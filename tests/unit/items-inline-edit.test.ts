import { describe, expect, it } from 'vitest';
import type { KeySchema } from '../../src/shared/ipc/tables';
import { ENTITY_COLUMN } from '../../src/renderer/features/items/components/grid-layout';
import {
  editText,
  inlineKind,
  parseInline,
  withAttribute,
} from '../../src/renderer/features/items/components/inline-edit';

// Inline cell editing: which cells edit in place, how typed text becomes a value, and that a
// refused value is a sentence, never a half-made change.
const keys: KeySchema = { partitionKey: { name: 'PK', type: 'S' }, sortKey: { name: 'SK', type: 'S' } };

describe('inline cell editing', () => {
  it('edits S, N and BOOL attributes in place; keys, the entity column and other types open the item', () => {
    expect(inlineKind('name', { S: 'x' }, keys)).toBe('S');
    expect(inlineKind('total', { N: '1' }, keys)).toBe('N');
    expect(inlineKind('active', { BOOL: true }, keys)).toBe('BOOL');
    expect(inlineKind('PK', { S: 'USER#1' }, keys)).toBeUndefined();
    expect(inlineKind('SK', { S: 'ORDER#1' }, keys)).toBeUndefined();
    expect(inlineKind(ENTITY_COLUMN, { S: 'USER' }, keys)).toBeUndefined();
    expect(inlineKind('tags', { SS: ['a'] }, keys)).toBeUndefined();
    expect(inlineKind('address', { M: {} }, keys)).toBeUndefined();
    expect(inlineKind('missing', undefined, keys)).toBeUndefined();
  });

  it('starts from the value exactly as stored, 38 digits and all', () => {
    const digits = '12345678901234567890123456789012345678';
    expect(editText({ N: digits })).toBe(digits);
    expect(parseInline('N', digits)).toEqual({ value: { N: digits } });
  });

  it('refuses what is not a DynamoDB number with a sentence', () => {
    for (const text of ['abc', '', '1e200', '12345678901234567890123456789012345678901', '1,5']) {
      const parsed = parseInline('N', text);
      expect('problem' in parsed ? parsed.problem : '').toMatch(/number/);
    }
    expect(parseInline('N', ' -0.50 ')).toEqual({ value: { N: '-0.50' } });
    expect(parseInline('S', '')).toEqual({ value: { S: '' } });
    expect(parseInline('BOOL', 'false')).toEqual({ value: { BOOL: false } });
  });

  it('keeps __proto__ and constructor ordinary attribute names', () => {
    const item = withAttribute({ PK: { S: 'a' } }, '__proto__', { N: '1' });
    const again = withAttribute(item, 'constructor', { S: 'x' });
    expect(Object.keys(again)).toEqual(['PK', '__proto__', 'constructor']);
    expect(Object.getPrototypeOf(again)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(again, '__proto__')?.value).toEqual({ N: '1' });
  });
});
