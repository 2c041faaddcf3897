import {
  type AttributeValue as SdkValue,
  type DeleteItemCommandInput,
  type DynamoDBClient,
  type PutItemCommandInput,
  type UpdateItemCommandInput,
  DeleteItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import type { TransactAction, WriteRequest } from '../../../shared/dynamo/write-requests';
import { toSdkItem } from '../marshal';

/** The tagged request fields that hold items; everything else passes through unchanged. */
function withSdkItems<T extends { Item?: Item; Key?: Item; ExpressionAttributeValues?: Item }>(request: T) {
  return {
    ...request,
    ...(request.Item ? { Item: toSdkItem(request.Item) } : {}),
    ...(request.Key ? { Key: toSdkItem(request.Key) } : {}),
    ...(request.ExpressionAttributeValues
      ? { ExpressionAttributeValues: toSdkItem(request.ExpressionAttributeValues) }
      : {}),
  };
}

function sdkAction(action: TransactAction): TransactWriteItem {
  if ('Put' in action) return { Put: withSdkItems(action.Put) };
  if ('Update' in action) return { Update: withSdkItems(action.Update) };
  return { Delete: withSdkItems(action.Delete) };
}

/** Sends a planned request as the SDK command it names: what the user reviewed is what is sent. */
export async function sendRequest(
  client: DynamoDBClient,
  request: WriteRequest,
  signal?: AbortSignal,
): Promise<{ Attributes?: Record<string, SdkValue> }> {
  const options = { abortSignal: signal };
  switch (request.operation) {
    case 'PutItem':
      return client.send(new PutItemCommand(withSdkItems(request.input) as PutItemCommandInput), options);
    case 'UpdateItem':
      return client.send(
        new UpdateItemCommand(withSdkItems(request.input) as UpdateItemCommandInput),
        options,
      );
    case 'DeleteItem':
      return client.send(
        new DeleteItemCommand(withSdkItems(request.input) as DeleteItemCommandInput),
        options,
      );
    case 'TransactWriteItems':
      await client.send(
        new TransactWriteItemsCommand({
          TransactItems: request.input.TransactItems.map(sdkAction),
          ClientRequestToken: request.input.ClientRequestToken,
        }),
        options,
      );
      return {};
  }
}
