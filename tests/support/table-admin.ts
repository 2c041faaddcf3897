import {
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { expect } from 'vitest';
import { operationHandlers } from '../../src/main/ipc/handlers/operations';
import { tableHandlers } from '../../src/main/ipc/handlers/tables';
import type { TableChange } from '../../src/shared/dynamo/table-change';
import type { TableDefinition } from '../../src/shared/dynamo/table-definition';
import type { OperationEvent } from '../../src/shared/ipc';
import type { TableAdminResult } from '../../src/shared/ipc/table-admin';
import { itemsHarness, type ItemsHarness } from './items-context';

export function tableAdminHarness(endpoint: string): ItemsHarness {
  return itemsHarness(endpoint, { ...tableHandlers, ...operationHandlers });
}

let requests = 0;
export function nextRequestId(kind: string): string {
  requests += 1;
  return `${kind}_${requests}_${Date.now().toString(36)}`;
}

export interface AdminRun {
  events: OperationEvent[];
  last: OperationEvent;
  result: TableAdminResult;
}

async function run(
  h: ItemsHarness,
  channel: string,
  payload: Record<string, unknown>,
  kind: string,
): Promise<AdminRun> {
  const requestId = nextRequestId(kind);
  const finished = h.waitFor(requestId);
  const started = await h.call(channel, { ...payload, requestId });
  if (!started.ok) throw new Error(`${started.error.code}: ${started.error.message}`);
  const { events, last } = await finished;
  if (last.type !== 'done') throw new Error(`ended ${last.type}: ${JSON.stringify(last)}`);
  return { events, last, result: last.value as TableAdminResult };
}

/** tables:create through the dispatcher, to its end. */
export function createThrough(
  h: ItemsHarness,
  definition: TableDefinition,
  connectionId = 'local',
): Promise<AdminRun> {
  return run(h, 'tables:create', { connectionId, definition }, 'create');
}

/** tables:update through the dispatcher, to its end. */
export function updateThrough(h: ItemsHarness, table: string, change: TableChange): Promise<AdminRun> {
  return run(h, 'tables:update', { connectionId: 'local', table, change }, 'update');
}

/** DynamoDB Local's own answer, read with the plain SDK: the oracle the tests compare with. */
export async function describeRaw(h: ItemsHarness, table: string): Promise<TableDescription> {
  const answer = await h.client.send(new DescribeTableCommand({ TableName: table }));
  expect(answer.Table).toBeDefined();
  return answer.Table as TableDescription;
}

export async function ttlRaw(
  h: ItemsHarness,
  table: string,
): Promise<{ status?: string; attribute?: string }> {
  const answer = await h.client.send(new DescribeTimeToLiveCommand({ TableName: table }));
  return {
    status: answer.TimeToLiveDescription?.TimeToLiveStatus,
    attribute: answer.TimeToLiveDescription?.AttributeName,
  };
}

export function progressMessages(events: OperationEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'progress' && e.progress.message ? [e.progress.message] : []));
}
