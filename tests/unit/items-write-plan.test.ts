import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { toAwsCli, toSdkV3Code } from '../../src/shared/dynamo/request-code';
import { MAX_TRANSACTION_ACTIONS, splitTransactions } from '../../src/shared/dynamo/transaction-plan';
import { planChange } from '../../src/shared/dynamo/write-plan';
import type { TransactAction } from '../../src/shared/dynamo/write-requests';

const target = {
  table: 'Orders',
  keys: { partitionKey: { name: 'pk', type: 'S' as const }, sortKey: { name: 'sk', type: 'S' as const } },
};
const seen: Item = {
  pk: { S: 'USER#1' },
  sk: { S: 'ORDER#1' },
  status: { S: 'created' },
  'a.b': { N: '1' },
  gone: { S: 'x' },
};

describe('planChange', () => {
  it('updates only what changed, conditioned on what was seen, with every name as a placeholder', () => {
    const desired: Item = {
      pk: seen.pk!,
      sk: seen.sk!,
      status: { S: 'paid' },
      'a.b': { N: '1' },
      added: { BOOL: true },
    };
    const plan = planChange(target, { seen, desired });
    expect(plan.kind).toBe('update');
    expect(plan.diff.map((c) => `${c.kind}:${c.name}`)).toEqual([
      'changed:status',
      'removed:gone',
      'added:added',
    ]);
    if (plan.request?.operation !== 'UpdateItem') throw new Error('expected an UpdateItem');
    const input = plan.request.input;
    expect(input.UpdateExpression).toBe('SET #n0 = :v0, #n1 = :v1 REMOVE #n2');
    expect(input.ExpressionAttributeNames).toMatchObject({ '#n0': 'status', '#n1': 'added', '#n2': 'gone' });
    expect(input.ConditionExpression).toBe(
      'attribute_not_exists(#n1) AND #n0 = :v2 AND #n2 = :v3 AND #n3 = :v4 AND #n4 = :v5 AND #n5 = :v6',
    );
    expect(Object.values(input.ExpressionAttributeNames ?? {})).toContain('a.b');
    expect(input.ReturnValuesOnConditionCheckFailure).toBe('ALL_OLD');
    expect(plan.coverage).toEqual({ checked: 6, total: 6 });
  });

  it('creates with attribute_not_exists on the key and deletes conditioned on the whole item', () => {
    const create = planChange(target, { seen: null, desired: seen });
    expect(create.request).toMatchObject({
      operation: 'PutItem',
      input: { ConditionExpression: 'attribute_not_exists(#n0)', ExpressionAttributeNames: { '#n0': 'pk' } },
    });
    const del = planChange(target, { seen, desired: null });
    expect(del.request?.operation).toBe('DeleteItem');
    expect(del.coverage).toEqual({ checked: 5, total: 5 });
  });

  it('turns a key change into one transaction: conditional delete, then conditional put', () => {
    const plan = planChange(target, { seen, desired: { ...seen, sk: { S: 'ORDER#2' } } }, 'tok');
    expect(plan.kind).toBe('key-change');
    expect(plan.actions.map((a) => Object.keys(a)[0])).toEqual(['Delete', 'Put']);
    expect(plan.request).toMatchObject({
      operation: 'TransactWriteItems',
      input: { ClientRequestToken: 'tok' },
    });
  });

  it('keeps a condition on a very wide item inside DynamoDB limits and says how much it checks', () => {
    const wide: Item = { pk: { S: 'p' }, sk: { S: 's' } };
    for (let i = 0; i < 400; i++) wide[`attr${i}`] = { N: String(i) };
    const plan = planChange(target, { seen: wide, desired: { ...wide, attr399: { N: '0' } } });
    if (plan.request?.operation !== 'UpdateItem') throw new Error('expected an UpdateItem');
    expect(plan.request.input.ConditionExpression?.length).toBeLessThanOrEqual(4096);
    expect(plan.request.input.ConditionExpression).toMatch(/^#n0 = :v1/);
    expect(plan.request.input.ExpressionAttributeNames?.['#n0']).toBe('attr399');
    expect(plan.coverage?.checked).toBeLessThan(402);
    expect(plan.coverage?.total).toBe(402);
  });
});

describe('splitTransactions', () => {
  const put = (i: number, bytes = 10): TransactAction => ({
    Put: { TableName: 'T', Item: { pk: { S: `k${i}` }, v: { S: 'x'.repeat(bytes) } } },
  });

  it('splits at 100 actions and 4 MB, keeping a change whole, with one token per batch', () => {
    const changes = Array.from({ length: 250 }, (_, i) => [put(i)]);
    changes.splice(99, 1, [put(990), put(991)]);
    const batches = splitTransactions(changes, 'abc');
    expect(batches.map((b) => b.request.TransactItems.length)).toEqual([99, 100, 52]);
    expect(batches.every((b) => b.request.TransactItems.length <= MAX_TRANSACTION_ACTIONS)).toBe(true);
    expect(batches[1]?.owners[0]).toBe(99);
    expect(batches.map((b) => b.request.ClientRequestToken)).toEqual(['abc-0', 'abc-1', 'abc-2']);
    const heavy = Array.from({ length: 30 }, (_, i) => [put(i, 350 * 1024)]);
    expect(splitTransactions(heavy, 't').map((b) => b.request.TransactItems.length)).toEqual([11, 11, 8]);
  });
});

describe('copy as code', () => {
  it('writes SDK v3 code with binary as Buffer and numbers as strings, and a quoted AWS CLI line', () => {
    const plan = planChange(target, {
      seen,
      desired: { ...seen, status: { S: "it's paid" }, bin: { B: 'AAE=' } },
    });
    if (!plan.request) throw new Error('no request');
    const code = toSdkV3Code(plan.request, { region: 'eu-west-1' });
    expect(code).toContain('import { DynamoDBClient, UpdateItemCommand } from "@aws-sdk/client-dynamodb";');
    expect(code).toContain('{ B: Buffer.from("AAE=", "base64") }');
    expect(code).toContain('{ N: "1" }');
    const cli = toAwsCli(plan.request, { region: 'eu-west-1' });
    expect(cli).toMatch(/^aws dynamodb update-item/);
    expect(cli).toContain(`--update-expression 'SET #n0 = :v0, #n1 = :v1'`);
    expect(cli).toContain(`"S":"it'\\''s paid"`);
    expect(cli).toContain('--return-values-on-condition-check-failure');
  });
});
