import { type DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import type { PlannedUpdate } from '../../../shared/ipc/migration';
import { watchThrottling } from '../throttle-watch';
import { toSdkItem } from '../marshal';
import { storedItem } from './write-errors';

/**
 * Sends one UpdateItem of a pre-flight fix plan as planned, conditioned by the plan. With
 * `returnOld` it asks for the item it replaced (ALL_OLD), which the undo journal keeps.
 * `onThrottled` hears every throttled attempt, also those the SDK's own retry then repeated.
 */
export async function sendPlannedUpdate(
  client: DynamoDBClient,
  table: string,
  update: PlannedUpdate,
  options: { returnOld: boolean; onThrottled: () => void },
): Promise<{ consumed: number; old: Item | null }> {
  const command = new UpdateItemCommand({
    TableName: table,
    Key: toSdkItem(update.Key),
    UpdateExpression: update.UpdateExpression,
    ConditionExpression: update.ConditionExpression,
    ExpressionAttributeNames: update.ExpressionAttributeNames,
    ExpressionAttributeValues: update.ExpressionAttributeValues
      ? toSdkItem(update.ExpressionAttributeValues)
      : undefined,
    ReturnConsumedCapacity: 'TOTAL',
    ...(options.returnOld ? { ReturnValues: 'ALL_OLD' as const } : {}),
  });
  const out = await client.send(watchThrottling(command, options.onThrottled));
  return { consumed: out.ConsumedCapacity?.CapacityUnits ?? 1, old: storedItem(out.Attributes) };
}
