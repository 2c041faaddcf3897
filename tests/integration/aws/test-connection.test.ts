import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { testConnection } from '../../../src/main/aws/test-connection';
import type { Connection } from '../../../src/shared/ipc/connection';
import { connectionFixture, directClient, uniqueKeys } from '../../support/aws/connection-fixture';
import { startFakeSts, type FakeSts } from '../../support/aws/fake-sts';
import { freePort, uniqueTableName } from '../../support/dynamo-local';
import { createTable } from '../../support/dynamo-tables';

const endpoint = inject('dynamoEndpoint');
let fixture: Awaited<ReturnType<typeof connectionFixture>>;
const clients: DynamoDBClient[] = [];

const base = { color: '#1f6feb', readOnly: false, isProduction: false } as const;

async function createTables(client: DynamoDBClient, count: number): Promise<void> {
  clients.push(client);
  for (let i = 0; i < count; i++) {
    await createTable(client, uniqueTableName('tc'), { partitionKey: ['pk', 'S'] });
  }
}

beforeEach(async () => {
  fixture = await connectionFixture(endpoint);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const client of clients.splice(0)) client.destroy();
  await fixture.cleanup();
});

describe('Test connection against an endpoint override', () => {
  it('says where it connected and how many tables it sees', async () => {
    const keys = uniqueKeys();
    await createTables(directClient(endpoint, keys, 'eu-west-1'), 2);
    const connection = await fixture.connections.save(
      { ...base, label: 'Local', kind: 'keys', region: 'eu-west-1', endpoint },
      keys,
    );
    expect(await testConnection(connection, fixture)).toEqual({
      ok: true,
      message: `Connected to DynamoDB Local at ${endpoint}. 2 tables are visible.`,
      tableCount: 2,
    });
  });

  it('names the local playground', async () => {
    const playground = await fixture.connections.get('playground');
    const result = await testConnection(playground, fixture);
    expect(result.ok).toBe(true);
    expect(result.message).toMatch(
      new RegExp(`^Connected to the local playground \\(DynamoDB Local at ${endpoint}\\)\\. `),
    );
  });

  it('explains a refused endpoint (nothing listening on the port)', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const connection = await fixture.connections.save(
      { ...base, label: 'Nothing here', kind: 'keys', region: 'us-east-1', endpoint: closed },
      uniqueKeys(),
    );
    expect(await testConnection(connection, fixture)).toEqual({
      ok: false,
      errorCode: 'ECONNREFUSED',
      message: `Nothing answered at ${closed}: the connection was refused. If this is DynamoDB Local or LocalStack, start it (or check the port), then test again.`,
    });
  });

  it('explains credentials the endpoint does not accept', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dynotable-creds-'));
    try {
      // DynamoDB Local, like AWS, rejects a malformed access key id.
      await writeFile(
        join(dir, 'credentials'),
        '[broken]\naws_access_key_id = not_a-key\naws_secret_access_key = whatever\n',
      );
      await writeFile(join(dir, 'config'), '');
      vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(dir, 'credentials'));
      vi.stubEnv('AWS_CONFIG_FILE', join(dir, 'config'));
      const connection = await fixture.connections.save({
        ...base,
        label: 'Broken',
        kind: 'profile',
        profile: 'broken',
        region: 'us-east-1',
        endpoint,
      });
      expect(await testConnection(connection, fixture)).toEqual({
        ok: false,
        errorCode: 'UnrecognizedClientException',
        message:
          'AWS did not recognise the access key of profile "broken": it may be mistyped, deactivated or deleted, or belong to another partition (China, GovCloud).',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('explains a profile that does not exist', async () => {
    vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(fixture.dataDir, 'no-credentials'));
    vi.stubEnv('AWS_CONFIG_FILE', join(fixture.dataDir, 'no-config'));
    const connection = await fixture.connections.save({
      ...base,
      label: 'Gone',
      kind: 'profile',
      profile: 'gone',
      region: 'us-east-1',
      endpoint,
    });
    const result = await testConnection(connection, fixture);
    expect(result).toMatchObject({ ok: false, errorCode: 'CredentialsProviderError' });
    expect(result.message).toMatch(/^No usable AWS credentials were found for profile "gone"\./);
  });
});

describe('Test connection against AWS (STS and DynamoDB endpoints served locally)', () => {
  let sts: FakeSts;
  const keys = uniqueKeys();
  beforeEach(async () => {
    sts = await startFakeSts({ [keys.accessKeyId]: 'arn:aws:sts::123456789012:assumed-role/Dev/alice' });
    // The SDK's own service-endpoint settings: the code path is exactly the one for real AWS.
    vi.stubEnv('AWS_ENDPOINT_URL_STS', sts.endpoint);
    vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', endpoint);
  });
  afterEach(async () => {
    await sts.close();
  });

  it('says who you are, in which region, and what you can see', async () => {
    await createTables(directClient(endpoint, keys, 'eu-west-1'), 1);
    const connection: Connection = await fixture.connections.save(
      { ...base, label: 'Dev', kind: 'keys', region: 'eu-west-1' },
      keys,
    );
    expect(await testConnection(connection, fixture)).toEqual({
      ok: true,
      message:
        'Connected to eu-west-1 as arn:aws:sts::123456789012:assumed-role/Dev/alice. 1 table is visible.',
      tableCount: 1,
    });
  });

  it('explains an access key AWS does not know', async () => {
    const connection = await fixture.connections.save(
      { ...base, label: 'Typo', kind: 'keys', region: 'eu-west-1' },
      uniqueKeys(),
    );
    expect(await testConnection(connection, fixture)).toEqual({
      ok: false,
      errorCode: 'InvalidClientTokenId',
      message:
        'AWS did not recognise the access key of this connection: it may be mistyped, deactivated or deleted, or belong to another partition (China, GovCloud).',
    });
  });
});
