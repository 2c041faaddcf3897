import { describe, expect, it } from 'vitest';
import { parseExpressionNames, parseExpressionValues } from '../../src/shared/dynamo/expression-values';
import { buildReadRequest } from '../../src/shared/dynamo/read-request';
import { initialBuilder, limitProblem, toReadSpec } from '../../src/renderer/features/query/builder-state';
import { readErrorAtField, withRawFromForm } from '../../src/renderer/features/query/raw-fields';

const keys = {
  partitionKey: { name: 'PK', type: 'S' as const },
  sortKey: { name: 'SK', type: 'S' as const },
};
const target = { table: 'Orders', keys, indexes: [] };

describe('raw expression values', () => {
  it('takes plain JSON typed as the form would, and DynamoDB JSON, side by side', () => {
    const values = parseExpressionValues(
      '{":s": "PAID", ":n": 12345678901234567890123456789012345678, ":b": true, ":z": null, ":l": [1, "a"], ":m": {"city": "Kyoto"}, ":set": {"SS": ["a", "b"]}, ":tagged": {"N": "42"}}',
    );
    expect(values).toEqual({
      ':s': { S: 'PAID' },
      ':n': { N: '12345678901234567890123456789012345678' },
      ':b': { BOOL: true },
      ':z': { NULL: true },
      ':l': { L: [{ N: '1' }, { S: 'a' }] },
      ':m': { M: { city: { S: 'Kyoto' } } },
      ':set': { SS: ['a', 'b'] },
      ':tagged': { N: '42' },
    });
  });

  it('says where a value is wrong, by line and column, and keeps placeholder names as data', () => {
    expect(() => parseExpressionValues('{\n  ":n": 12.\n}')).toThrow(/line 2, column/);
    expect(() => parseExpressionValues('{"paid": "PAID"}')).toThrow(/must start with a colon/);
    expect(() => parseExpressionNames('{"#s": 3}')).toThrow(/An attribute name is a string/);
    expect(Object.keys(parseExpressionValues('{":__proto__": "x"}'))).toEqual([':__proto__']);
    expect(parseExpressionNames('')).toEqual({});
  });

  it('places builder mistakes at the raw box they are in', () => {
    const built = toReadSpec(
      {
        ...initialBuilder,
        isRaw: true,
        rawFilter: '#s = :v',
        rawNames: '{"#s": "status"}',
        rawValues: '{":v": 1.}',
      },
      keys,
      [],
      [],
    );
    expect(built).toEqual({
      errors: { rawValues: expect.stringMatching(/^Line 1, column 9: Expected/) as string },
    });
    const query = toReadSpec({ ...initialBuilder, mode: 'query', isRaw: true }, keys, [], []);
    expect(query).toEqual({
      errors: { rawKeyCondition: expect.stringMatching(/needs a key condition/) as string },
    });
  });
});

describe('switching the form to raw expressions', () => {
  it('carries the key condition and filter over with readable placeholders that build the same read', () => {
    const form = {
      ...initialBuilder,
      mode: 'query' as const,
      partitionKey: 'USER#1',
      sortOp: 'begins_with' as const,
      sortValue: 'ORDER#',
      conditions: [
        {
          id: 'a',
          path: 'status',
          op: '=' as const,
          type: 'S' as const,
          value: 'PAID',
          value2: '',
          sizeOp: '>' as const,
        },
        {
          id: 'b',
          path: 'n',
          op: '>' as const,
          type: 'N' as const,
          value: '3',
          value2: '',
          sizeOp: '>' as const,
        },
      ],
    };
    const raw = withRawFromForm(form, target, []);
    expect(raw.isRaw).toBe(true);
    expect(raw.rawKeyCondition).toBe('#PK = :PK AND begins_with(#SK, :SK)');
    expect(raw.rawFilter).toBe('(#status = :status AND #n > :n)');
    expect(JSON.parse(raw.rawValues)).toEqual({
      ':PK': 'USER#1',
      ':SK': 'ORDER#',
      ':status': 'PAID',
      ':n': 3,
    });
    // Oracle: the raw read and the form's read send the same request, placeholders aside.
    const viaRaw = toReadSpec(raw, keys, [], []);
    const viaForm = toReadSpec(form, keys, [], []);
    if ('errors' in viaRaw || 'errors' in viaForm) throw new Error('did not build');
    const a = buildReadRequest(target, viaRaw.spec).input;
    const b = buildReadRequest(target, viaForm.spec).input;
    const resolve = (text: string | undefined, input: typeof a) =>
      (text ?? '').replace(/[#:][\w]+/g, (t) =>
        t.startsWith('#')
          ? `#${input.ExpressionAttributeNames?.[t] ?? t}`
          : JSON.stringify(input.ExpressionAttributeValues?.[t]),
      );
    expect(resolve(a.KeyConditionExpression, a)).toBe(resolve(b.KeyConditionExpression, b));
    expect(resolve(a.FilterExpression, a)).toBe(resolve(b.FilterExpression, b));
  });

  it('keeps raw text the user wrote, and carries nothing from a form that does not build', () => {
    const written = { ...initialBuilder, rawFilter: 'attribute_exists(#x)', rawNames: '{"#x": "x"}' };
    expect(withRawFromForm(written, target, [])).toEqual({ ...written, isRaw: true });
    const broken = {
      ...initialBuilder,
      conditions: [
        {
          id: 'a',
          path: 'n',
          op: '>' as const,
          type: 'N' as const,
          value: 'x',
          value2: '',
          sizeOp: '>' as const,
        },
      ],
    };
    expect(withRawFromForm(broken, target, [])).toEqual({ ...broken, isRaw: true });
  });
});

describe('read errors at the field the user typed', () => {
  it("speaks of DynamoDB's parameters in the words of the box", () => {
    const error = {
      code: 'ValidationException',
      message:
        'DynamoDB rejected the request as invalid. Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}',
      retryable: false,
      details: {
        awsMessage: 'Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}',
      },
    };
    expect(readErrorAtField(error, true)).toEqual({
      rawValues:
        'DynamoDB refused this: Value provided in the expression attribute values unused in expressions: keys: {:x}.',
    });
    expect(readErrorAtField(error, false)).toBeUndefined();
    const reserved = {
      code: 'InvalidInput',
      message: 'The placeholder #n0 is reserved',
      retryable: false,
      details: { field: 'rawNames' },
    };
    expect(readErrorAtField(reserved, true)).toEqual({ rawNames: 'The placeholder #n0 is reserved' });
  });
});

describe('read limits, checked as typed', () => {
  it('says which limit, its range and the typed value', () => {
    expect(limitProblem('pageSize', '10000000')).toBe(
      'Page size must be from 1 to 1,000; 10,000,000 is not.',
    );
    expect(limitProblem('maxItems', '1000000')).toBeUndefined();
    expect(limitProblem('maxItems', '2.5')).toBe('Max items is a whole number from 1 to 1,000,000.');
    expect(limitProblem('pageSize', ' ')).toBe('Page size needs a number from 1 to 1,000.');
  });
});
