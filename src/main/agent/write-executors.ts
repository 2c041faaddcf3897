import {
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { Item } from '../../shared/dynamo/attribute-value';
import { ExpressionContext } from '../../shared/dynamo/expression-context';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { WrittenItem } from '../core/context';
import { toAppError } from '../core/to-app-error';
import { recordWrites } from '../resultsets/write-sync';
import { fromSdkItem, toSdkItem } from '../dynamo/marshal';
import { fromPlain, keyValue } from './plain-values';
import { requireTable, type ToolExecutor, type ToolSession } from './tool-runner';

interface Change {
  action: 'put' | 'update' | 'delete';
  table: string;
  partitionKey: unknown;
  sortKey?: unknown;
  item?: Record<string, unknown>;
  set?: Record<string, unknown>;
  remove?: string[];
}

type PlannedWrite =
  | { kind: 'put'; request: ConstructorParameters<typeof PutItemCommand>[0] }
  | { kind: 'update'; request: ConstructorParameters<typeof UpdateItemCommand>[0] }
  | { kind: 'delete'; request: ConstructorParameters<typeof DeleteItemCommand>[0] };

/** Conditions that hold only while every attribute is exactly as read (absent ones still absent). */
function unchangedCondition(
  expr: ExpressionContext,
  seen: Item | undefined,
  names: Iterable<string>,
): string[] {
  const parts: string[] = [];
  for (const name of names) {
    const value = seen?.[name];
    parts.push(
      value === undefined
        ? `attribute_not_exists(${expr.name(name)})`
        : `${expr.name(name)} = ${expr.value(value)}`,
    );
  }
  return parts;
}

/** Reads the item as it is now (strongly consistent) and builds the conditional request. */
async function planWrite(
  client: DynamoDBClient,
  session: ToolSession,
  change: Change,
): Promise<PlannedWrite> {
  const summary = requireTable(session, change.table);
  const { partitionKey, sortKey } = summary.keys;
  const key: Item = {
    [partitionKey.name]: keyValue(change.partitionKey, partitionKey.type, partitionKey.name),
  };
  if (sortKey) key[sortKey.name] = keyValue(change.sortKey, sortKey.type, sortKey.name);
  const current = await client.send(
    new GetItemCommand({ TableName: summary.name, Key: toSdkItem(key), ConsistentRead: true }),
    { abortSignal: session.signal },
  );
  const seen = current.Item ? fromSdkItem(current.Item) : undefined;
  const expr = new ExpressionContext();
  if (change.action === 'delete') {
    if (!seen)
      throw new AppFailure(
        ErrorCodes.notFound,
        `There is no item with that key in ${summary.name} to delete.`,
      );
    const condition = unchangedCondition(expr, seen, Object.keys(seen)).join(' AND ');
    return {
      kind: 'delete',
      request: {
        TableName: summary.name,
        Key: toSdkItem(key),
        ConditionExpression: condition,
        ...sdkFields(expr),
      },
    };
  }
  if (change.action === 'put') {
    // Key attributes first (the approval card reads better) and always the key's own values.
    const rest = Object.entries(change.item ?? {}).filter(([name]) => !Object.hasOwn(key, name));
    const item: Item = { ...key, ...Object.fromEntries(rest.map(([k, v]) => [k, fromPlain(v)])) };
    const names = seen ? new Set([...Object.keys(seen), ...Object.keys(item)]) : [partitionKey.name];
    const condition = unchangedCondition(expr, seen, names).join(' AND ');
    return {
      kind: 'put',
      request: {
        TableName: summary.name,
        Item: toSdkItem(item),
        ConditionExpression: condition,
        ...sdkFields(expr),
      },
    };
  }
  if (!seen)
    throw new AppFailure(ErrorCodes.notFound, `There is no item with that key in ${summary.name} to update.`);
  const sets = Object.entries(change.set ?? {});
  const removes = change.remove ?? [];
  if (sets.some(([n]) => Object.hasOwn(key, n)) || removes.some((n) => Object.hasOwn(key, n))) {
    throw new AppFailure(ErrorCodes.invalidInput, 'Key attributes cannot be changed by an update.');
  }
  if (sets.length + removes.length === 0)
    throw new AppFailure(ErrorCodes.invalidInput, 'The update changes nothing.');
  const clauses: string[] = [];
  if (sets.length > 0)
    clauses.push('SET ' + sets.map(([n, v]) => `${expr.name(n)} = ${expr.value(fromPlain(v))}`).join(', '));
  if (removes.length > 0) clauses.push('REMOVE ' + removes.map((n) => expr.name(n)).join(', '));
  const touched = [...sets.map(([n]) => n), ...removes];
  const condition = [
    `attribute_exists(${expr.name(partitionKey.name)})`,
    ...unchangedCondition(expr, seen, touched),
  ].join(' AND ');
  return {
    kind: 'update',
    request: {
      TableName: summary.name,
      Key: toSdkItem(key),
      UpdateExpression: clauses.join(' '),
      ConditionExpression: condition,
      ...sdkFields(expr),
      // The updated item comes back, so the grids that show it show what is stored.
      ReturnValues: 'ALL_NEW',
    },
  };
}

function sdkFields(expr: ExpressionContext) {
  const fields = expr.fields();
  return {
    ExpressionAttributeNames: fields.ExpressionAttributeNames,
    ExpressionAttributeValues: fields.ExpressionAttributeValues
      ? toSdkItem(fields.ExpressionAttributeValues)
      : undefined,
  };
}

/** Sends one approved write; returns what the table now holds under its key. */
async function send(client: DynamoDBClient, write: PlannedWrite, signal: AbortSignal): Promise<WrittenItem> {
  const options = { abortSignal: signal };
  if (write.kind === 'put') {
    await client.send(new PutItemCommand(write.request), options);
    const item = fromSdkItem(write.request.Item ?? {});
    return { key: item, item };
  }
  const key = fromSdkItem(write.request.Key ?? {});
  if (write.kind === 'update') {
    const response = await client.send(new UpdateItemCommand(write.request), options);
    return { key, item: response.Attributes ? fromSdkItem(response.Attributes) : null };
  }
  await client.send(new DeleteItemCommand(write.request), options);
  return { key, item: null };
}

/** The request as the AWS API's JSON (binary as base64), for the approval card and the audit log. */
function describe(write: PlannedWrite): Record<string, unknown> {
  const json = JSON.stringify(write.request, (_k, v: unknown) =>
    v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v,
  );
  return {
    operation: write.kind === 'put' ? 'PutItem' : write.kind === 'update' ? 'UpdateItem' : 'DeleteItem',
    ...(JSON.parse(json) as object),
  };
}

/**
 * propose_changes: nothing is written until the user approves the exact requests on a card.
 * Each write is conditioned on the item still being as read when the card was built, so a
 * concurrent change is reported, never overwritten.
 */
const proposeChanges: ToolExecutor = async (input, session, stepId) => {
  const changes = Array.isArray(input.changes) ? (input.changes as Change[]) : [];
  if (changes.length === 0)
    throw new AppFailure(ErrorCodes.invalidInput, 'propose_changes needs at least one change.');
  const client = await session.ctx.clients.dynamo(session.connection.id);
  const planned = [];
  for (const change of changes) planned.push(await planWrite(client, session, change));
  const requests = planned.map(describe);
  const id = session.approvals.newId();
  const reason = typeof input.reason === 'string' ? input.reason : 'The agent proposes changes.';
  const log = { connectionId: session.connection.id, conversationId: session.conversationId };
  const decision = session.approvals.wait(id, session.signal);
  session.emit({
    kind: 'step',
    step: { id: stepId, tool: 'propose_changes', input, status: 'waiting-approval' },
  });
  session.emit({
    kind: 'approval',
    approval: {
      id,
      kind: 'write',
      summary: `${reason} (${planned.length} write${planned.length === 1 ? '' : 's'})`,
      requests,
    },
  });
  const approved = await decision;
  await session.audit.record(log, { type: 'approval', approvalId: id, kind: 'write', approved, requests });
  if (!approved) {
    session.emit({ kind: 'approval-resolved', id, approved, outcome: 'Rejected: nothing was written.' });
    return {
      result: { status: 'error', json: { error: 'The user rejected these changes. Nothing was written.' } },
      step: { summary: 'rejected by the user' },
    };
  }
  const outcomes: string[] = [];
  for (const write of planned) outcomes.push(await writeNow(session, write));
  const written = outcomes.filter((o) => o === 'written').length;
  const summary = `${written} of ${planned.length} written${written < planned.length ? `; ${outcomes.filter((o) => o !== 'written').join('; ')}` : ''}`;
  await session.audit.record(log, { type: 'write', approvalId: id, outcome: summary });
  session.emit({ kind: 'approval-resolved', id, approved, outcome: `Approved: ${summary}.` });
  return {
    result:
      written > 0
        ? { status: 'success', json: { outcomes } }
        : {
            status: 'error',
            json: { error: `The user approved, but nothing was written (${outcomes.join('; ')}).`, outcomes },
          },
    step: { summary },
  };
};

/**
 * Why this write may not go out now, judged on the connection and agent settings as saved at
 * this moment (the card may have waited while the user changed them); undefined when it may.
 */
async function refusalNow(session: ToolSession, table: string): Promise<string | undefined> {
  const { connection, settings } = await session.current();
  if (connection.readOnly)
    return `not written: the connection "${connection.label}" was made read-only while the card waited`;
  if (settings.mode === 'read-only')
    return 'not written: the agent was set to read-only on this connection while the card waited';
  if (settings.allowedTables.length > 0 && !settings.allowedTables.includes(table))
    return `not written: the table ${table} was removed from the tables the agent may use while the card waited`;
  return undefined;
}

/** Sends one approved write through the connection's client as it is now, after the checks. */
async function writeNow(session: ToolSession, write: PlannedWrite): Promise<string> {
  try {
    const refusal = await refusalNow(session, write.request.TableName ?? '');
    if (refusal) return refusal;
    // The client of now: one taken before the wait may have been replaced and closed to writes.
    const client = await session.ctx.clients.dynamo(session.connection.id);
    const done = await send(client, write, session.signal);
    // Only what DynamoDB answered: an update without attributes is left to the next read.
    if (write.kind !== 'update' || done.item)
      await recordWrites(session.ctx, session.connection.id, write.request.TableName ?? '', [done]);
    return 'written';
  } catch (error) {
    const appError = toAppError(error);
    return appError.code === 'ConditionalCheckFailedException'
      ? 'skipped: the item changed since it was read'
      : `failed: ${appError.message}`;
  }
}

export const writeExecutors = { propose_changes: proposeChanges } as const;
