import {
  DescribeTableCommand,
  type DynamoDBClient,
  type KeySchemaElement,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import type { KeySchema } from '../../shared/ipc/tables';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { TableKeyInfo } from './report';

export interface MigrationTableInfo extends TableKeyInfo {
  table: string;
  itemCount: number;
  sizeBytes: number;
  /** Provisioned read capacity, absent for on-demand tables. */
  readCapacity?: number;
  writeCapacity?: number;
}

function keysOf(schema: KeySchemaElement[] | undefined, types: Map<string, string>): KeySchema {
  const hash = schema?.find((k) => k.KeyType === 'HASH')?.AttributeName;
  const range = schema?.find((k) => k.KeyType === 'RANGE')?.AttributeName;
  if (!hash)
    throw new AppFailure(ErrorCodes.internal, 'DynamoDB described the table without a partition key.');
  const type = (name: string) => (types.get(name) ?? 'S') as 'S' | 'N' | 'B';
  return {
    partitionKey: { name: hash, type: type(hash) },
    ...(range ? { sortKey: { name: range, type: type(range) } } : {}),
  };
}

export function tableInfoOf(description: TableDescription): MigrationTableInfo {
  const types = new Map(
    (description.AttributeDefinitions ?? []).map((d) => [d.AttributeName ?? '', d.AttributeType ?? 'S']),
  );
  const indexKeys: Record<string, string[]> = {};
  const indexes = [
    ...(description.GlobalSecondaryIndexes ?? []),
    ...(description.LocalSecondaryIndexes ?? []),
  ];
  for (const index of indexes) {
    for (const key of index.KeySchema ?? []) {
      const name = key.AttributeName ?? '';
      (indexKeys[name] ??= []).push(index.IndexName ?? '');
    }
  }
  const provisioned = description.BillingModeSummary?.BillingMode !== 'PAY_PER_REQUEST';
  const rcu = description.ProvisionedThroughput?.ReadCapacityUnits;
  const wcu = description.ProvisionedThroughput?.WriteCapacityUnits;
  return {
    table: description.TableName ?? '',
    keys: keysOf(description.KeySchema, types),
    indexKeys,
    itemCount: description.ItemCount ?? 0,
    sizeBytes: description.TableSizeBytes ?? 0,
    ...(provisioned && rcu ? { readCapacity: rcu } : {}),
    ...(provisioned && wcu ? { writeCapacity: wcu } : {}),
  };
}

export async function describeForMigration(
  client: DynamoDBClient,
  table: string,
  signal?: AbortSignal,
): Promise<MigrationTableInfo> {
  const out = await client.send(new DescribeTableCommand({ TableName: table }), { abortSignal: signal });
  if (!out.Table) throw new AppFailure(ErrorCodes.notFound, `DynamoDB returned no description of ${table}.`);
  return tableInfoOf(out.Table);
}
