import { CreateTableCommand, PutItemCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directClient, uniqueKeys } from '../support/aws/connection-fixture';
import { startFakeSso, type FakeSso } from '../support/aws/fake-sso';
import { createSsoHome, type SsoHome } from '../support/aws/sso-home';
import { startDynamoLocal } from '../support/dynamo-local';
import type { Page } from 'playwright-core';
import { gridCell } from './support/grid-rows';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// A day in the life of an SSO user: tabs open on two tables, the session runs out, "Sign in
// again" walks through IAM Identity Center's device flow (a local fake speaking the real wire
// protocol, called by the real SDK), and the same tabs carry on with the new session.
const startUrl = 'https://corp.awsapps.com/start';
const tables = ['orders', 'customers'];
const slow = { timeout: 60_000 };

const session = useAppInBrowser();
const customerRow = (page: Page) => gridCell(page, 1, 'customer-1');
let sso: FakeSso;
let home: SsoHome;
const cleanups: (() => Promise<void>)[] = [];
let releaseRoleCredentials = (): void => undefined;

/** The session as the SDK finds it in ~/.aws/sso/cache: valid for an hour, or already over. */
async function cacheSession(state: 'valid' | 'expired'): Promise<void> {
  const isValid = state === 'valid';
  await home.writeToken('corp', {
    startUrl,
    region: 'eu-west-1',
    accessToken: isValid ? sso.issueAccessToken() : 'stale-token',
    expiresAt: new Date(Date.now() + (isValid ? 3600_000 : -60_000)).toISOString(),
    clientId: 'old-client',
    clientSecret: 'old-secret',
    // The fake refuses every refresh, as IAM Identity Center does once a session has ended.
    refreshToken: 'revoked-refresh-token',
  });
}

beforeAll(async () => {
  const dynamo = await startDynamoLocal();
  cleanups.push(() => dynamo.stop());
  const roleKeys = { ...uniqueKeys(), sessionToken: 'role-session-token' };
  sso = await startFakeSso(roleKeys, { roleCredentialsTtlMs: 60_000 });
  cleanups.push(() => sso.close());
  // The app has started and pointed AWS_CONFIG_FILE at its own profiles: these replace them.
  home = await createSsoHome({ ssoEndpoint: sso.endpoint, startUrl });
  cleanups.push(() => home.restore());
  await cacheSession('valid');

  // DynamoDB Local keeps one database per access key and region: the role's keys see these.
  const admin = directClient(dynamo.endpoint, roleKeys, 'eu-west-1');
  for (const TableName of tables) {
    await admin.send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      }),
    );
  }
  // One item the grid shows only when a read with a good session answered.
  await waitUntilTableExists({ client: admin, maxWaitTime: 60 }, { TableName: 'customers' });
  await admin.send(new PutItemCommand({ TableName: 'customers', Item: { pk: { S: 'customer-1' } } }));
  admin.destroy();
  await session.app.core.connections.save({
    label: 'Dev (SSO)',
    color: '#8250df',
    kind: 'profile',
    profile: 'dev',
    region: 'eu-west-1',
    endpoint: dynamo.endpoint,
    readOnly: false,
    isProduction: false,
  });
});

