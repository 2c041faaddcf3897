import {
  BatchWriteItemCommand,
  CreateTableCommand,
  type DynamoDBClient,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { toSdkItem } from '../../src/main/dynamo/marshal';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { SqlSession, type SessionConnection } from '../../src/main/sql/session';

export interface RecordedCall {
  command: string;
  input: Record<string, unknown>;
}

/**
 * A real DynamoDB Local client whose middleware records every command it sends, so tests can
 * assert which calls a statement made (a partition-key equality must never Scan).
 */
export function recordingClient(endpoint: string): { client: DynamoDBClient; calls: RecordedCall[] } {
  const client = localClient(endpoint);
  const calls: RecordedCall[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      calls.push({ command: String(context.commandName), input: args.input as Record<string, unknown> });
      return next(args);
    },
    { step: 'initialize', name: 'recordSqlCalls' },
  );
  return { client, calls };
}

/** A single-table design table (PK/SK + GSI1 on GSI1PK) filled with `items`. */
export async function createShopTable(
  client: DynamoDBClient,
  items: Item[],
  prefix = 'sql',
): Promise<string> {
  const table = uniqueTableName(prefix);
  await client.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'PK', AttributeType: 'S' },
        { AttributeName: 'SK', AttributeType: 'S' },
        { AttributeName: 'GSI1PK', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'GSI1',
          KeySchema: [{ AttributeName: 'GSI1PK', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: table });
  for (let start = 0; start < items.length; start += 25) {
    let pending = items.slice(start, start + 25).map((item) => ({ PutRequest: { Item: toSdkItem(item) } }));
    while (pending.length > 0) {
      const result = await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: pending } }));
      pending = (result.UnprocessedItems?.[table] ?? []) as typeof pending;
    }
  }
  return table;
}

export function sessionFor(
  client: DynamoDBClient,
  id = 'local',
): { session: SqlSession; connection: SessionConnection } {
  return { session: new SqlSession(), connection: { id, client: () => Promise.resolve(client) } };
}

export const reads = (calls: RecordedCall[]): string[] =>
  calls
    .map((c) => c.command)
    .filter((c) => ['ScanCommand', 'QueryCommand', 'GetItemCommand', 'BatchGetItemCommand'].includes(c));
