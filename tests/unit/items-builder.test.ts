import { describe, expect, it } from 'vitest';
import { formatAttributePath, parseAttributePath } from '../../src/renderer/features/query/attribute-path';
import {
  initialBuilder,
  toReadSpec,
  type BuilderState,
} from '../../src/renderer/features/query/builder-state';

const keys = {
  partitionKey: { name: 'PK', type: 'S' as const },
  sortKey: { name: 'SK', type: 'N' as const },
};
const indexes = [
  {
    name: 'GSI1',
    kind: 'GSI' as const,
    keys: { partitionKey: { name: 'GSI1PK', type: 'S' as const } },
    projection: 'ALL',
  },
];

describe('attribute paths typed in the builder', () => {
  it('reads nested paths, list indexes and backtick-quoted names', () => {
    expect(parseAttributePath('address.city')).toEqual(['address', 'city']);
    expect(parseAttributePath('lines[2].price')).toEqual(['lines', 2, 'price']);
    expect(parseAttributePath('`a.b`.c')).toEqual(['a.b', 'c']);
    expect(formatAttributePath(['a.b', 'c', 0])).toBe('`a.b`.c[0]');
  });

  it('treats a known top-level name with a dot as that one name (dynamoose leaves them)', () => {
    expect(parseAttributePath('address.city', ['address.city', 'address'])).toEqual(['address.city']);
  });

  it('explains a malformed path', () => {
    expect(parseAttributePath('a.')).toMatch(/ends with a dot/);
    expect(parseAttributePath('[0]')).toMatch(/starts with an attribute/);
    expect(parseAttributePath('`open')).toMatch(/not closed/);
  });
});

describe('the builder form to a read spec', () => {
  const query: BuilderState = {
    ...initialBuilder,
    mode: 'query',
    partitionKey: 'USER#1',
    sortOp: 'between',
    sortValue: '1',
    sortValue2: '12345678901234567890123456789012345678',
  };

  it('types key values by the table or index key schema, numbers kept as text', () => {
    const built = toReadSpec(query, keys, indexes, []);
    expect(built).toMatchObject({
      spec: {
        mode: 'query',
        partitionKey: { S: 'USER#1' },
        sortKey: {
          op: 'between',
          value: { N: '1' },
          value2: { N: '12345678901234567890123456789012345678' },
        },
      },
      pageSize: 100,
      maxItems: 100,
    });
  });

  it('names the field of each mistake', () => {
    const built = toReadSpec(
      {
        ...query,
        partitionKey: '',
        sortValue: '1e999',
        pageSize: '0',
        conditions: [{ id: 'c1', path: 'total', op: '>', type: 'N', value: 'ten', value2: '', sizeOp: '>' }],
      },
      keys,
      indexes,
      [],
    );
    expect(built).toEqual({
      errors: {
        partitionKey: 'A query needs the partition key "PK".',
        sortKey: 'The number is too large for DynamoDB (the largest magnitude is below 1E+126).',
        'condition:c1': 'The number "ten" is not a number.',
        pageSize: 'Page size must be from 1 to 1,000; 0 is not.',
      },
    });
  });

  it('reads without a filter row the user added and left empty, and still names a row with a value but no attribute', () => {
    const blank = {
      id: 'c1',
      path: ' ',
      op: '=' as const,
      type: 'S' as const,
      value: '',
      value2: '',
      sizeOp: '=' as const,
    };
    const untouched = toReadSpec({ ...query, conditions: [blank] }, keys, indexes, []);
    expect(untouched).toMatchObject({ spec: { mode: 'query', partitionKey: { S: 'USER#1' } } });
    expect('spec' in untouched && untouched.spec.filter).toBe(undefined);
    const halfTyped = toReadSpec(
      { ...query, conditions: [blank, { ...blank, id: 'c2', value: 'PAID' }] },
      keys,
      indexes,
      [],
    );
    expect(halfTyped).toEqual({ errors: { 'condition:c2': 'Name an attribute.' } });
  });

  it('builds filters, projection and the index from the form', () => {
    const built = toReadSpec(
      {
        ...initialBuilder,
        index: 'GSI1',
        join: 'OR',
        projection: 'total, `a.b`',
        conditions: [
          { id: 'a', path: 'status', op: 'in', type: 'S', value: 'PAID, SHIPPED', value2: '', sizeOp: '>' },
          { id: 'b', path: 'tags', op: 'size', type: 'S', value: '2', value2: '', sizeOp: '>=' },
        ],
      },
      keys,
      indexes,
      [],
    );
    expect(built).toMatchObject({
      spec: {
        mode: 'scan',
        index: 'GSI1',
        projection: [['total'], ['a.b']],
        filter: {
          join: 'OR',
          items: [
            { path: ['status'], op: 'in', values: [{ S: 'PAID' }, { S: 'SHIPPED' }] },
            { path: ['tags'], op: 'size', sizeOp: '>=', value: { N: '2' } },
          ],
        },
      },
    });
  });
});
