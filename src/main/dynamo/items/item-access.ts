import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { CoreContext, WrittenItem } from '../../core/context';
import { recordWrites } from '../../resultsets/write-sync';
import { startJournalEntry, type JournalWriter } from '../../journal/journal-files';
import type { JournalAction } from '../../../shared/ipc/journal';
import type { Connection } from '../../../shared/ipc/connection';
import type { TableSummary } from '../../../shared/ipc/tables';
import { tableSummary } from '../table-metadata';

export interface ItemTarget {
  connection: Connection;
  client: DynamoDBClient;
  info: TableSummary;
  /** Tells every open result set of the table what DynamoDB now holds for these items. */
  record(writes: WrittenItem[]): Promise<void>;
  /** Starts an undo journal entry in the data folder for a commit or bulk change of this table. */
  journal(action: JournalAction, options?: { isBeforeAsRead?: boolean }): JournalWriter;
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
  const info = await tableSummary(client, table, signal);
  const record = (writes: WrittenItem[]) => recordWrites(ctx, connectionId, info.name, writes);
  const journal = (action: JournalAction, options: { isBeforeAsRead?: boolean } = {}) =>
    startJournalEntry(ctx.dataDir, connectionId, { table: info.name, action, ...options });
  return { connection, client, info, record, journal };
}