afterAll(async () => {
  releaseRoleCredentials();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('signing in again after the SSO session expired', () => {
  it('works with tabs open on two tables while the session lasts', async () => {
    const page = await session.openPage();
    const card = page.getByTestId('connection-card').filter({ hasText: 'Dev (SSO)' });
    await card.getByRole('button', { name: 'Open', exact: true }).click();
    for (const table of tables) {
      await page.getByRole('tab', { name: 'Tables', exact: true }).click();
      await page.getByRole('button', { name: table, exact: true }).click(slow);
      await page.getByRole('heading', { name: table }).waitFor();
      await page.locator('.table-page-header').getByText('active').waitFor(slow);
    }
    await customerRow(page).waitFor(slow);
  });

  // The table opens on Items; its one Refresh reads the description and the items again, and
  // each failure is said there: the describe's above the view, the re-read's in it.
  it('shows the expired session on the open tab with "Sign in again"', async () => {
    const { page } = session.browser;
    await cacheSession('expired');
    await page.locator('.table-page-header').getByRole('button', { name: 'Refresh' }).click();
    const readAlert = page.locator('.table-page-body').getByRole('alert');
    await readAlert.waitFor(slow);
    await expect
      .poll(() => readAlert.innerText())
      .toMatch(/SSO session has expired[\s\S]*CredentialsExpired/);
    const alert = page.locator('.table-page-error').getByRole('alert');
    await alert.waitFor(slow);
    await expect.poll(() => alert.innerText()).toMatch(/SSO session has expired[\s\S]*CredentialsExpired/);
    await alert.getByRole('button', { name: 'Sign in again' }).click();
  });

  it('shows the code and the sign-in page, and finishes once the user allows it there', async () => {
    const { page, context } = session.browser;
    const dialog = page.getByRole('dialog', { name: 'Sign in again' });
    const code = dialog.getByTestId('user-code');
    await code.waitFor(slow);
    const userCode = await code.innerText();
    expect(userCode).toMatch(/^WXYZ-\d+$/);
    await dialog.getByText(`${sso.endpoint}/device?user_code=${userCode}`).waitFor();
    await screenshots(session.browser.page, 'sso-sign-in-waiting');

    // The app's first calls with the new session wait on their role credentials until the user
    // has closed the dialog: the open tabs must reload by themselves, not only while it shows.
    releaseRoleCredentials = sso.holdRoleCredentials();
    // The user opens the page from the dialog, in a new tab, and allows access there.
    const [signInPage] = await Promise.all([
      context.waitForEvent('page'),
      dialog.getByRole('button', { name: 'Open the sign-in page' }).click(),
    ]);
    await signInPage.waitForLoadState();
    expect(signInPage.url()).toBe(`${sso.endpoint}/device?user_code=${userCode}`);
    await signInPage.close();

    await dialog.getByText(/Signed in to profile "dev"/).waitFor(slow);
    await screenshots(session.browser.page, 'sso-sign-in-success');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.waitFor({ state: 'detached' });
    releaseRoleCredentials();
  });

  it('keeps the same tabs open, and the table loads with the new session', async () => {
    const { page } = session.browser;
    const strip = page.getByRole('tablist', { name: 'Open tabs' });
    const tabNames = await strip.getByRole('tab').allInnerTexts();
    // Connection-wide tool tabs (such as SQL) sit between Tables and the table tabs.
    const names = tabNames.map((name) => name.trim());
    expect(names[0]).toBe('Tables');
    expect(names.slice(-tables.length)).toEqual(tables);
    await expect
      .poll(() => strip.getByRole('tab', { name: 'customers' }).getAttribute('aria-selected'))
      .toBe('true');
    await page.locator('.table-page-header').getByText('active').waitFor(slow);
    await customerRow(page).waitFor(slow);
    await page
      .locator('.table-page')
      .getByRole('alert')
      .waitFor({ state: 'detached', ...slow });

    await strip.getByRole('tab', { name: 'orders' }).click();
    await page.getByRole('heading', { name: 'orders' }).waitFor();
    await page.locator('.table-page-header').getByText('active').waitFor(slow);
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('names IAM Identity Center, its region and start URL when it cannot be reached', async () => {
    const { page } = session.browser;
    await sso.close();
    await cacheSession('expired');
    await page.locator('.table-page-header').getByRole('button', { name: 'Refresh' }).click();
    const alert = page.locator('.table-page-error').getByRole('alert');
    await alert.getByRole('button', { name: 'Sign in again' }).click(slow);

    const dialog = page.getByRole('dialog', { name: 'Sign in again' });
    const failure = dialog.getByRole('alert');
    await failure.waitFor(slow);
    const text = await failure.innerText();
    expect(text).toContain(`Could not reach IAM Identity Center in eu-west-1 (start URL ${startUrl})`);
    expect(text).toContain('[sso-session corp]');
    expect(text).not.toMatch(/DynamoDB/);
    await screenshots(session.browser.page, 'sso-sign-in-unreachable');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'customers' }).waitFor();
  });
});
