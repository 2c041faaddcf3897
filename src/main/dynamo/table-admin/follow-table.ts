import type { DynamoDBClient, TableDescription } from '@aws-sdk/client-dynamodb';
import { AppFailure } from '../../../shared/errors';
import type { OperationEmit } from '../../core/operations';
import { sleep } from '../../core/retry';
import { describeTableDescription } from '../table-metadata';

/** Control-plane changes on AWS take seconds (tables) to hours (a GSI backfill on a big table). */
const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 5_000;
const POLL_DEADLINE_MS = 30_000;
/** Following is bounded too: past this the change goes on in DynamoDB, unwatched. */
export const MAX_FOLLOW_MS = 12 * 60 * 60 * 1000;

export type TableCheck = (table: TableDescription | undefined) => { isDone: boolean; message: string };

/**
 * Polls DescribeTable until `check` says done, reporting each new state as a progress message.
 * A table that is gone is `undefined` (what a delete waits for).
 */
export async function followTable(
  client: DynamoDBClient,
  table: string,
  signal: AbortSignal,
  emit: OperationEmit,
  check: TableCheck,
): Promise<TableDescription | undefined> {
  const started = Date.now();
  let wait = FIRST_POLL_MS;
  let said = '';
  for (;;) {
    const polled = await describeOnce(client, table, signal);
    if (polled === 'unanswered') {
      await sleep(MAX_POLL_MS, signal);
      continue;
    }
    const { isDone, message } = check(polled.table);
    if (message !== said) {
      said = message;
      emit({ type: 'progress', progress: { items: 0, pages: 0, consumedCapacity: 0, message } });
    }
    if (isDone) return polled.table;
    if (Date.now() - started > MAX_FOLLOW_MS)
      throw new AppFailure(
        'StillChanging',
        `${table} is still changing after ${MAX_FOLLOW_MS / 3_600_000} hours; DynoTable stopped following it, DynamoDB goes on. Refresh the table later.`,
        true,
      );
    await sleep(wait, signal);
    wait = Math.min(MAX_POLL_MS, Math.round(wait * 1.5));
  }
}

/** One DescribeTable; a poll that hangs is given up and the next one tries again. */
async function describeOnce(
  client: DynamoDBClient,
  table: string,
  signal: AbortSignal,
): Promise<{ table: TableDescription | undefined } | 'unanswered'> {
  const deadline = AbortSignal.timeout(POLL_DEADLINE_MS);
  try {
    // Asked now, and kept: whoever reads the table next sees the state followed here.
    return { table: await describeTableDescription(client, table, AbortSignal.any([signal, deadline]), 0) };
  } catch (error) {
    if (signal.aborted) throw error;
    if (deadline.aborted) return 'unanswered';
    if ((error as { name?: string }).name === 'ResourceNotFoundException') return { table: undefined };
    throw error;
  }
}

/** Done when the table and every index are ACTIVE (what create and most updates wait for). */
export const untilActive: TableCheck = (table) => {
  if (!table) return { isDone: false, message: 'Waiting for DynamoDB to describe the table…' };
  const busy = (table.GlobalSecondaryIndexes ?? []).filter((g) => g.IndexStatus !== 'ACTIVE');
  if (table.TableStatus !== 'ACTIVE')
    return {
      isDone: false,
      message: `${table.TableName ?? 'The table'} is ${table.TableStatus ?? 'changing'}…`,
    };
  if (busy.length === 0) return { isDone: true, message: `${table.TableName ?? 'The table'} is ACTIVE.` };
  return { isDone: false, message: busy.map(indexMessage).join(' ') };
};

function indexMessage(index: NonNullable<TableDescription['GlobalSecondaryIndexes']>[number]): string {
  const name = index.IndexName ?? 'An index';
  if (index.IndexStatus === 'DELETING') return `Index ${name} is being deleted…`;
  // DescribeTable reports whether a backfill runs, not how far it got (that is CloudWatch's
  // OnlineIndexPercentageProgress); say what is known.
  if (index.Backfilling) return `Index ${name} is backfilling: DynamoDB is copying existing items into it…`;
  return `Index ${name} is ${index.IndexStatus ?? 'changing'}…`;
}

/** Done when the index is gone and the table is ACTIVE. */
export function untilIndexGone(indexName: string): TableCheck {
  return (table) => {
    const index = table?.GlobalSecondaryIndexes?.find((g) => g.IndexName === indexName);
    if (index) return { isDone: false, message: indexMessage(index) };
    return untilActive(table);
  };
}
