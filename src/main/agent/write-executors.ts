import { GetItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../shared/dynamo/attribute-value';
import { ExpressionContext } from '../../shared/dynamo/expression-context';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import { toAppError } from '../core/to-app-error';
import { fromSdkItem, toSdkItem } from '../dynamo/marshal';
import { targetFor, type ItemTarget } from '../dynamo/items/item-access';
import { writeOne } from '../dynamo/writes/write-one';
import { answerMayBeLost } from '../dynamo/writes/write-errors';
import type { JournalWriter } from '../journal/journal-files';
import { keepForUndo } from '../journal/keep';
import type { ApprovedWrites } from './approvals';
import { fromPlain, keyValue } from './plain-values';
import {
  approvalItems,
  requestJson,
  withAfter,
  type PlannedWrite,
  type ProposedWrite,
} from './proposed-write';
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

/** A table's write door and the undo journal entry of the card's writes to it. */
interface Journaled {
  target: ItemTarget;
  journal: JournalWriter;
}

const ANSWER_LOST = 'answer lost';

/** Conditions that hold only while every attribute is exactly as read (absent ones still absent). */
function unchangedCondition(
  expr: ExpressionContext,
  seen: Item | undefined,
  names: Iterable<string>,
): string[] {
  const parts: string[] = [];
  for (const name of names) {
    const value = seen && Object.hasOwn(seen, name) ? seen[name] : undefined;
    parts.push(
      value === undefined
        ? `attribute_not_exists(${expr.name(name)})`
        : `${expr.name(name)} = ${expr.value(value)}`,
    );
  }
  return parts;
}

/**
 * Reads the item as it is now (strongly consistent) and builds the conditional request, in
 * DynamoDB's tagged form: what the card shows is what is sent. Each asks for the item it
 * replaces (ALL_OLD), which the undo journal keeps.
 */
async function planWrite(
  client: DynamoDBClient,
  session: ToolSession,
  change: Change,
): Promise<ProposedWrite> {
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
  const table = summary.name;
  if (change.action === 'delete') {
    if (!seen)
      throw new AppFailure(ErrorCodes.notFound, `There is no item with that key in ${table} to delete.`);
    const condition = unchangedCondition(expr, seen, Object.keys(seen)).join(' AND ');
    return {
      table,
      key,
      seen,
      kind: 'delete',
      request: {
        operation: 'DeleteItem',
        input: {
          TableName: table,
          Key: key,
          ConditionExpression: condition,
          ...expr.fields(),
          ReturnValues: 'ALL_OLD',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      effect: { type: 'delete' },
    };
  }
  if (change.action === 'put') {
    // Key attributes first (the approval card reads better) and always the key's own values.
    const rest = Object.entries(change.item ?? {}).filter(([name]) => !Object.hasOwn(key, name));
    const item: Item = { ...key, ...Object.fromEntries(rest.map(([k, v]) => [k, fromPlain(v)])) };
    const names = seen ? new Set([...Object.keys(seen), ...Object.keys(item)]) : [partitionKey.name];
    const condition = unchangedCondition(expr, seen, names).join(' AND ');
    return {
      table,
      key,
      seen: seen ?? null,
      kind: seen ? 'update' : 'create',
      request: {
        operation: 'PutItem',
        input: {
          TableName: table,
          Item: item,
          ConditionExpression: condition,
          ...expr.fields(),
          ReturnValues: 'ALL_OLD',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      effect: { type: 'put', item },
    };
  }
  if (!seen)
    throw new AppFailure(ErrorCodes.notFound, `There is no item with that key in ${table} to update.`);
  const sets = Object.entries(change.set ?? {});
  const removes = change.remove ?? [];
  if (sets.some(([n]) => Object.hasOwn(key, n)) || removes.some((n) => Object.hasOwn(key, n))) {
    throw new AppFailure(ErrorCodes.invalidInput, 'Key attributes cannot be changed by an update.');
  }
  if (sets.length + removes.length === 0)
    throw new AppFailure(ErrorCodes.invalidInput, 'The update changes nothing.');
  const action = {
    type: 'update' as const,
    set: sets.map(([n, v]) => ({ path: [n], value: fromPlain(v) })),
    remove: removes.map((n) => [n]),
  };
  const clauses: string[] = [];
  if (sets.length > 0)
    clauses.push(
      'SET ' + action.set.map(({ path, value }) => `${expr.path(path)} = ${expr.value(value)}`).join(', '),
    );
  if (removes.length > 0) clauses.push('REMOVE ' + action.remove.map((path) => expr.path(path)).join(', '));
  const touched = [...sets.map(([n]) => n), ...removes];
  const condition = [
    `attribute_exists(${expr.name(partitionKey.name)})`,
    ...unchangedCondition(expr, seen, touched),
  ].join(' AND ');
  return {
    table,
    key,
    seen,
    kind: 'update',
    touched,
    request: {
      operation: 'UpdateItem',
      input: {
        TableName: table,
        Key: key,
        UpdateExpression: clauses.join(' '),
        ConditionExpression: condition,
        ...expr.fields(),
        // The item it replaced comes back; what it left is that item with the SETs and REMOVEs applied.
        ReturnValues: 'ALL_OLD',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    effect: action,
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
  const requests = planned.map(requestJson);
  const id = session.approvals.newId();
  const reason = typeof input.reason === 'string' ? input.reason : 'The agent proposes changes.';
  const log = { connectionId: session.connection.id, conversationId: session.conversationId };
  const decision = session.approvals.wait(id, session.signal, { writes: planned, reason });
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
      items: approvalItems(planned),
    },
  });
  const approved = await decision;
  await session.audit.record(log, { type: 'approval', approvalId: id, kind: 'write', approved, requests });
  if (!approved) {
    const why = session.approvals.takeReason(id);
    session.emit({ kind: 'approval-resolved', id, approved, outcome: 'Rejected: nothing was written.' });
    return {
      result: {
        status: 'error',
        json: { error: why ?? 'The user rejected these changes. Nothing was written.' },
      },
      step: { summary: why ?? 'rejected by the user' },
    };
  }
  // Approved in the app for `dynotable mcp`: the app wrote them, this call only reports.
  const { outcomes, summary } =
    session.approvals.takeWritten(id) ?? (await writeApproved(session, planned, reason, id));
  session.emit({ kind: 'approval-resolved', id, approved, outcome: `Approved: ${summary}.` });
  const isAnyUnknown = outcomes.some((o) => o.startsWith(ANSWER_LOST));
  return {
    result: outcomes.includes('written')
      ? { status: 'success', json: { outcomes } }
      : {
          status: 'error',
          json: {
            error: `The user approved, but nothing was ${isAnyUnknown ? 'confirmed ' : ''}written (${outcomes.join('; ')}).`,
            outcomes,
          },
        },
    step: { summary },
  };
};

/**
 * Sends approved writes through the write door, one undo journal entry per table under the
 * source and the model's reason (each write noted in it before it is sent: writes/write-one.ts),
 * and audits the outcome. The one executor of approved agent and MCP writes, also where the app
 * writes a proposal `dynotable mcp` made (mcp/app-inbox.ts).
 */
export async function writeApproved(
  session: ToolSession,
  writes: ProposedWrite[],
  reason: string,
  approvalId: string,
): Promise<ApprovedWrites> {
  const words =
    session.source === 'mcp'
      ? `MCP client ${session.clientName ?? '(unnamed)'}: ${reason}`
      : `Agent: ${reason}`;
  const outcomes: string[] = [];
  const journaled = new Map<string, Journaled>();
  try {
    for (const write of writes) outcomes.push(await writeNow(session, withAfter(write), words, journaled));
  } finally {
    for (const { journal } of journaled.values()) await keepForUndo(journal);
  }
  const written = outcomes.filter((o) => o === 'written').length;
  const summary = `${written} of ${writes.length} written${written < writes.length ? `; ${outcomes.filter((o) => o !== 'written').join('; ')}` : ''}`;
  const log = { connectionId: session.connection.id, conversationId: session.conversationId };
  await session.audit.record(log, { type: 'write', approvalId, outcome: summary });
  return { outcomes, summary };
}

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

/**
 * Sends one approved write through the write door, on the connection's client as it is now
 * (one taken before the wait may have been replaced and closed to writes), after the checks,
 * under the journal entry of its table (opened with the table's first write).
 */
async function writeNow(
  session: ToolSession,
  write: PlannedWrite,
  words: string,
  journaled: Map<string, Journaled>,
): Promise<string> {
  try {
    const refusal = await refusalNow(session, write.table);
    if (refusal) return refusal;
    let group = journaled.get(write.table);
    if (!group) {
      const target = await targetFor(session.ctx, session.connection, write.table, session.source, {
        current: async () => (await session.current()).connection,
        signal: session.signal,
      });
      group = { target, journal: target.journal('commit', words) };
      journaled.set(write.table, group);
    }
    await writeOne(group.target, write, group.journal);
    return 'written';
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code === 'ConditionalCheckFailedException')
      return 'skipped: the item changed since it was read';
    // Sent, and perhaps applied: the undo journal reads the item to tell (resolve-intents.ts).
    if (answerMayBeLost(error))
      return `${ANSWER_LOST}: it may have been written (${appError.message}); the undo History lists it if it was`;
    return `failed: ${appError.message}`;
  }
}

export const writeExecutors = { propose_changes: proposeChanges } as const;
