import { DynamoDBClient, GetItemCommand, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { toAppError } from '../../../src/main/core/to-app-error';
import { startFaultyDynamo, type Fault, type FaultyDynamo } from '../../support/faulty-dynamo';
import { createItemsTable } from '../../support/items-context';
import { localClient } from '../../support/dynamo-local';

let faulty: FaultyDynamo;
let direct: DynamoDBClient;
// One attempt: the SDK's retries would hide which call a rule answered.
let sdk: DynamoDBClient;

beforeAll(async () => {
  const upstream = inject('dynamoEndpoint');
  faulty = await startFaultyDynamo(upstream);
  direct = localClient(upstream);
  sdk = new DynamoDBClient({
    endpoint: faulty.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  sdk.destroy();
  direct.destroy();
  await faulty.close();
});

async function failureOf(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error('the call succeeded');
}

/** 'ok', or the name of the error the SDK threw. */
async function outcome(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'ok',
    (error: unknown) => (error as Error).name,
  );
}

describe('the faulty DynamoDB', () => {
  it("is read by the real SDK as DynamoDB's own errors", async () => {
    const table = await createItemsTable(direct);
    const expected: [Fault, string, string][] = [
      ['provisioned-throughput', 'ProvisionedThroughputExceededException', 'provisioned throughput'],
      ['throttling', 'ThrottlingException', 'Rate of requests'],
      ['request-limit', 'RequestLimitExceeded', 'throughput limit for your account'],
      ['expired-token', 'ExpiredTokenException', 'token included in the request is expired'],
      ['unrecognized-client', 'UnrecognizedClientException', 'token included in the request is invalid'],
    ];
    for (const [fault, name, words] of expected) {
      faulty.script({ operation: 'Scan', fault, next: 1 });
      const error = await failureOf(sdk.send(new ScanCommand({ TableName: table })));
      expect(error.name).toBe(name);
      expect(error.message).toContain(words);
      expect(error.$fault).toBe('client');
      expect(error.$metadata).toMatchObject({ httpStatusCode: 400 });
      // The app's error mapping keeps the name and says it in words.
      expect(toAppError(error).code).toBe(name);
    }
    const answered = await sdk.send(new ScanCommand({ TableName: table }));
    expect(answered.Count).toBe(0);
  });

  it('counts what it forwarded and what it refused, by the script', async () => {
    const table = await createItemsTable(direct);
    const before = faulty.calls.length;
    faulty.script({ operation: 'PutItem', fault: 'throttling', every: 2 });
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      outcomes.push(
        await outcome(sdk.send(new PutItemCommand({ TableName: table, Item: { pk: { S: `k${i}` } } }))),
      );
    }
    expect(outcomes).toEqual([
      'ok',
      'ThrottlingException',
      'ok',
      'ThrottlingException',
      'ok',
      'ThrottlingException',
    ]);
    const puts = faulty.calls.slice(before).filter((c) => c.operation === 'PutItem');
    expect(
      puts.filter((c) => c.fault === undefined).map((c) => (c.body.Item as { pk: { S: string } }).pk.S),
    ).toEqual(['k0', 'k2', 'k4']);
    const stored = await direct.send(new GetItemCommand({ TableName: table, Key: { pk: { S: 'k1' } } }));
    expect(stored.Item).toBeUndefined();
    faulty.heal();
    await sdk.send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'k1' } } }));
    const healed = await direct.send(new GetItemCommand({ TableName: table, Key: { pk: { S: 'k1' } } }));
    expect(healed.Item).toEqual({ pk: { S: 'k1' } });
  });

  it('lets the first calls through, then fails every call from then on', async () => {
    const table = await createItemsTable(direct);
    faulty.script({ fault: 'expired-token', after: 2 });
    const results: string[] = [];
    for (let i = 0; i < 4; i++) {
      results.push(await outcome(sdk.send(new ScanCommand({ TableName: table }))));
    }
    faulty.heal();
    expect(results).toEqual(['ok', 'ok', 'ExpiredTokenException', 'ExpiredTokenException']);
  });
});
