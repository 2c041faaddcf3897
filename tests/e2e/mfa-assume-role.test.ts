import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directClient } from '../support/aws/connection-fixture';
import { createMfaHome, type MfaHome } from '../support/aws/mfa-home';
import { startDynamoLocal } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';
import { useAppInBrowser } from './support/session';

// A profile that assumes a role with MFA (a local STS speaking the real query protocol, called
// by the real SDK): opening the connection asks for the code in a dialog, a cancel or a wrong
// code is explained where the tables would be, and the right code lists them.
const tables = ['invoices', 'payments'];
const slow = { timeout: 60_000 };

const session = useAppInBrowser();
let home: MfaHome;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const dynamo = await startDynamoLocal();
  cleanups.push(() => dynamo.stop());
  // The app has started and pointed AWS_CONFIG_FILE at its own profiles: these replace them.
  home = await createMfaHome();
  cleanups.push(() => home.close());

  // DynamoDB Local keeps one database per access key and region: the role's keys see these.
  const admin = directClient(dynamo.endpoint, home.roleKeys, 'eu-west-1');
  for (const table of tables) await createTable(admin, table, { partitionKey: ['pk', 'S'] });
  admin.destroy();
  await session.app.core.connections.save({
    label: 'Prod admin (MFA)',
    color: '#cf222e',
    kind: 'profile',
    profile: home.profile,
    region: 'eu-west-1',
    endpoint: dynamo.endpoint,
    readOnly: false,
    isProduction: true,
  });
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const tokenCodes = () => home.sts.assumeRoleCalls.map((call) => call.tokenCode);

describe('a connection whose profile assumes a role with MFA', () => {
  it('asks for the code when the connection opens, and explains a cancel where the tables would be', async () => {
    const page = await session.openPage();
    const card = page.getByTestId('connection-card').filter({ hasText: 'Prod admin (MFA)' });
    await card.getByRole('button', { name: 'Open', exact: true }).click();

    const dialog = page.getByRole('dialog', { name: 'MFA code' });
    await dialog.waitFor(slow);
    await expect.poll(() => dialog.innerText()).toContain(`Enter the MFA code for ${home.serialNumber}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    const alert = page.locator('.table-list').getByRole('alert');
    await alert.waitFor(slow);
    await expect
      .poll(() => alert.innerText())
      .toContain(`The MFA code for ${home.serialNumber} was not entered (cancelled)`);
    expect(home.sts.assumeRoleCalls).toEqual([]);
  });

  it('explains a wrong code with STS’s answer, and asks again on "Try again"', async () => {
    const { page } = session.browser;
    const alert = page.locator('.table-list').getByRole('alert');
    await alert.getByRole('button', { name: 'Try again' }).click();
    const dialog = page.getByRole('dialog', { name: 'MFA code' });
    await dialog.getByRole('textbox', { name: 'Code' }).fill('000000');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.waitFor({ state: 'detached' });

    await alert.getByText(/AWS did not accept the MFA code/).waitFor(slow);
    await expect.poll(() => alert.innerText()).toContain('AccessDenied');
    expect(tokenCodes()).toEqual(['000000']);
  });

  it('checks the code in place, and lists the tables once the right one is sent', async () => {
    const { page } = session.browser;
    await page.locator('.table-list').getByRole('alert').getByRole('button', { name: 'Try again' }).click();
    const dialog = page.getByRole('dialog', { name: 'MFA code' });
    const input = dialog.getByRole('textbox', { name: 'Code' });
    await input.fill('48a');
    await dialog.getByText('Only digits: the code is the 6 digits your MFA device shows.').waitFor();
    await input.fill('4829');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByText('The code has 6 digits; this has 4.').waitFor();
    await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
    await session.browser.screenshotBothSchemes('mfa-code-invalid');
    // Nothing reached STS while the code was incomplete.
    expect(tokenCodes()).toEqual(['000000']);

    // As an authenticator app shows it, pasted: the space is dropped, not refused.
    await input.fill(`${home.code.slice(0, 3)} ${home.code.slice(3)}`);
    await expect.poll(() => input.getAttribute('aria-invalid')).toBe('false');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.waitFor({ state: 'detached' });
    for (const table of tables) await page.getByRole('button', { name: table, exact: true }).waitFor(slow);
    expect(tokenCodes()).toEqual(['000000', home.code]);
  });

  it('does not ask again while the role session lasts', async () => {
    const { page } = session.browser;
    await page.getByRole('button', { name: 'invoices', exact: true }).click();
    await page.getByRole('heading', { name: 'invoices' }).waitFor();
    await page.locator('.table-page-header').getByText('active').waitFor(slow);
    await page.getByRole('tab', { name: 'Tables', exact: true }).click();
    await page.locator('.table-list').getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('button', { name: 'payments', exact: true }).waitFor(slow);
    await expect.poll(() => page.getByRole('dialog', { name: 'MFA code' }).count()).toBe(0);
    expect(tokenCodes()).toEqual(['000000', home.code]);
    expect(session.browser.pageErrors).toEqual([]);
  });
});
