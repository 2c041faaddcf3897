import { describe, expect, it } from 'vitest';
import {
  initialBuilder,
  toReadSpec,
  type BuilderState,
} from '../../src/renderer/features/query/builder-state';
import type { IndexInfo, KeySchema } from '../../src/shared/ipc/tables';

const tableKeys: KeySchema = { partitionKey: { name: 'id', type: 'S' } };
const indexes: IndexInfo[] = [
  {
    name: 'byTenantRegion',
    kind: 'GSI',
    projection: 'ALL',
    keys: {
      partitionKey: { name: 'tenant', type: 'S' },
      morePartitionKeys: [{ name: 'reg.ion', type: 'S' }],
      sortKey: { name: '#day', type: 'S' },
      moreSortKeys: [{ name: 'seq', type: 'N' }],
    },
  },
];

function build(change: Partial<BuilderState>) {
  return toReadSpec(
    { ...initialBuilder, mode: 'query', index: 'byTenantRegion', partitionKey: 't1', ...change },
    tableKeys,
    indexes,
    [],
  );
}

describe('the query builder on a multi-attribute index', () => {
  it('asks for every partition attribute before running', () => {
    expect(build({})).toEqual({
      errors: {
        'morePartitionKeys.0':
          'A query on this index needs every partition attribute; "reg.ion" has no value.',
      },
    });
  });

  it('refuses a sort attribute skipped in the middle, naming the rule', () => {
    const built = build({
      morePartitionKeys: [{ value: 'eu' }],
      moreSortKeys: [{ op: '>', value: '3', value2: '' }],
    });
    expect(built).toEqual({
      errors: {
        sortKey:
          'The sort attribute "#day" needs a condition, because "seq" after it has one: DynamoDB reads sort attributes left to right and skips none.',
      },
    });
  });

  it('refuses a range before the last sort attribute named', () => {
    const built = build({
      morePartitionKeys: [{ value: 'eu' }],
      sortOp: 'begins_with',
      sortValue: 'd',
      moreSortKeys: [{ op: '=', value: '3', value2: '' }],
    });
    expect('errors' in built && built.errors.sortKey).toMatch(
      /must be compared with =.*only the last sort attribute/,
    );
  });

  it('builds the spec with every value typed by its attribute', () => {
    const built = build({
      morePartitionKeys: [{ value: 'eu' }],
      sortOp: '=',
      sortValue: 'd1',
      moreSortKeys: [{ op: 'between', value: '2', value2: '9' }],
    });
    expect('spec' in built && built.spec).toMatchObject({
      partitionKey: { S: 't1' },
      morePartitionKeys: [{ S: 'eu' }],
      sortKey: { op: '=', value: { S: 'd1' } },
      moreSortKeys: [{ op: 'between', value: { N: '2' }, value2: { N: '9' } }],
    });
  });
});
