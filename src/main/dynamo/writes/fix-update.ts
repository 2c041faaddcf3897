import { type DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { ownValue } from '../../../shared/dynamo/proto-keys';
import type { PlannedUpdate } from '../../../shared/ipc/migration';
import { watchThrottling } from '../throttle-watch';
import { toSdkItem } from '../marshal';
import { storedItem } from './write-errors';

/**
 * Sends one UpdateItem of a pre-flight fix plan as planned, conditioned by the plan. With
 * `returnNew` it asks for the item as the update left it (ALL_NEW), from the update's own answer,
 * so a write landing just after it is never taken for the fix's own.
 * `onThrottled` hears every throttled attempt, also those the SDK's own retry then repeated.
 */
export async function sendPlannedUpdate(
  client: DynamoDBClient,
  table: string,
  update: PlannedUpdate,
  options: { returnNew: boolean; onThrottled: () => void },
): Promise<{ consumed: number; stored: Item | null }> {
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
    ...(options.returnNew ? { ReturnValues: 'ALL_NEW' as const } : {}),
  });
  const out = await client.send(watchThrottling(command, options.onThrottled));
  return { consumed: out.ConsumedCapacity?.CapacityUnits ?? 1, stored: storedItem(out.Attributes) };
}

/**
 * The top-level attributes a planned update sets or removes: the first name of each path of its
 * SET and REMOVE clauses (the plan writes every name as a placeholder, values as `:v…`).
 */
export function updatedNames(update: PlannedUpdate): string[] {
  const names = new Set<string>();
  for (const match of update.UpdateExpression.matchAll(/(?:^SET |^REMOVE | REMOVE |, )(#[A-Za-z0-9_]+)/g)) {
    const name = ownValue(update.ExpressionAttributeNames, match[1]!);
    if (name !== undefined) names.add(name);
  }
  return [...names];
}
