import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { IndexInfo, KeySchema, TableSummary } from '../../../shared/ipc/tables';
import { toSummary } from '../tables';

type KeyType = 'S' | 'N' | 'B';

export interface TableInfo {
  table: string;
  keys: KeySchema;
  indexes: IndexInfo[];
  summary: TableSummary;
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
  const summary = toSummary(response.Table, undefined, undefined);
  const info = { table: summary.name, keys: summary.keys, indexes: summary.indexes, summary };
  perClient.set(table, { info, at: Date.now() });
  return info;
}

/** Drops a table's cached keys and indexes after DynoTable changed or created it. */
export function forgetTableInfo(client: DynamoDBClient, table: string): void {
  cache.get(client)?.delete(table);
}

/** Every attribute that keys one of the table's indexes, with its type. */
export function indexKeyAttributes(info: TableInfo): { name: string; type: KeyType }[] {
  const out = new Map<string, KeyType>();
  for (const index of info.indexes) {
    out.set(index.keys.partitionKey.name, index.keys.partitionKey.type);
    if (index.keys.sortKey) out.set(index.keys.sortKey.name, index.keys.sortKey.type);
  }
  return [...out].map(([name, type]) => ({ name, type }));
}
