import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { TableDefinition } from '../../../shared/dynamo/table-definition';
import { createTableCalls } from '../../../shared/dynamo/table-request-text';
import { validateDefinition } from '../../../shared/dynamo/table-validation';
import type { TableAdminResult } from '../../../shared/ipc/table-admin';
import type { OperationRun } from '../../core/operations';
import { tableDetails } from '../table-metadata';
import { sendControlCall } from './control-calls';
import { followTable, untilActive } from './follow-table';
import { refuseProblems } from './guard';
import { listTags } from './tags';

/** Refuses a definition DynamoDB would refuse, with every field's problem, before anything is sent. */
export function checkDefinition(definition: TableDefinition): void {
  refuseProblems(validateDefinition(definition));
}

/**
 * CreateTable, then follows the table until it and its indexes are ACTIVE, then sets TTL
 * (UpdateTimeToLive is refused while a table is CREATING). Cancelling stops the following only.
 */
export async function createTable(
  client: DynamoDBClient,
  definition: TableDefinition,
  { signal, emit }: OperationRun,
): Promise<TableAdminResult> {
  const [create, ttl] = createTableCalls(definition);
  if (!create) throw new Error('createTableCalls returned nothing');
  await sendControlCall(client, create);
  await followTable(client, definition.name, signal, emit, untilActive);
  if (ttl) {
    emit({
      type: 'progress',
      progress: { items: 0, pages: 0, consumedCapacity: 0, message: 'Setting TTL…' },
    });
    await sendControlCall(client, ttl);
  }
  const { summary } = await tableDetails(client, definition.name, signal);
  return { summary, notes: await notApplied(client, definition, summary.tableClass, summary.arn, signal) };
}

/** What the endpoint took without applying: DynamoDB Local ignores TableClass and Tags on CreateTable. */
async function notApplied(
  client: DynamoDBClient,
  definition: TableDefinition,
  tableClass: string | undefined,
  arn: string | undefined,
  signal: AbortSignal,
): Promise<string[]> {
  const notes: string[] = [];
  if (definition.tableClass !== 'STANDARD' && tableClass !== definition.tableClass)
    notes.push(
      `The endpoint accepted table class ${definition.tableClass} but reports none: it does not implement table classes (DynamoDB Local).`,
    );
  if (definition.tags.length > 0 && arn) {
    if (!(await listTags(client, arn, signal)).supported)
      notes.push(
        'The endpoint accepted the tags but does not implement tagging (DynamoDB Local), so they were not kept.',
      );
  }
  return notes;
}
