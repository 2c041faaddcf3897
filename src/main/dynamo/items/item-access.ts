import { GetItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import type { CoreContext } from '../../core/context';
import type { WrittenItem } from '../../resultsets/types';
import { recordWrites } from '../../resultsets/write-sync';
import { startJournalEntry, type ItemReader, type JournalWriter } from '../../journal/journal-files';
import { publishJournalChange, toldWhenFinished } from '../../journal/journal-events';
import { withBackoff } from '../../core/retry';
import { fromSdkItem, toSdkItem } from '../marshal';
import type { JournalAction } from '../../../shared/ipc/journal';
import type { Connection } from '../../../shared/ipc/connection';
import type { TableSummary } from '../../../shared/ipc/tables';
import type { WriteSource } from '../../../shared/ipc/write-source';
import { tableSummary } from '../table-metadata';
import { assertWritable } from '../writes/guards';

/**
 * The write door of one table, opened for one source: every write DynoTable makes goes out
 * through writes/ with one of these, so each is guarded, journaled and told under its source.
 */
export interface ItemTarget {
  connection: Connection;
  client: DynamoDBClient;
  info: TableSummary;
  /** Who asked for the writes made through this target (History, the toast, an open editor). */
  source: WriteSource;
  /** Tells every open view of the table what DynoTable wrote and DynamoDB now holds for these items. */
  record(writes: WrittenItem[]): Promise<void>;
  /** Starts an undo journal entry in the data folder, tagged with the source and the user's words. */
  journal(action: JournalAction, reason: string, options?: { isBeforeAsRead?: boolean }): JournalWriter;
  /**
   * Refuses with ReadOnlyConnection when the connection, as saved at this moment, may not write:
   * a save or an approval can wait while the user edits the connection. The client's own guard
   * refuses every request again.
   */
  assertWritableNow(): Promise<void>;
}

/** What every item operation needs: the connection (flags), its client and the table's keys. */
export async function resolveTarget(
  ctx: CoreContext,
  connectionId: string,
  table: string,
  source: WriteSource,
  signal?: AbortSignal,
): Promise<ItemTarget> {
  const connection = await ctx.connections.get(connectionId);
  return targetFor(ctx, connection, table, source, {
    current: () => ctx.connections.get(connectionId),
    signal,
  });
}

/**
 * The door for a connection the caller already holds (an MCP server's connection from its
 * flags is in no store); `current` says how it is saved at the moment of writing.
 */
export async function targetFor(
  ctx: CoreContext,
  connection: Connection,
  table: string,
  source: WriteSource,
  options: { current(): Promise<Connection>; signal?: AbortSignal },
): Promise<ItemTarget> {
  const client = await ctx.clients.dynamo(connection.id);
  const info = await tableSummary(client, table, options.signal);
  return {
    connection,
    client,
    info,
    source,
    record: (writes) => recordWrites(ctx, connection.id, info.name, writes, source),
    journal: (action, reason, journalOptions = {}) =>
      toldWhenFinished(
        startJournalEntry(
          ctx.dataDir,
          connection.id,
          { table: info.name, action, source, reason, ...journalOptions },
          consistentReader(client),
        ),
        () => publishJournalChange(ctx.events, connection.id, info.name),
      ),
    assertWritableNow: async () => assertWritable(await options.current()),
  };
}

/**
 * Reads items of the connection consistently, throttling retried: the journal's way to tell
 * whether a write it announced and never heard back from landed (journal/resolve-intents.ts).
 */
export function consistentReader(client: DynamoDBClient): ItemReader {
  return async (table: string, key: Item) => {
    const response = await withBackoff(() =>
      client.send(new GetItemCommand({ TableName: table, Key: toSdkItem(key), ConsistentRead: true })),
    );
    return response.Item ? fromSdkItem(response.Item) : null;
  };
}
