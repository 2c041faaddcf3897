import { afterEach, describe, expect, inject, it } from 'vitest';
import { connectionFixture, uniqueKeys } from '../../support/aws/connection-fixture';
import { startFakeSso } from '../../support/aws/fake-sso';
import { runSsoSignIn } from '../../support/aws/run-sso-sign-in';
import { createSsoHome, devSsoConnection } from '../../support/aws/sso-home';
import { freePort } from '../../support/dynamo-local';

const endpoint = inject('dynamoEndpoint');
const startUrl = 'https://corp.awsapps.com/start';
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function ssoConnection() {
  const fixture = await connectionFixture(endpoint);
  cleanups.push(() => fixture.cleanup());
  const connection = await fixture.connections.save(devSsoConnection(endpoint));
  return { fixture, connection };
}

describe('signing in when IAM Identity Center cannot be reached', () => {
  it('names IAM Identity Center, its region and start URL and where to fix them, not DynamoDB', async () => {
    // A port nobody listens on: the sign-in service refuses the connection.
    const home = await createSsoHome({ ssoEndpoint: `http://127.0.0.1:${await freePort()}`, startUrl });
    cleanups.push(() => home.restore());
    const { fixture, connection } = await ssoConnection();

    const events = await runSsoSignIn(connection, {
      mode: 'desktop',
      clients: fixture.clients,
      openExternal: () => Promise.resolve(true),
    });
    const last = events.at(-1);
    expect(last).toMatchObject({
      type: 'error',
      error: { code: 'ECONNREFUSED', retryable: true, details: { startUrl, ssoRegion: 'eu-west-1' } },
    });
    const message = last?.type === 'error' ? last.error.message : '';
    expect(message).toBe(
      `Could not reach IAM Identity Center in eu-west-1 (start URL ${startUrl}): the connection was refused. Check your network connection, VPN or proxy, and that \`sso_region\` in \`[sso-session corp]\` of your AWS config is the region of your AWS access portal, then sign in again.`,
    );
    expect(message).not.toMatch(/DynamoDB/);
  });
});

describe('signing in from browser mode', () => {
  it('opens nothing on the server and gives the page the link and code to show', async () => {
    const sso = await startFakeSso({ ...uniqueKeys(), sessionToken: 'role-session-token' });
    cleanups.push(() => sso.close());
    const home = await createSsoHome({ ssoEndpoint: sso.endpoint, startUrl });
    cleanups.push(() => home.restore());
    const { fixture, connection } = await ssoConnection();
    const openedByMain: string[] = [];

    const events = await runSsoSignIn(
      connection,
      {
        mode: 'browser',
        clients: fixture.clients,
        openExternal: (url) => {
          openedByMain.push(url);
          return Promise.resolve(true);
        },
      },
      // The user follows the link the page shows, in their own browser.
      async (event) => {
        if (event.progress.verification) await fetch(event.progress.verification.url).then((r) => r.text());
      },
    );

    const progress = events.find((event) => event.type === 'progress');
    const verification = progress?.type === 'progress' ? progress.progress.verification : undefined;
    expect(verification?.userCode).toMatch(/^WXYZ-\d+$/);
    expect(verification?.url).toBe(`${sso.endpoint}/device?user_code=${verification?.userCode ?? ''}`);
    expect(progress?.type === 'progress' && progress.progress.message).toBe(
      `Open ${verification?.url ?? ''} in your browser and confirm the code ${verification?.userCode ?? ''} to sign in to profile "dev". DynoTable waits until you do.`,
    );
    expect(events.at(-1)).toMatchObject({ type: 'done' });
    expect(openedByMain).toEqual([]);
    expect(sso.openedPages).toHaveLength(1);
  });
});
