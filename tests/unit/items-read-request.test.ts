import { describe, expect, it } from 'vitest';
import { buildReadRequest } from '../../src/shared/dynamo/read-request';
import type { ReadSpec } from '../../src/shared/ipc/query';

const target = {
  table: 'Orders',
  keys: { partitionKey: { name: 'pk', type: 'S' as const }, sortKey: { name: 'sk', type: 'N' as const } },
  indexes: [
    {
      name: 'GSI1',
      kind: 'GSI' as const,
      keys: { partitionKey: { name: 'status', type: 'S' as const } },
      projection: 'ALL',
    },
    {
      name: 'LSI1',
      kind: 'LSI' as const,
      keys: {
        partitionKey: { name: 'pk', type: 'S' as const },
        sortKey: { name: 'date', type: 'S' as const },
      },
      projection: 'ALL',
    },
  ],
};

describe('buildReadRequest', () => {
  it('builds a query with placeholders for every name, including reserved words and dots', () => {
    const spec: ReadSpec = {
      mode: 'query',
      index: 'GSI1',
      partitionKey: { S: 'paid' },
      filter: {
        kind: 'group',
        join: 'OR',
        not: true,
        items: [
          { kind: 'condition', path: ['a.b', 'c', 0], op: 'size', sizeOp: '>', value: { N: '3' } },
          { kind: 'condition', path: ['name'], op: 'in', values: [{ S: 'x' }, { S: 'y' }] },
          { kind: 'condition', path: ['t'], op: 'attribute_type', type: 'SS' },
        ],
      },
      projection: [['total']],
    };
    const request = buildReadRequest(target, spec);
    expect(request.operation).toBe('Query');
    expect(request.input.KeyConditionExpression).toBe('#n0 = :v0');
    expect(request.input.FilterExpression).toBe(
      'NOT (size(#n1.#n2[0]) > :v1 OR #n3 IN (:v2, :v3) OR attribute_type(#n4, :v4))',
    );
    expect(request.input.ExpressionAttributeNames).toMatchObject({
      '#n0': 'status',
      '#n1': 'a.b',
      '#n3': 'name',
    });
    expect(request.input.ProjectionExpression).toBe('#n5, #n6, #n0, #n7');
    expect(request.input.ExpressionAttributeValues?.[':v4']).toEqual({ S: 'SS' });
  });

  it('allows consistent reads on the table and LSIs and refuses them on GSIs with the reason', () => {
    expect(buildReadRequest(target, { mode: 'scan', consistent: true }).input.ConsistentRead).toBe(true);
    expect(
      buildReadRequest(target, { mode: 'query', index: 'LSI1', partitionKey: { S: 'p' }, consistent: true })
        .input.ConsistentRead,
    ).toBe(true);
    expect(() => buildReadRequest(target, { mode: 'scan', index: 'GSI1', consistent: true })).toThrow(
      /eventually consistent/,
    );
  });

  it('checks key types and operators before anything is sent', () => {
    expect(() => buildReadRequest(target, { mode: 'query' })).toThrow(
      /needs a value for the partition key "pk"/,
    );
    expect(() =>
      buildReadRequest(target, {
        mode: 'query',
        partitionKey: { S: 'p' },
        sortKey: { op: 'begins_with', value: { N: '1' } },
      }),
    ).toThrow(/not numbers/);
    expect(() =>
      buildReadRequest(target, {
        mode: 'query',
        index: 'GSI1',
        partitionKey: { S: 'p' },
        sortKey: { op: '=', value: { S: 'x' } },
      }),
    ).toThrow(/no sort key/);
  });

  it("takes raw expressions with their own placeholders, refusing the builder's", () => {
    const raw = buildReadRequest(target, {
      mode: 'scan',
      raw: { filter: '#s = :p', names: { '#s': 'status' }, values: { ':p': { S: 'paid' } } },
    });
    expect(raw.input).toMatchObject({
      FilterExpression: '#s = :p',
      ExpressionAttributeNames: { '#s': 'status' },
    });
    expect(() =>
      buildReadRequest(target, { mode: 'scan', raw: { filter: '#n0 = :v0', names: { '#n0': 'x' } } }),
    ).toThrow(/reserved for the builder/);
  });
});
