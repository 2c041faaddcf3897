import { CreateTableCommand, ListTablesCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { startSsoSignIn } from '../../../src/main/aws/sso-sign-in';
import { testConnection } from '../../../src/main/aws/test-connection';
import { EventBus } from '../../../src/main/core/events';
import { OperationRegistry } from '../../../src/main/core/operations';
import { toAppError } from '../../../src/main/core/to-app-error';
import type { Connection } from '../../../src/shared/ipc/connection';
import type { OperationEvent } from '../../../src/shared/ipc/operations';
import { connectionFixture, directClient, uniqueKeys } from '../../support/aws/connection-fixture';
import { startFakeSso, type FakeSso } from '../../support/aws/fake-sso';
import { uniqueTableName } from '../../support/dynamo-local';

const endpoint = inject('dynamoEndpoint');
const startUrl = 'https://corp.awsapps.com/start';
const legacyStartUrl = 'https://legacy.awsapps.com/start';

let home: string;
let sso: FakeSso;
let fixture: Awaited<ReturnType<typeof connectionFixture>>;
let table: string;
let admin: DynamoDBClient;

/** Where the AWS CLI and SDK keep SSO tokens, computed here independently of DynoTable's code. */
function cachePath(key: string): string {
  return join(home, '.aws', 'sso', 'cache', `${createHash('sha1').update(key).digest('hex')}.json`);
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'dynotable-home-'));
  const roleKeys = { ...uniqueKeys(), sessionToken: 'role-session-token' };
  sso = await startFakeSso(roleKeys);
  await mkdir(join(home, '.aws', 'sso', 'cache'), { recursive: true });
  await writeFile(
    join(home, '.aws', 'config'),
    [
      '[profile dev]',
      'sso_session = corp',
      'sso_account_id = 123456789012',
      'sso_role_name = Developer',
      'region = eu-west-1',
      '',
      '[sso-session corp]',
      `sso_start_url = ${startUrl}`,
      'sso_region = eu-west-1',
      'sso_registration_scopes = sso:account:access',
      '',
      '[profile old-style]',
      `sso_start_url = ${legacyStartUrl}`,
      'sso_region = eu-west-1',
      'sso_account_id = 123456789012',
      'sso_role_name = Developer',
      '',
    ].join('\n'),
  );
  await writeFile(join(home, '.aws', 'credentials'), '');
  vi.stubEnv('HOME', home);
  vi.stubEnv('USERPROFILE', home);
  vi.stubEnv('AWS_CONFIG_FILE', join(home, '.aws', 'config'));
  vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(home, '.aws', 'credentials'));
  // The SDK's documented per-service endpoint settings point the real SSO clients here.
  vi.stubEnv('AWS_ENDPOINT_URL_SSO_OIDC', sso.endpoint);
  vi.stubEnv('AWS_ENDPOINT_URL_SSO', sso.endpoint);

  admin = directClient(endpoint, roleKeys, 'eu-west-1');
  table = uniqueTableName('sso');
  await admin.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }),
  );
  fixture = await connectionFixture(endpoint);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  admin.destroy();
  await fixture.cleanup();
  await sso.close();
  await rm(home, { recursive: true, force: true });
});

/** Runs the sign-in the way create-core does (OperationRegistry + EventBus) and collects its events. */
function signIn(
  connection: Connection,
  options: { approve: boolean; cancelOnProgress?: boolean; mode?: 'desktop' | 'browser' },
) {
  const bus = new EventBus();
  const operations = new OperationRegistry(bus);
  const events: OperationEvent[] = [];
  const requestId = 'sign-in-0001';
  const finished = new Promise<OperationEvent[]>((resolve) => {
    bus.subscribe((event) => {
      events.push(event);
      if (event.type === 'progress' && options.cancelOnProgress) operations.cancel(requestId);
      if (event.type === 'done' || event.type === 'error' || event.type === 'cancelled') resolve(events);
    });
  });
  // Stands in for the user's browser: visiting the verification page and clicking "Allow".
  const openExternal = async (url: string) => {
    if (options.approve) await fetch(url).then((r) => r.text());
    return true;
  };
  operations.start(requestId, (run) =>
    startSsoSignIn(connection, run, {
      openExternal,
      clients: fixture.clients,
      mode: options.mode ?? 'desktop',
    }),
  );
  return finished;
}

