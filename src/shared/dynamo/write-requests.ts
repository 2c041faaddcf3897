import type { Item } from './attribute-value';

/**
 * The exact requests DynoTable sends, in the tagged wire form (binary as base64). Main turns
 * them into SDK calls with marshal.ts; the renderer shows them and copies them as code. They
 * are planned by pure functions in write-plan.ts, so what the user reviews is what is sent.
 */
interface ExpressionFields {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Item;
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD';
}

export interface PutRequest extends ExpressionFields {
  TableName: string;
  Item: Item;
  /** The item the put replaced, for the undo journal. */
  ReturnValues?: 'ALL_OLD';
}

export interface UpdateRequest extends ExpressionFields {
  TableName: string;
  Key: Item;
  UpdateExpression: string;
  ReturnValues?: 'ALL_NEW' | 'ALL_OLD';
}

export interface DeleteRequest extends ExpressionFields {
  TableName: string;
  Key: Item;
  /** A bulk delete keeps the deleted item for the undo journal. */
  ReturnValues?: 'ALL_OLD';
}

export type TransactAction =
  | { Put: Omit<PutRequest, 'ReturnValues'> }
  | { Update: Omit<UpdateRequest, 'ReturnValues'> }
  | { Delete: Omit<DeleteRequest, 'ReturnValues'> };

export interface TransactRequest {
  TransactItems: TransactAction[];
  /** At most 36 characters; a retry with the same token within 10 minutes is not applied twice. */
  ClientRequestToken: string;
}

export type WriteRequest =
  | { operation: 'PutItem'; input: PutRequest }
  | { operation: 'UpdateItem'; input: UpdateRequest }
  | { operation: 'DeleteItem'; input: DeleteRequest }
  | { operation: 'TransactWriteItems'; input: TransactRequest };

export type WriteOperation = WriteRequest['operation'];
