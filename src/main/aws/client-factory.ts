import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ClientFactory, ConnectionStore } from '../core/context';
import { clientConfigFor, type ClientConfigDeps } from './client-config';
import { PLAYGROUND_ID } from './connection-store';
import { dynamoClient } from './dynamo-client';
import { addRetiredGuard } from './read-only-guard';
import { isSingleRegion, regionalConnectionId, splitConnectionId } from '../../shared/dynamo/regions';

export interface ClientFactoryDeps extends ClientConfigDeps {
  connections: ConnectionStore;
}

interface Cached {
  client: Promise<DynamoDBClient>;
  /** Set once built, so retiring can close it to writes in the same tick. */
  built?: DynamoDBClient;
  /** The endpoint it was built for: the playground may restart on another port. */
  endpoint?: string;
}

// Reads already in flight on a replaced client get this long to finish before it is closed.
const RETIRE_AFTER_MS = 120_000;

/**
 * One DynamoDB client per connection, cached. Clients of read-only connections carry the
 * read-only guard, so every write path is refused in main whoever builds the command.
 */
export function createClientFactory(deps: ClientFactoryDeps): ClientFactory {
  const cache = new Map<string, Cached>();
  const retired = new Set<DynamoDBClient>();

  /**
   * A replaced client was built for settings that no longer hold (read-only switched on, other
   * keys or endpoint): it refuses writes from now on, whoever still holds it, and lets reads finish.
   */
  function retire(entry: Cached): void {
    if (entry.built) addRetiredGuard(entry.built);
    void entry.client.then(
      (client) => {
        if (!entry.built) addRetiredGuard(client);
        retired.add(client);
        setTimeout(() => {
          retired.delete(client);
          client.destroy();
        }, RETIRE_AFTER_MS).unref();
      },
      () => undefined,
    );
  }

  /** A regional id (regionalConnectionId) gets the connection as it acts in that region. */
  async function build(connectionId: string): Promise<DynamoDBClient> {
    const connection = await deps.connections.get(connectionId);
    return dynamoClient({ ...clientConfigFor(connection, deps), readOnly: connection.readOnly });
  }

  /** Cached per connection id; the other regions of a connection have ids of their own. */
  function clientOf(key: string): Promise<DynamoDBClient> {
    const endpoint = key === PLAYGROUND_ID ? deps.playground.status().endpoint : undefined;
    const cached = cache.get(key);
    if (cached && cached.endpoint === endpoint) return cached.client;
    if (cached) retire(cached);
    const entry: Cached = { client: build(key), endpoint };
    cache.set(key, entry);
    void entry.client.then(
      (client) => (entry.built = client),
      () => undefined,
    );
    // A failed build (playground stopped, connection deleted) is not cached.
    entry.client.catch(() => {
      if (cache.get(key) === entry) cache.delete(key);
    });
    return entry.client;
  }

  return {
    dynamo: (connectionId) => clientOf(connectionId),

    async dynamoIn(connectionId, region) {
      const connection = await deps.connections.get(connectionId);
      return isSingleRegion(connection) || region === connection.region
        ? clientOf(connectionId)
        : clientOf(regionalConnectionId(connectionId, region));
    },

    invalidate(connectionId) {
      for (const [id, entry] of cache) {
        if (
          connectionId !== undefined &&
          splitConnectionId(id).connectionId !== splitConnectionId(connectionId).connectionId
        )
          continue;
        cache.delete(id);
        retire(entry);
      }
    },

    destroy() {
      for (const entry of cache.values())
        void entry.client.then(
          (c) => c.destroy(),
          () => undefined,
        );
      cache.clear();
      for (const client of retired) client.destroy();
      retired.clear();
    },
  };
}