describe('an expired SSO session', () => {
  it('fails with CredentialsExpired, offers sign-in, and works again on the same connection after the device flow', async () => {
    await writeFile(
      cachePath('corp'),
      JSON.stringify({
        startUrl,
        region: 'eu-west-1',
        accessToken: 'stale-token',
        expiresAt: new Date(Date.now() - 60_000).toISOString(),
        clientId: 'old-client',
        clientSecret: 'old-secret',
        refreshToken: 'revoked-refresh-token',
      }),
    );
    const connection = await fixture.connections.save({
      label: 'Dev (SSO)',
      color: '#8250df',
      kind: 'profile',
      profile: 'dev',
      region: 'eu-west-1',
      endpoint,
      readOnly: false,
      isProduction: false,
    });

    const client = await fixture.clients.dynamo(connection.id);
    const failure = toAppError(await client.send(new ListTablesCommand({})).catch((e: unknown) => e));
    expect(failure).toMatchObject({ code: 'CredentialsExpired', details: { canSignIn: true } });
    expect(failure.message).toContain('Sign in again');

    const tested = await testConnection(connection, fixture);
    expect(tested).toMatchObject({ ok: false, errorCode: 'CredentialsExpired', canSignIn: true });
    expect(tested.message).toBe(
      'The AWS SSO session of profile "dev" has expired or was never started. Choose "Sign in again" to renew it; your open tabs stay as they are.',
    );

    const events = await signIn(connection, { approve: true });
    const progress = events.find((e) => e.type === 'progress');
    expect(progress?.type === 'progress' && progress.progress.message).toMatch(
      new RegExp(
        `^Confirm the code (WXYZ-\\d+) in the page your browser opened \\(${sso.endpoint}/device\\?user_code=\\1\\) to sign in to profile "dev"\\.`,
      ),
    );
    expect(events.at(-1)).toMatchObject({ type: 'done' });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    expect(sso.openedPages).toHaveLength(1);

    const cached = JSON.parse(await readFile(cachePath('corp'), 'utf8')) as Record<string, string>;
    expect(cached).toMatchObject({
      startUrl,
      region: 'eu-west-1',
      clientId: expect.stringMatching(/^client-/) as string,
    });
    expect(cached.accessToken).toMatch(/^access-/);
    expect(cached.refreshToken).toMatch(/^refresh-/);
    expect(new Date(cached.expiresAt!).getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    expect(new Date(cached.registrationExpiresAt!).getTime()).toBeGreaterThan(Date.now());
    if (process.platform !== 'win32') expect((await stat(cachePath('corp'))).mode & 0o777).toBe(0o600);

    // The same connection id now works: the factory built a new client on the fresh token.
    const again = await fixture.clients.dynamo(connection.id);
    expect(again).not.toBe(client);
    expect((await again.send(new ListTablesCommand({}))).TableNames).toEqual([table]);
    expect(sso.calls).toContain('GET /federation/credentials');
    expect(await testConnection(connection, fixture)).toMatchObject({ ok: true, tableCount: 1 });
  });

  it('signs in a legacy profile (no sso-session), caching the token under its start URL', async () => {
    const connection = await fixture.connections.save({
      label: 'Old style',
      color: '#8250df',
      kind: 'profile',
      profile: 'old-style',
      region: 'eu-west-1',
      endpoint,
      readOnly: true,
      isProduction: false,
    });
    const before = await testConnection(connection, fixture);
    expect(before).toMatchObject({ ok: false, errorCode: 'CredentialsExpired', canSignIn: true });

    const events = await signIn(connection, { approve: true });
    expect(events.at(-1)).toMatchObject({ type: 'done' });
    const cached = JSON.parse(await readFile(cachePath(legacyStartUrl), 'utf8')) as Record<string, string>;
    expect(cached).toMatchObject({ startUrl: legacyStartUrl, region: 'eu-west-1' });
    const client = await fixture.clients.dynamo(connection.id);
    expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([table]);
  });

  it('stops polling when the user cancels, and leaves the old token alone', async () => {
    const connection = await fixture.connections.save({
      label: 'Dev (SSO)',
      color: '#8250df',
      kind: 'profile',
      profile: 'dev',
      region: 'eu-west-1',
      endpoint,
      readOnly: false,
      isProduction: false,
    });
    const events = await signIn(connection, { approve: false, cancelOnProgress: true });
    expect(events.map((e) => e.type)).toEqual(['progress', 'cancelled']);
    await expect(stat(cachePath('corp'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses to sign in a connection that is not an SSO profile', async () => {
    const connection = await fixture.connections.get('playground');
    const events = await signIn(connection, { approve: true });
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'InvalidInput' } });
  });
});
