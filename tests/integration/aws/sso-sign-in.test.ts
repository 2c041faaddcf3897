import { ListTablesCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { readFile, stat } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { testConnection } from '../../../src/main/aws/test-connection';
import { toAppError } from '../../../src/main/core/to-app-error';
import type { Connection } from '../../../src/shared/ipc/connection';
import { connectionFixture, directClient, uniqueKeys } from '../../support/aws/connection-fixture';
import { startFakeSso, type FakeSso } from '../../support/aws/fake-sso';
import { runSsoSignIn } from '../../support/aws/run-sso-sign-in';
import { createSsoHome, devSsoConnection, type SsoHome } from '../../support/aws/sso-home';
import { uniqueTableName } from '../../support/dynamo-local';
import { createTable } from '../../support/dynamo-tables';

const endpoint = inject('dynamoEndpoint');
const startUrl = 'https://corp.awsapps.com/start';
const legacyStartUrl = 'https://legacy.awsapps.com/start';

let home: SsoHome;
let sso: FakeSso;
let fixture: Awaited<ReturnType<typeof connectionFixture>>;
let table: string;
let admin: DynamoDBClient;

beforeEach(async () => {
  const roleKeys = { ...uniqueKeys(), sessionToken: 'role-session-token' };
  sso = await startFakeSso(roleKeys);
  home = await createSsoHome({ ssoEndpoint: sso.endpoint, startUrl, legacyStartUrl });
  admin = directClient(endpoint, roleKeys, 'eu-west-1');
  table = await createTable(admin, uniqueTableName('sso'), { partitionKey: ['pk', 'S'] });
  fixture = await connectionFixture(endpoint);
});

afterEach(async () => {
  admin.destroy();
  await fixture.cleanup();
  await sso.close();
  await home.restore();
});

/** A sign-in where the user approves in their browser (`approve`) or presses Cancel at once. */
function signIn(connection: Connection, options: { approve: boolean; cancelOnProgress?: boolean }) {
  // Stands in for the user's browser: visiting the verification page and clicking "Allow".
  const openExternal = async (url: string) => {
    if (options.approve) await fetch(url).then((r) => r.text());
    return true;
  };
  return runSsoSignIn(
    connection,
    { openExternal, clients: fixture.clients, mode: 'desktop' },
    options.cancelOnProgress ? (_event, cancel) => cancel() : undefined,
  );
}

describe('an expired SSO session', () => {
  it('fails with CredentialsExpired, offers sign-in, and works again on the same connection after the device flow', async () => {
    await home.writeToken('corp', {
      startUrl,
      region: 'eu-west-1',
      accessToken: 'stale-token',
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
      clientId: 'old-client',
      clientSecret: 'old-secret',
      refreshToken: 'revoked-refresh-token',
    });
    const connection = await fixture.connections.save(devSsoConnection(endpoint));

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

    const cached = JSON.parse(await readFile(home.cachePath('corp'), 'utf8')) as Record<string, string>;
    expect(cached).toMatchObject({
      startUrl,
      region: 'eu-west-1',
      clientId: expect.stringMatching(/^client-/) as string,
    });
    expect(cached.accessToken).toMatch(/^access-/);
    expect(cached.refreshToken).toMatch(/^refresh-/);
    expect(new Date(cached.expiresAt!).getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    expect(new Date(cached.registrationExpiresAt!).getTime()).toBeGreaterThan(Date.now());
    if (process.platform !== 'win32') expect((await stat(home.cachePath('corp'))).mode & 0o777).toBe(0o600);

    // The same connection id now works: the factory built a new client on the fresh token.
    const again = await fixture.clients.dynamo(connection.id);
    expect(again).not.toBe(client);
    expect((await again.send(new ListTablesCommand({}))).TableNames).toEqual([table]);
    expect(sso.calls).toContain('GET /federation/credentials');
    expect(await testConnection(connection, fixture)).toMatchObject({ ok: true, tableCount: 1 });
  });

  it('signs in a legacy profile (no sso-session), caching the token under its start URL', async () => {
    const connection = await fixture.connections.save({
      ...devSsoConnection(endpoint),
      label: 'Old style',
      profile: 'old-style',
      readOnly: true,
    });
    const before = await testConnection(connection, fixture);
    expect(before).toMatchObject({ ok: false, errorCode: 'CredentialsExpired', canSignIn: true });

    const events = await signIn(connection, { approve: true });
    expect(events.at(-1)).toMatchObject({ type: 'done' });
    const cached = JSON.parse(await readFile(home.cachePath(legacyStartUrl), 'utf8')) as Record<
      string,
      string
    >;
    expect(cached).toMatchObject({ startUrl: legacyStartUrl, region: 'eu-west-1' });
    const client = await fixture.clients.dynamo(connection.id);
    expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([table]);
  });

  it('stops polling when the user cancels, and leaves the old token alone', async () => {
    const connection = await fixture.connections.save(devSsoConnection(endpoint));
    const events = await signIn(connection, { approve: false, cancelOnProgress: true });
    expect(events.map((e) => e.type)).toEqual(['progress', 'cancelled']);
    await expect(stat(home.cachePath('corp'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses to sign in a connection that is not an SSO profile', async () => {
    const connection = await fixture.connections.get('playground');
    const events = await signIn(connection, { approve: true });
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'InvalidInput' } });
  });
});
