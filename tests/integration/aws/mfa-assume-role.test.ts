import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { createClientFactory } from '../../../src/main/aws/client-factory';
import { createMfaPrompts } from '../../../src/main/aws/mfa-prompts';
import { createProfileCredentials } from '../../../src/main/aws/profile-credentials';
import { createResultSetStore } from '../../../src/main/resultsets/store';
import type { ResultSetStore } from '../../../src/main/resultsets/types';
import type { CoreContext } from '../../../src/main/core/context';
import { EventBus } from '../../../src/main/core/events';
import { OperationRegistry } from '../../../src/main/core/operations';
import { createDispatcher } from '../../../src/main/ipc/dispatcher';
import { handlers } from '../../../src/main/ipc/handlers/index';
import type { Envelope } from '../../../src/shared/errors';
import type { OperationEvent } from '../../../src/shared/ipc/operations';
import { connectionFixture, directClient } from '../../support/aws/connection-fixture';
import { createMfaHome, type MfaHome } from '../../support/aws/mfa-home';
import { uniqueTableName } from '../../support/dynamo-local';
import { createTable } from '../../support/dynamo-tables';

// An assume-role profile with mfa_serial, through the real dispatcher and handlers, the real
// SDK (fromIni and its STS role assumer) and DynamoDB Local; STS is a local server speaking
// STS's query protocol. The "user" answers the mfa events the renderer would show.
const endpoint = inject('dynamoEndpoint');

let home: MfaHome;
let fixture: Awaited<ReturnType<typeof connectionFixture>>;
let table: string;
// The core's result-set store: listing a connection's tables starts its worker.
let resultSets: ResultSetStore | undefined;

beforeEach(async () => {
  home = await createMfaHome();
  fixture = await connectionFixture(endpoint);
  table = uniqueTableName('mfa');
  const admin = directClient(endpoint, home.roleKeys, 'eu-west-1');
  await createTable(admin, table, { partitionKey: ['pk', 'S'] });
  admin.destroy();
});
afterEach(async () => {
  vi.useRealTimers();
  await resultSets?.close();
  resultSets = undefined;
  await fixture.cleanup();
  await home.close();
});

/** The core's MFA pieces around the fixture's stores, and a window listening to the event stream. */
async function appWith(options: { timeoutMs?: number; isWindowOpen?: boolean } = {}) {
  const events = new EventBus();
  const operations = new OperationRegistry(events);
  const mfa = createMfaPrompts(operations, events, { timeoutMs: options.timeoutMs });
  const profileCredentials = createProfileCredentials(mfa);
  const { connections, secrets, playground } = fixture;
  const clients = createClientFactory({ connections, secrets, playground, profileCredentials });
  resultSets = createResultSetStore();
  const ctx = {
    resultSets,
    mode: 'browser',
    events,
    operations,
    mfa,
    profileCredentials,
    connections,
    secrets,
    playground,
    clients,
  };
  const dispatch = createDispatcher(handlers, ctx as unknown as CoreContext);
  const seen: OperationEvent[] = [];
  const waiters: ((event: OperationEvent & { type: 'mfa' }) => void)[] = [];
  if (options.isWindowOpen !== false) {
    events.subscribe((event) => {
      seen.push(event);
      if (event.type === 'mfa') waiters.shift()?.(event);
    });
  }
  const connection = await connections.save({
    label: 'Prod admin',
    color: '#cf222e',
    kind: 'profile',
    profile: home.profile,
    region: 'eu-west-1',
    endpoint,
    readOnly: false,
    isProduction: true,
  });
  return {
    seen,
    clients,
    prompts: () => seen.filter((event) => event.type === 'mfa'),
    nextPrompt: () => new Promise<OperationEvent & { type: 'mfa' }>((resolve) => waiters.push(resolve)),
    call: <T>(channel: string, input: unknown) => dispatch(channel, input) as Promise<Envelope<T>>,
    listTables: () =>
      dispatch('tables:list', { connectionId: connection.id }) as Promise<Envelope<{ name: string }[]>>,
    test: () => dispatch('connections:test', { connectionId: connection.id }),
  };
}

