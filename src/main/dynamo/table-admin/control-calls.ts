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

/**
 * Sends one control-plane request exactly as the UI showed it. No abort signal: once DynamoDB
 * may have accepted a change, stopping the HTTP request would only hide whether it happened.
 */
export async function sendControlCall(client: DynamoDBClient, call: ControlCall): Promise<unknown> {
  const input = call.input as never;
  try {
    switch (call.operation) {
      case 'CreateTable':
        return await client.send(new CreateTableCommand(input));
      case 'UpdateTable':
        return await client.send(new UpdateTableCommand(input));
      case 'UpdateTimeToLive':
        return await client.send(new UpdateTimeToLiveCommand(input));
      case 'TagResource':
        return await client.send(new TagResourceCommand(input));
      case 'UntagResource':
        return await client.send(new UntagResourceCommand(input));
      case 'UpdateContinuousBackups':
        return await client.send(new UpdateContinuousBackupsCommand(input));
      case 'DeleteTable':
        return await client.send(new DeleteTableCommand(input));
    }
  } catch (error) {
    throw explainRefusal(error, call.operation);
  }
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
