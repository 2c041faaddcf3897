import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { changeCalls, changeProblems, type TableChange } from '../../../shared/dynamo/table-change';
import type { TableSummary } from '../../../shared/ipc/tables';
import type { TableAdminResult } from '../../../shared/ipc/table-admin';
import type { OperationRun } from '../../core/operations';
import { tableDetails } from '../table-metadata';
import { sendControlCall } from './control-calls';
import { followTable, untilActive, untilIndexGone, type TableCheck } from './follow-table';
import { refuseProblems } from './guard';

/** Between the steps of one change (stream off, then on) the wait is not the user's to cancel. */
const BETWEEN_STEPS_MS = 10 * 60 * 1000;

/** Refuses a change DynamoDB would refuse, or that the endpoint cannot do, before anything is sent. */
export function checkChange(change: TableChange, summary: TableSummary): void {
  refuseProblems(changeProblems(change, summary));
}

/**
 * Sends the change's requests in order, then follows the table until it is ACTIVE again (an
 * added index until it is ACTIVE, a deleted one until it is gone). Cancelling stops following.
 */
export async function updateTable(
  client: DynamoDBClient,
  summary: TableSummary,
  change: TableChange,
  { signal, emit }: OperationRun,
): Promise<TableAdminResult> {
  const calls = changeCalls(change, summary);
  for (const [i, call] of calls.entries()) {
    if (i > 0)
      await followTable(client, summary.name, AbortSignal.timeout(BETWEEN_STEPS_MS), emit, untilActive);
    await sendControlCall(client, call);
  }
  const check: TableCheck = change.kind === 'deleteIndex' ? untilIndexGone(change.name) : untilActive;
  await followTable(client, summary.name, signal, emit, check);
  return { summary: (await tableDetails(client, summary.name, signal)).summary, notes: [] };
}