const tokenCodes = () => home.sts.assumeRoleCalls.map((call) => call.tokenCode);

describe('an assume-role profile with mfa_serial', () => {
  it('asks for the code once, sends it to STS with the device, and lists the role’s tables', async () => {
    const app = await appWith();
    const prompted = app.nextPrompt();
    const listing = app.listTables();
    const prompt = await prompted;
    expect(prompt.mfa).toMatchObject({ serialNumber: home.serialNumber, profile: 'admin' });
    expect(new Date(prompt.mfa.expiresAt).getTime() - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(await app.call('connections:mfaCode', { promptId: prompt.requestId, code: home.code })).toEqual({
      ok: true,
      value: { received: true },
    });

    const listed = await listing;
    expect(listed.ok && listed.value.map((t) => t.name)).toContain(table);
    expect(home.sts.assumeRoleCalls).toEqual([
      {
        callerKeyId: home.sourceKeys.accessKeyId,
        roleArn: home.roleArn,
        serialNumber: home.serialNumber,
        tokenCode: home.code,
      },
    ]);
    // The prompt ended like an operation, and the code never went out on the event stream.
    expect(app.seen.filter((e) => e.requestId === prompt.requestId).map((e) => e.type)).toEqual([
      'mfa',
      'done',
    ]);
    expect(JSON.stringify(app.seen)).not.toContain(home.code);

    // Later calls, "Test connection" and a client rebuilt after a sign-in all use the session.
    expect((await app.listTables()).ok).toBe(true);
    expect(await app.test()).toEqual({
      ok: true,
      value: {
        ok: true,
        message: `Connected to DynamoDB Local at ${endpoint}. 1 table is visible.`,
        tableCount: 1,
      },
    });
    app.clients.invalidate();
    expect((await app.listTables()).ok).toBe(true);
    expect(app.prompts()).toHaveLength(1);
    expect(home.sts.assumeRoleCalls).toHaveLength(1);
  });

  it('keeps the role session until it is about to end, then asks again', async () => {
    // Only the clock is faked (STS here, DynamoDB Local and the SDK's timers run for real):
    // the hour-long session is moved through to its last minutes.
    vi.useFakeTimers({ toFake: ['Date'] });
    const app = await appWith();
    const answerNextPrompt = async () => {
      const prompt = await app.nextPrompt();
      await app.call('connections:mfaCode', { promptId: prompt.requestId, code: home.code });
    };
    const startedAt = Date.now();
    const answered = answerNextPrompt();
    expect((await app.listTables()).ok).toBe(true);
    await answered;

    vi.setSystemTime(startedAt + 58 * 60_000);
    expect((await app.listTables()).ok).toBe(true);
    expect(app.prompts()).toHaveLength(1);

    vi.setSystemTime(startedAt + 59.5 * 60_000);
    const again = answerNextPrompt();
    expect((await app.listTables()).ok).toBe(true);
    await again;
    expect(tokenCodes()).toEqual([home.code, home.code]);
  });

  it('asks once when several calls need the credentials at the same time', async () => {
    const app = await appWith();
    const prompted = app.nextPrompt();
    const calls = [app.listTables(), app.test(), app.listTables()];
    const prompt = await prompted;
    await app.call('connections:mfaCode', { promptId: prompt.requestId, code: home.code });
    for (const result of await Promise.all(calls)) expect(result.ok).toBe(true);
    expect(app.prompts()).toHaveLength(1);
    expect(tokenCodes()).toEqual([home.code]);
  });

  it('fails a wrong code with STS’s AccessDenied as a sentence, and asks again on the next call', async () => {
    const app = await appWith();
    let prompted = app.nextPrompt();
    const first = app.listTables();
    await app.call('connections:mfaCode', { promptId: (await prompted).requestId, code: '000000' });
    expect(await first).toMatchObject({
      ok: false,
      error: {
        code: 'AccessDenied',
        message: `AWS did not accept the MFA code for ${home.serialNumber}, so profile "admin" could not assume its role. Try again with the code your device shows now; DynoTable asks for a new one.`,
        details: { awsMessage: 'MultiFactorAuthentication failed with invalid MFA one time pass code.' },
      },
    });

    prompted = app.nextPrompt();
    const second = app.listTables();
    await app.call('connections:mfaCode', { promptId: (await prompted).requestId, code: home.code });
    expect((await second).ok).toBe(true);
    expect(tokenCodes()).toEqual(['000000', home.code]);
  });

  it('says the same about a wrong code on "Test connection", not something about DynamoDB', async () => {
    const app = await appWith();
    const prompted = app.nextPrompt();
    const tested = app.test();
    await app.call('connections:mfaCode', { promptId: (await prompted).requestId, code: '654321' });
    expect(await tested).toMatchObject({
      ok: true,
      value: {
        ok: false,
        errorCode: 'AccessDenied',
        message: expect.stringMatching(
          /^AWS did not accept the MFA code for arn:aws:iam::123456789012:mfa\/alice/,
        ) as string,
      },
    });
  });

  it('ends the call with a sentence when the user cancels, and sends nothing to STS', async () => {
    const app = await appWith();
    const prompted = app.nextPrompt();
    const listing = app.listTables();
    const prompt = await prompted;
    await app.call('connections:mfaCode', { promptId: prompt.requestId, cancel: true });
    expect(await listing).toMatchObject({
      ok: false,
      error: {
        code: 'Cancelled',
        message: `The MFA code for ${home.serialNumber} was not entered (cancelled), so profile "admin" did not assume its role and the request was not sent. Try again to be asked for a new code.`,
      },
    });
    expect(app.seen.filter((e) => e.requestId === prompt.requestId).map((e) => e.type)).toEqual([
      'mfa',
      'cancelled',
    ]);
    expect(home.sts.assumeRoleCalls).toEqual([]);
    // An answer that comes too late is refused with a sentence rather than lost.
    expect(
      await app.call('connections:mfaCode', { promptId: prompt.requestId, code: home.code }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'NotFound',
        message: expect.stringMatching(/^That MFA prompt is no longer waiting/) as string,
      },
    });
  });

  it('gives up with a sentence when nobody answers in time', async () => {
    const app = await appWith({ timeoutMs: 1000 });
    const prompted = app.nextPrompt();
    const listing = app.listTables();
    const prompt = await prompted;
    expect(await listing).toMatchObject({
      ok: false,
      error: {
        code: 'MfaCodeRequired',
        message: `No MFA code for ${home.serialNumber} was entered within 1 second, so profile "admin" did not assume its role and the request was not sent. Try again to be asked for a new code.`,
      },
    });
    // The prompt's error event is what closes the dialog in every window.
    expect(app.seen.filter((e) => e.requestId === prompt.requestId).map((e) => e.type)).toEqual([
      'mfa',
      'error',
    ]);
    expect(home.sts.assumeRoleCalls).toEqual([]);
  });

  it('refuses at once when no window is open to ask (a CLI command)', async () => {
    const app = await appWith({ isWindowOpen: false });
    expect(await app.listTables()).toMatchObject({
      ok: false,
      error: {
        code: 'MfaCodeRequired',
        message: expect.stringMatching(/no DynoTable window is open to ask for it/) as string,
      },
    });
  });

  it('refuses a code that is not 6 digits before it reaches anything', async () => {
    const app = await appWith();
    expect(
      await app.call('connections:mfaCode', { promptId: 'mfa-unknown-prompt', code: '12345' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'InvalidInput' },
    });
  });
});
