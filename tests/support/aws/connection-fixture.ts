import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClientFactory } from '../../../src/main/aws/client-factory';
import { createConnectionStore } from '../../../src/main/aws/connection-store';
import { createEncryptedSecretStore } from '../../../src/main/aws/secret-store';
import type { PlaygroundStatus } from '../../../src/main/core/context';
import type { AccessKeys } from '../../../src/shared/ipc/connection';
import { aesCipher } from './test-cipher';

/**
 * Fresh access keys per test. DynamoDB Local keeps one database per access key id and region,
 * so a test with its own keys sees exactly the tables it made.
 */
export function uniqueKeys(): AccessKeys {
  const id = randomBytes(10).toString('hex').toUpperCase();
  return { accessKeyId: `AKIA${id}`, secretAccessKey: `local-secret-${id}` };
}

/** A client that acts as the given keys without DynoTable in between: the test's own eyes. */
export function directClient(endpoint: string, keys: AccessKeys, region = 'us-east-1'): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region, credentials: keys });
}

/** DynoTable's real connection stack (encrypted secrets, connections.json, client factory) in a temp folder. */
export async function connectionFixture(playgroundEndpoint?: string) {
  const dataDir = await mkdtemp(join(tmpdir(), 'dynotable-aws-'));
  const secrets = createEncryptedSecretStore(dataDir, aesCipher());
  const connections = createConnectionStore(dataDir, secrets);
  let playgroundStatus: PlaygroundStatus = playgroundEndpoint
    ? { state: 'running', endpoint: playgroundEndpoint }
    : { state: 'stopped' };
  const playground = { status: () => playgroundStatus };
  const clients = createClientFactory({ connections, secrets, playground });
  return {
    dataDir,
    secrets,
    connections,
    playground,
    clients,
    setPlayground(status: PlaygroundStatus) {
      playgroundStatus = status;
    },
    async cleanup() {
      clients.destroy();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
