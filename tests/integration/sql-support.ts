import { type DynamoDBClient, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { toSdkItem } from '../../src/main/dynamo/marshal';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems } from '../support/dynamo-tables';
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
  const table = await createTable(client, uniqueTableName(prefix), {
    partitionKey: ['PK', 'S'],
    sortKey: ['SK', 'S'],
    globalIndexes: [{ name: 'GSI1', partitionKey: ['GSI1PK', 'S'] }],
  });
  await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: table });
  await putItems(
    client,
    table,
    items.map((item) => toSdkItem(item)),
  );
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
