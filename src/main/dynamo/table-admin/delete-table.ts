import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { AppFailure } from '../../../shared/errors';
import type { Connection } from '../../../shared/ipc/connection';
import type { TableSummary } from '../../../shared/ipc/tables';
import type { OperationRun } from '../../core/operations';
import { CONFIRMATION_REQUIRED } from '../writes/guards';
import { sendControlCall } from './control-calls';
import { followTable } from './follow-table';

export const DELETION_PROTECTED = 'DeletionProtected';

/**
 * What must hold before DeleteTable is sent: protection off (turning it off is its own change),
 * the name typed, and on a production connection a second confirmation.
 */
export function checkDelete(
  connection: Connection,
  summary: TableSummary,
  confirmTable: string,
  confirmProduction: boolean | undefined,
): void {
  if (summary.deletionProtection)
    throw new AppFailure(
      DELETION_PROTECTED,
      `${summary.name} is protected against deletion. Turn deletion protection off first (Change → Deletion protection), then delete it.`,
    );
  checkTypedName(connection, summary.name, confirmTable, confirmProduction, {
    typed: 'deleting it and every item in it',
    second: `${summary.name} should be deleted`,
  });
}

/**
 * The table name typed, and on a production connection a second confirmation: what a delete and
 * a purge both ask before anything is sent.
 */
export function checkTypedName(
  connection: Connection,
  table: string,
  confirmTable: string,
  confirmProduction: boolean | undefined,
  what: { typed: string; second: string },
): void {
  if (confirmTable !== table)
    throw new AppFailure(CONFIRMATION_REQUIRED, `Type ${table} to confirm ${what.typed}.`, false, {
      field: 'confirmTable',
    });
  if (connection.isProduction && confirmProduction !== true)
    throw new AppFailure(
      CONFIRMATION_REQUIRED,
      `"${connection.label}" is a production connection: confirm a second time that ${what.second}.`,
      false,
      { field: 'confirmProduction' },
    );
}

/** DeleteTable, then follows the table until DynamoDB no longer describes it. */
export async function deleteTable(
  client: DynamoDBClient,
  table: string,
  { signal, emit }: OperationRun,
): Promise<{ table: string; deleted: true }> {
  await sendControlCall(client, { operation: 'DeleteTable', input: { TableName: table } });
  await followTable(client, table, signal, emit, (described) =>
    described
      ? { isDone: false, message: `${table} is ${described.TableStatus ?? 'DELETING'}…` }
      : { isDone: true, message: `${table} is deleted.` },
  );
  return { table, deleted: true };
}
