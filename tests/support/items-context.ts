import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createClientFactory } from '../../src/main/aws/client-factory';
import { keepProtoNames } from '../../src/main/aws/proto-names';
import { addReadOnlyGuard } from '../../src/main/aws/read-only-guard';
import type { CoreContext, SecretStore } from '../../src/main/core/context';
import { EventBus } from '../../src/main/core/events';
import { OperationRegistry } from '../../src/main/core/operations';
import { CoreServices } from '../../src/main/core/services';
import { createDispatcher, type HandlerTable } from '../../src/main/ipc/dispatcher';
import { itemHandlers } from '../../src/main/ipc/handlers/items';
import { createResultSetStore } from '../../src/main/resultsets/store';
import { connectionInRegion, splitConnectionId } from '../../src/shared/dynamo/regions';
import type { Connection, Envelope, OperationEvent } from '../../src/shared/ipc';
import { localClient, uniqueTableName } from './dynamo-local';
import { createTable } from './dynamo-tables';

export interface ItemsHarness {
  ctx: CoreContext;
  /** The same dispatch the UI's IPC and browser mode go through: parse → handler → envelope. */
  call<T = unknown>(channel: string, payload: unknown): Promise<Envelope<T>>;
  /** Resolves with an operation's terminal event, collecting every event on the way. */
  waitFor(requestId: string): Promise<{ events: OperationEvent[]; last: OperationEvent }>;
  client: DynamoDBClient;
  close(): Promise<void>;
}

/**
 * A core for the item tests: real DynamoDB Local clients (with the real read-only guard on
 * read-only connections), the real result-set worker, real operation registry. Only the
 * connection list is in memory instead of on disk.
 */
export function itemsHarness(endpoint: string, extraHandlers: Partial<HandlerTable> = {}): ItemsHarness {
  const connections = new Map<string, Connection>();
  const base = { color: '#1f6feb', kind: 'keys' as const, region: 'us-east-1', endpoint };
  connections.set('local', { ...base, id: 'local', label: 'Local', readOnly: false, isProduction: false });
  connections.set('ro', { ...base, id: 'ro', label: 'Read only', readOnly: true, isProduction: false });
  connections.set('prod', { ...base, id: 'prod', label: 'Production', readOnly: false, isProduction: true });
  const clients = new Map<string, DynamoDBClient>();
  const events = new EventBus();
  const operations = new OperationRegistry(events);
  const resultSets = createResultSetStore();
  const client = localClient(endpoint);
  // Each harness has a data folder of its own (the journal, exports and checkpoints go there),
  // removed on close: a shared one let tests read each other's files and left them behind.
  const dataDir = mkdtempSync(join(tmpdir(), 'dynotable-items-'));
  const ctx = {
    mode: 'desktop',
    version: 'test',
    platform: process.platform,
    dataDir,
    connections: {
      list: () => Promise.resolve([...connections.values()]),
      // As the real store: `<id>@<region>` is the connection as it acts in another region.
      get: (id: string) => {
        const { connectionId, region } = splitConnectionId(id);
        const found = connections.get(connectionId);
        const inRegion = found && region !== undefined ? connectionInRegion(found, region) : found;
        return inRegion ? Promise.resolve(inRegion) : Promise.reject(new Error(`no connection ${id}`));
      },
      save: (c: Connection) => Promise.resolve((connections.set(c.id, c), c)),
      remove: (id: string) => Promise.resolve(connections.delete(id)),
    },
    clients: {
      dynamo: (id: string) => {
        let found = clients.get(id);
        if (!found) {
          found = keepProtoNames(localClient(endpoint));
          if (connections.get(id)?.readOnly) addReadOnlyGuard(found);
          clients.set(id, found);
        }
        return Promise.resolve(found);
      },
      invalidate: () => undefined,
      destroy: () => clients.forEach((c) => c.destroy()),
    },
    resultSets,
    operations,
    events,
    services: new CoreServices(() => ctx),
  } as unknown as CoreContext;
  const dispatch = createDispatcher({ ...itemHandlers, ...extraHandlers } as HandlerTable, ctx);
  return {
    ctx,
    client,
    call: (channel, payload) => dispatch(channel, payload) as never,
    waitFor: (requestId) =>
      new Promise((resolve) => {
        const seen: OperationEvent[] = [];
        const stop = events.subscribe((event) => {
          if (event.requestId !== requestId) return;
          seen.push(event);
          if (event.type === 'done' || event.type === 'cancelled' || event.type === 'error') {
            stop();
            resolve({ events: seen, last: event });
          }
        });
      }),
    async close() {
      operations.cancelAll();
      await ctx.services.close();
      ctx.clients.destroy();
      client.destroy();
      await resultSets.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The keys DynamoDB Local files the test's tables under, so the app and the test see one database. */
export const localKeys: SecretStore = {
  isAvailable: () => true,
  load: () => Promise.resolve({ accessKeyId: 'local', secretAccessKey: 'local' }),
  save: () => Promise.resolve(),
  remove: () => Promise.resolve(),
  saveText: () => Promise.resolve(),
  loadText: () => Promise.resolve(undefined),
};

/**
 * Puts the app's own client factory (its timeouts, retries, read-only guard, and the retiring of
 * a client when its connection is edited) in place of the harness's plain clients.
 */
export function useAppClients(h: ItemsHarness): void {
  h.ctx.clients.destroy();
  const clients = createClientFactory({
    connections: h.ctx.connections,
    secrets: localKeys,
    playground: { status: () => ({ state: 'stopped' }) },
  });
  (h.ctx as { clients: CoreContext['clients'] }).clients = clients;
}

export async function createItemsTable(
  client: DynamoDBClient,
  options: { sortKey?: boolean; gsi?: boolean; prefix?: string } = {},
): Promise<string> {
  return createTable(client, uniqueTableName(options.prefix ?? 'items'), {
    partitionKey: ['pk', 'S'],
    sortKey: options.sortKey ? ['sk', 'N'] : undefined,
    globalIndexes: options.gsi
      ? [{ name: 'byG', partitionKey: ['gpk', 'S'], sortKey: ['gsk', 'S'] }]
      : undefined,
  });
}

let queries = 0;

/**
 * Runs query:start to its end the way the grid does (the harness needs queryHandlers) and
 * resolves with the result set it filled and the operation's events.
 */
export async function runQuery(
  h: ItemsHarness,
  payload: Record<string, unknown>,
): Promise<{ resultSetId: string; events: OperationEvent[]; last: OperationEvent }> {
  queries += 1;
  const requestId = `query_${queries}_${Date.now()}`;
  const done = h.waitFor(requestId);
  const started = await h.call<{ resultSetId: string }>('query:start', {
    connectionId: 'local',
    requestId,
    ...payload,
  });
  if (!started.ok) throw new Error(started.error.message);
  return { resultSetId: started.value.resultSetId, ...(await done) };
}
