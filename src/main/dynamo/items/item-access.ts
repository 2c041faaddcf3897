import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { CoreContext } from '../../core/context';
import type { Connection } from '../../../shared/ipc/connection';
import { loadTableInfo, type TableInfo } from './table-info';

export interface ItemTarget {
  connection: Connection;
  client: DynamoDBClient;
  info: TableInfo;
}

/** What every item operation needs: the connection (flags), its client and the table's keys. */
export async function resolveTarget(
  ctx: CoreContext,
  connectionId: string,
  table: string,
  signal?: AbortSignal,
): Promise<ItemTarget> {
  const connection = await ctx.connections.get(connectionId);
  const client = await ctx.clients.dynamo(connectionId);
  const info = await loadTableInfo(client, table, signal);
  return { connection, client, info };
}
