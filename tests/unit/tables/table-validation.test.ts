import { describe, expect, it } from 'vitest';
import { changeCalls, changeConsequence, changeProblems } from '../../../src/shared/dynamo/table-change';
import { blankDefinition, singleTableDefinition } from '../../../src/shared/dynamo/table-definition';
import { problemAt, validateDefinition } from '../../../src/shared/dynamo/table-validation';
import type { TableSummary } from '../../../src/shared/ipc/tables';

describe('validateDefinition', () => {
  it('accepts the single-table template and says where a blank form is incomplete', () => {
    expect(validateDefinition(singleTableDefinition('Orders'))).toEqual([]);
    expect(validateDefinition(blankDefinition())).toEqual([
      { field: 'name', message: 'A table name is required.' },
      { field: 'partitionKey.name', message: 'The partition key needs a name.' },
    ]);
  });

  it("follows DynamoDB's name rules and limits", () => {
    const at = (d: Parameters<typeof validateDefinition>[0], field: string) =>
      problemAt(validateDefinition(d), field);
    const base = singleTableDefinition('Orders');
    expect(at({ ...base, name: 'ab' }, 'name')).toMatch(/3 to 255/);
    expect(at({ ...base, name: 'a'.repeat(256) }, 'name')).toMatch(/3 to 255/);
    expect(at({ ...base, name: 'Orders.v2-prod_1' }, 'name')).toBeUndefined();
    expect(at({ ...base, partitionKey: { name: 'é'.repeat(128), type: 'S' } }, 'partitionKey')).toMatch(
      /255 bytes/,
    );
    expect(at({ ...base, sortKey: { name: 'PK', type: 'S' } }, 'sortKey')).toMatch(/different attribute/);
    expect(
      at({ ...base, billingMode: 'PROVISIONED', readCapacity: 0, writeCapacity: 1.5 }, 'readCapacity'),
    ).toMatch(/at least 1/);
    expect(
      at({ ...base, billingMode: 'PROVISIONED', readCapacity: 1, writeCapacity: 1 }, 'globalIndexes.0'),
    ).toMatch(/read capacity is required/);
    const gsi = base.globalIndexes[0]!;
    const many = Array.from({ length: 21 }, (_, i) => ({ ...gsi, name: `GSI${i}` }));
    expect(at({ ...base, globalIndexes: many }, 'globalIndexes')).toMatch(/at most 20/);
    expect(at({ ...base, globalIndexes: [gsi, gsi] }, 'globalIndexes.1.name')).toMatch(
      /already named "GSI1"/,
    );
    const lsi = {
      name: 'byX',
      sortKey: { name: 'x', type: 'N' as const },
      projection: { type: 'ALL' as const },
    };
    expect(at({ ...base, sortKey: undefined, localIndexes: [lsi] }, 'localIndexes')).toMatch(
      /needs a table with a sort key/,
    );
    expect(at({ ...base, tags: [{ key: 'aws:x', value: '' }] }, 'tags.0')).toMatch(/reserved/);
    expect(
      at(
        {
          ...base,
          tags: [
            { key: 'a', value: '' },
            { key: 'a', value: '' },
          ],
        },
        'tags.1',
      ),
    ).toMatch(/twice/);
  });

  it('keeps attribute names as data (__proto__ and constructor are ordinary keys)', () => {
    const d = { ...singleTableDefinition('Orders'), partitionKey: { name: '__proto__', type: 'S' as const } };
    expect(validateDefinition(d)).toEqual([]);
    const clash = { ...d, sortKey: { name: 'constructor', type: 'N' as const } };
    clash.globalIndexes = [{ ...clash.globalIndexes[0]!, partitionKey: { name: 'constructor', type: 'S' } }];
    expect(problemAt(validateDefinition(clash), 'globalIndexes.0.partitionKey.type')).toMatch(/type N/);
  });
});

const summary: TableSummary = {
  name: 'Orders',
  status: 'ACTIVE',
  keys: { partitionKey: { name: 'PK', type: 'S' }, sortKey: { name: 'SK', type: 'S' } },
  indexes: [
    {
      name: 'GSI1',
      kind: 'GSI',
      keys: { partitionKey: { name: 'G', type: 'S' } },
      projection: 'ALL',
      status: 'ACTIVE',
    },
  ],
  billingMode: 'PAY_PER_REQUEST',
  itemCount: 0,
  sizeBytes: 0,
  ttl: { status: 'DISABLED' },
  stream: { enabled: true, viewType: 'KEYS_ONLY' },
  pointInTimeRecovery: 'UNKNOWN',
  deletionProtection: false,
  arn: 'arn:aws:dynamodb:eu-west-1:123456789012:table/Orders',
};

describe('table changes', () => {
  it('changes a stream view type with two requests, off then on, and says the ARN changes', () => {
    const change = { kind: 'stream', enabled: true, viewType: 'NEW_IMAGE' } as const;
    expect(changeCalls(change, summary).map((c) => c.input.StreamSpecification)).toEqual([
      { StreamEnabled: false },
      { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
    ]);
    expect(changeConsequence(change, summary)).toMatch(/new ARN/);
  });

  it('gives a provisioned switch capacity for every GSI, and says what it costs and locks', () => {
    const change = { kind: 'billing', mode: 'PROVISIONED', readCapacity: 5, writeCapacity: 2 } as const;
    expect(changeCalls(change, summary)[0]?.input.GlobalSecondaryIndexUpdates).toEqual([
      {
        Update: { IndexName: 'GSI1', ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 2 } },
      },
    ]);
    expect(changeConsequence(change, summary)).toMatch(/billed every hour/);
    const back = { ...summary, billingMode: 'PROVISIONED' as const };
    expect(changeConsequence({ kind: 'billing', mode: 'PAY_PER_REQUEST' }, back)).toMatch(/rolling 24 hours/);
    expect(
      changeConsequence(
        {
          kind: 'addIndex',
          index: { name: 'X', partitionKey: { name: 'x', type: 'S' }, projection: { type: 'ALL' } },
        },
        summary,
      ),
    ).toMatch(/one index can be added or deleted per request/);
  });

  it('refuses what DynamoDB would: a second index while one builds, an LSI delete, PITR on DynamoDB Local', () => {
    const building = { ...summary, indexes: [{ ...summary.indexes[0]!, status: 'CREATING' }] };
    const add = {
      kind: 'addIndex',
      index: { name: 'GSI2', partitionKey: { name: 'x', type: 'S' }, projection: { type: 'ALL' } },
    } as const;
    expect(problemAt(changeProblems(add, building), 'index')).toMatch(/still being created/);
    const withLsi = { ...summary, indexes: [{ ...summary.indexes[0]!, name: 'L', kind: 'LSI' as const }] };
    expect(problemAt(changeProblems({ kind: 'deleteIndex', name: 'L' }, withLsi), 'index')).toMatch(
      /cannot be deleted/,
    );
    const local = { ...summary, arn: 'arn:aws:dynamodb:ddblocal:000000000000:table/Orders' };
    expect(problemAt(changeProblems({ kind: 'pitr', enabled: true }, local), 'pitr')).toMatch(
      /DynamoDB Local does not implement/,
    );
    expect(changeProblems({ kind: 'pitr', enabled: true }, summary)).toEqual([]);
  });
});
