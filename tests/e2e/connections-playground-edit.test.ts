import { describe, expect, it } from 'vitest';
import { useColorScheme } from './support/browser';
import { useAppInBrowser } from './support/session';

// The built-in playground can be renamed, recoloured and flagged from the picker, like any other
// connection, while where it connects stays DynoTable's business. Nothing here starts Java.
const session = useAppInBrowser();
const orange = '#e16f24';

describe('editing the local playground from the picker', () => {
  it('offers its name, colour and flags, and nothing about where it connects', async () => {
    const page = await session.openPage();
    const card = page.getByTestId('playground-card');
    await card.getByRole('button', { name: 'Edit Local playground' }).click();

    const dialog = page.getByRole('dialog', { name: 'Edit the local playground' });
    const name = dialog.getByRole('textbox', { name: 'Name' });
    await expect.poll(() => name.inputValue()).toBe('Local playground');
    await expect.poll(() => dialog.getByLabel('Endpoint override').count()).toBe(0);
    await expect.poll(() => dialog.getByLabel('Region').count()).toBe(0);

    // An empty name is refused in place, and nothing is saved.
    await name.fill('  ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Give the playground a name you will recognise.').waitFor();

    await name.fill('Sandbox');
    await dialog.getByText('Give the playground a name you will recognise.').waitFor({ state: 'detached' });
    await dialog.getByRole('radio', { name: orange }).click();
    await dialog.getByRole('switch', { name: /Read-only/ }).check({ force: true });
    await dialog.getByRole('switch', { name: /Production/ }).check({ force: true });
    await useColorScheme(page, 'light');
    await session.browser.screenshot('playground-edit-light');
    await useColorScheme(page, 'dark');
    await session.browser.screenshot('playground-edit-dark');
    await useColorScheme(page, 'light');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('shows the new name, colour and flags on the card, and main keeps them', async () => {
    const { page } = session.browser;
    const card = page.getByTestId('playground-card');
    await card.getByRole('heading', { name: 'Sandbox' }).waitFor();
    await card.getByText('PRODUCTION').waitFor();
    await card.getByText('Read-only').waitFor();
    await expect
      .poll(() => card.evaluate((element) => getComputedStyle(element).borderLeftColor))
      .toBe('rgb(225, 111, 36)');
    // Still the playground: the same button opens it.
    await card.getByRole('button', { name: 'Open playground' }).waitFor();
    await session.browser.screenshot('playground-edited-light');
    await useColorScheme(page, 'dark');
    await session.browser.screenshot('playground-edited-dark');
    await useColorScheme(page, 'light');

    expect(await session.app.core.connections.get('playground')).toMatchObject({
      id: 'playground',
      kind: 'playground',
      label: 'Sandbox',
      color: orange,
      readOnly: true,
      isProduction: true,
    });
    // Main enforces the flag on the playground's client: tests/integration/aws/read-only-connection.test.ts.
    const saved = await session.app.core.connections.list();
    expect(saved.filter((connection) => connection.kind === 'playground')).toHaveLength(1);

    await page.reload();
    await page.getByTestId('playground-card').getByRole('heading', { name: 'Sandbox' }).waitFor();
  });

  it('can be put back, and raised no errors in the page', async () => {
    const { page } = session.browser;
    await page.getByRole('button', { name: 'Edit Sandbox' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the local playground' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Local playground');
    await dialog.getByRole('switch', { name: /Read-only/ }).uncheck({ force: true });
    await dialog.getByRole('switch', { name: /Production/ }).uncheck({ force: true });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const card = page.getByTestId('playground-card');
    await card.getByRole('heading', { name: 'Local playground' }).waitFor();
    await expect.poll(() => card.getByText('Read-only').count()).toBe(0);
    expect(session.browser.pageErrors).toEqual([]);
  });
});
