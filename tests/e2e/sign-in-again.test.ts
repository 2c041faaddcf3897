import { describe, expect, it } from 'vitest';
import { useColorScheme } from './support/browser';
import { useAppInBrowser } from './support/session';

// An SSO profile whose session is gone: the UI offers "Sign in again" where the error is shown,
// and the sign-in dialog reports its outcome over the event stream without leaving the workspace.
const session = useAppInBrowser();

describe('an expired SSO session', () => {
  it('is explained on "Test connection" with a way to sign in again', async () => {
    const page = await session.openPage();
    await page.getByRole('button', { name: 'New connection' }).click();
    const dialog = page.getByRole('dialog', { name: 'New connection' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Team SSO');
    const option = dialog.getByRole('option', { name: /e2e-sso/ });
    // The profile list says how each profile gets its credentials.
    await expect.poll(() => option.innerText()).toContain('SSO');
    await option.click();
    await dialog.getByRole('button', { name: 'Save and test' }).click();

    const card = page.getByTestId('connection-card').filter({ hasText: 'Team SSO' });
    const alert = card.getByRole('alert');
    await alert.waitFor();
    await expect.poll(() => alert.innerText()).toMatch(/SSO session .*expired/);
    await card.getByRole('button', { name: 'Sign in again' }).waitFor();
  });

  it('offers "Sign in again" on the table list, and reports a failed sign-in in place', async () => {
    const { page } = session.browser;
    const card = page.getByTestId('connection-card').filter({ hasText: 'Team SSO' });
    await card.getByRole('button', { name: 'Open', exact: true }).click();
    const listError = page.locator('.table-list').getByRole('alert');
    await listError.waitFor();
    await expect.poll(() => listError.innerText()).toMatch(/CredentialsExpired/);
    await session.browser.screenshot('sso-expired');

    await listError.getByRole('button', { name: 'Sign in again' }).click();
    const signIn = page.getByRole('dialog', { name: 'Sign in again' });
    await signIn.waitFor();
    // The OIDC region does not exist: the operation ends with an error event, shown as a sentence.
    const failure = signIn.getByRole('alert');
    await failure.waitFor();
    const text = await failure.innerText();
    expect(text.length).toBeGreaterThan(20);
    expect(text).not.toMatch(/\n\s+at |node_modules/);
    // Said about the sign-in service and where to fix it, not about DynamoDB.
    expect(text).toContain('Could not reach IAM Identity Center in e2e-nowhere-1');
    expect(text).not.toMatch(/DynamoDB/);
    await session.browser.screenshot('sso-sign-in-failed');
    await useColorScheme(page, 'dark');
    await session.browser.screenshot('sso-sign-in-failed-dark');

    // Esc closes the dialog and the workspace is still there, as it was.
    await page.keyboard.press('Escape');
    await signIn.waitFor({ state: 'detached' });
    await page.getByTestId('top-bar').getByText('Team SSO').waitFor();
    expect(session.browser.pageErrors).toEqual([]);
  });
});
