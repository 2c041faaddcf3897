import {
  CreateTableCommand,
  DeleteTableCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateContinuousBackupsCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { AppFailure } from '../../../shared/errors';
import type { ControlCall } from '../../../shared/dynamo/table-request-text';
import { forgetTable } from '../table-metadata';

/**
 * Sends one control-plane request exactly as the UI showed it. The user's cancel does not reach
 * it: once DynamoDB may have accepted a change, stopping the request would only hide whether
 * it happened.
 */
export async function sendControlCall(client: DynamoDBClient, call: ControlCall): Promise<unknown> {
  const input = call.input as never;
  // A deadline still, so a black-holed endpoint ends in a sentence rather than a spinner.
  const options = { abortSignal: AbortSignal.timeout(CALL_DEADLINE_MS) };
  try {
    switch (call.operation) {
      case 'CreateTable':
        return await client.send(new CreateTableCommand(input), options);
      case 'UpdateTable':
        return await client.send(new UpdateTableCommand(input), options);
      case 'UpdateTimeToLive':
        return await client.send(new UpdateTimeToLiveCommand(input), options);
      case 'TagResource':
        return await client.send(new TagResourceCommand(input), options);
      case 'UntagResource':
        return await client.send(new UntagResourceCommand(input), options);
      case 'UpdateContinuousBackups':
        return await client.send(new UpdateContinuousBackupsCommand(input), options);
      case 'DeleteTable':
        return await client.send(new DeleteTableCommand(input), options);
    }
  } catch (error) {
    if (options.abortSignal.aborted) throw unanswered(call);
    throw explainRefusal(error, call.operation);
  } finally {
    // Every table change DynoTable makes passes here; even a refused or unanswered one may have
    // changed something, so the cached description is dropped either way.
    const table = tableOf(call);
    if (table) forgetTable(client, table);
  }
}

/** The table a call changes: by name, or (tags) by the table's ARN, `arn:…:table/<name>`. */
function tableOf(call: ControlCall): string | undefined {
  const input = call.input as { TableName?: unknown; ResourceArn?: unknown };
  if (typeof input.TableName === 'string') return input.TableName;
  if (typeof input.ResourceArn === 'string') return /:table\/([^/]+)$/.exec(input.ResourceArn)?.[1];
  return undefined;
}

const CALL_DEADLINE_MS = 60_000;

function unanswered(call: ControlCall): AppFailure {
  return new AppFailure(
    'TimedOut',
    `DynamoDB did not answer ${call.operation} within ${CALL_DEADLINE_MS / 1000} seconds, so DynoTable cannot tell whether the change was made. Refresh the table to see its state before trying again.`,
    true,
  );
}

/** What to do about the refusals a table change meets, keeping DynamoDB's error name as the code. */
const ADVICE: Record<string, string> = {
  LimitExceededException:
    'DynamoDB refused: too many table changes are in progress, or a daily limit (capacity decreases, billing-mode switches, index changes) is used up. Wait for the running change to finish, or until tomorrow for a daily limit.',
  ResourceInUseException:
    'DynamoDB refused: the table is busy (being created, updated, or already exists with this name). Wait until it is ACTIVE, or choose another name.',
};

function explainRefusal(error: unknown, operation: string): unknown {
  const name = (error as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || !(name in ADVICE)) return error;
  const awsMessage = error instanceof Error ? error.message : '';
  return new AppFailure(
    name,
    `${ADVICE[name]} (${operation}: ${awsMessage})`,
    name === 'LimitExceededException',
    {
      awsMessage,
    },
  );
}
