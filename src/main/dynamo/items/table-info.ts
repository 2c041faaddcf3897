import { DescribeTableCommand, type DynamoDBClient, type TableDescription } from '@aws-sdk/client-dynamodb';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { KeySchema } from '../../../shared/ipc/tables';

type KeyType = 'S' | 'N' | 'B';

export interface IndexKeys {
  name: string;
  kind: 'GSI' | 'LSI';
  keys: KeySchema;
  /** ALL, KEYS_ONLY or INCLUDE: items read from a partial index are not the whole item. */
  projection: string;
}

export interface TableInfo {
  table: string;
  keys: KeySchema;
  indexes: IndexKeys[];
}

function keySchemaOf(
  schema: { AttributeName?: string; KeyType?: string }[] | undefined,
  types: Map<string, KeyType>,
): KeySchema {
  const hash = schema?.find((k) => k.KeyType === 'HASH')?.AttributeName;
  const range = schema?.find((k) => k.KeyType === 'RANGE')?.AttributeName;
  if (!hash)
    throw new AppFailure(ErrorCodes.internal, 'DynamoDB described the table without a partition key.');
  return {
    partitionKey: { name: hash, type: types.get(hash) ?? 'S' },
    ...(range ? { sortKey: { name: range, type: types.get(range) ?? 'S' } } : {}),
  };
}

export function tableInfoOf(description: TableDescription): TableInfo {
  const types = new Map<string, KeyType>(
    (description.AttributeDefinitions ?? []).map((d) => [d.AttributeName ?? '', d.AttributeType ?? 'S']),
  );
  const indexes: IndexKeys[] = [
    ...(description.GlobalSecondaryIndexes ?? []).map((i) => ({ i, kind: 'GSI' as const })),
    ...(description.LocalSecondaryIndexes ?? []).map((i) => ({ i, kind: 'LSI' as const })),
  ].map(({ i, kind }) => ({
    name: i.IndexName ?? '',
    kind,
    keys: keySchemaOf(i.KeySchema, types),
    projection: i.Projection?.ProjectionType ?? 'ALL',
  }));
  return { table: description.TableName ?? '', keys: keySchemaOf(description.KeySchema, types), indexes };
}

const TTL_MS = 30_000;
const cache = new WeakMap<DynamoDBClient, Map<string, { info: TableInfo; at: number }>>();

/**
 * Key schema and indexes of a table. Cached briefly per client: every write needs the key
 * names, and a table's keys never change (indexes can, hence the short lifetime).
 */
export async function loadTableInfo(
  client: DynamoDBClient,
  table: string,
  signal?: AbortSignal,
): Promise<TableInfo> {
  let perClient = cache.get(client);
  if (!perClient) {
    perClient = new Map<string, { info: TableInfo; at: number }>();
    cache.set(client, perClient);
  }
  const hit = perClient.get(table);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.info;
  const response = await client.send(new DescribeTableCommand({ TableName: table }), { abortSignal: signal });
  if (!response.Table)
    throw new AppFailure(ErrorCodes.notFound, `DynamoDB did not describe the table ${table}.`);
  const info = tableInfoOf(response.Table);
  perClient.set(table, { info, at: Date.now() });
  return info;
}

/** Every attribute that keys the table or one of its indexes, with its type. */
export function indexKeyAttributes(info: TableInfo): { name: string; type: KeyType }[] {
  const out = new Map<string, KeyType>();
  for (const index of info.indexes) {
    out.set(index.keys.partitionKey.name, index.keys.partitionKey.type);
    if (index.keys.sortKey) out.set(index.keys.sortKey.name, index.keys.sortKey.type);
  }
  return [...out].map(([name, type]) => ({ name, type }));
}
