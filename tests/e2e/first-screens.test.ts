import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useColorScheme } from './support/browser';
import { useAppInBrowser } from './support/session';

// The foundation's promise, driven like a user would: real server, real core, DynamoDB Local
// on real Java, Debian's Chromium. No fixed sleeps: every step waits for what the user would see.
const sampleTable = 'DynoTableSample';
const slow = { timeout: 120_000 };

// Real Java, started the way a slow machine starts it: a page opened meanwhile must see the
// playground starting, however fast DynamoDB Local comes up here.
const slowJava = path.join(tmpdir(), `dynotable-slow-java-${process.pid}.sh`);
writeFileSync(slowJava, '#!/bin/sh\nsleep 4\nexec java "$@"\n', { mode: 0o755 });

const session = useAppInBrowser({ javaCommand: slowJava });

describe('first screens in browser mode', () => {
  it('opens on the connection picker with the local playground first', async () => {
    const page = await session.openPage();
    await page.getByRole('heading', { name: 'Local playground' }).waitFor();
    await page.getByText('No saved connections yet').waitFor();
    // The token was traded for a cookie and is gone from the address bar.
    expect(page.url()).toBe(`${session.app.origin}/`);
    await session.browser.screenshot('picker-light');
    await useColorScheme(page, 'dark');
    await session.browser.screenshot('picker-dark');
    await useColorScheme(page, 'light');
  });

  it('follows a playground that main is starting when the page opens, without a reload', async () => {
    const { page } = session.browser;
    // As `dynotable serve --playground` does: main starts it while the address is already open.
    const started = session.app.core.playground.start();
    await page.reload();
    const card = page.getByRole('region', { name: 'Local playground' });
    await card.getByRole('status').waitFor();
    await expect.poll(() => card.getByRole('button', { name: 'Starting…' }).count()).toBe(1);
    await card.getByText(/^Running at http:\/\/127\.0\.0\.1:\d+/).waitFor(slow);
    expect((await started).state).toBe('running');
    await card.getByRole('button', { name: 'Open playground' }).waitFor();
  });

  it('starts the playground and lists the seeded table', async () => {
    const { page } = session.browser;
    await page.getByRole('button', { name: 'Open playground' }).click();
    await page.getByTestId('top-bar').getByText('Local playground').waitFor(slow);
    const row = page.getByTestId('table-row').filter({ hasText: sampleTable });
    await row.waitFor(slow);
    const rowText = await row.innerText();
    expect(rowText).toContain('PK');
    expect(rowText).toContain('SK');
    expect(rowText).toMatch(/\d+ GSI/);
    await session.browser.screenshot('table-list-light');
    await useColorScheme(page, 'dark');
    await session.browser.screenshot('table-list-dark');
    await useColorScheme(page, 'light');
  });

  it('filters the list from the keyboard', async () => {
    const { page } = session.browser;
    await page.keyboard.press('Control+K');
    const filter = page.getByRole('searchbox', { name: 'Filter tables' });
    await expect
      .poll(() => filter.evaluate((element) => element === document.activeElement), slow)
      .toBe(true);
    await page.keyboard.type('no-such-table-xyz');
    await page.getByText('No table matches “no-such-table-xyz”').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('table-row').filter({ hasText: sampleTable }).waitFor();
  });

  it("opens the table's description with keys and every index", async () => {
    const { page } = session.browser;
    await page.getByRole('button', { name: sampleTable, exact: true }).click();
    await page.getByRole('heading', { name: sampleTable }).waitFor();
    // A table opens on its items; the description is one click away.
    await page.getByRole('tab', { name: 'Overview' }).click();
    const keys = page.getByRole('region', { name: 'Keys' });
    await keys.getByText('PK', { exact: true }).waitFor();
    await keys.getByText('SK', { exact: true }).waitFor();

    const indexRows = page.getByTestId('index-row');
    await indexRows.first().waitFor();
    const names = await indexRows.locator('td:first-child').allInnerTexts();
    // The overloaded GSI1 and the sparse index that only unprocessed payments carry.
    expect(names).toEqual(expect.arrayContaining(['GSI1', 'UnprocessedPayments']));
    await session.browser.screenshot('description-light');
    await useColorScheme(page, 'dark');
    await session.browser.screenshot('description-dark');
    await useColorScheme(page, 'light');
  });

  it('keeps open table tabs when switching connections and back', async () => {
    const { page } = session.browser;
    await page.getByRole('button', { name: '‹ Connections' }).click();
    // Exact: the table list's own heading says "Tables in Local playground".
    await page.getByRole('heading', { name: 'Local playground', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Open playground' }).click();
    await page.getByRole('tab', { name: sampleTable }).waitFor(slow);
    await page.getByRole('button', { name: '‹ Connections' }).click();
  });

  it('shows a connection error as a sentence with its code, never a stack trace', async () => {
    const { page } = session.browser;
    await page.getByRole('button', { name: 'New connection' }).click();
    const dialog = page.getByRole('dialog', { name: 'New connection' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Closed endpoint');
    await dialog.getByRole('option', { name: /e2e-keys/ }).click();
    // Nothing listens on port 9 (discard) on loopback here: the connection is refused.
    await dialog.getByLabel('Endpoint override').fill('http://127.0.0.1:9');
    await dialog.getByRole('switch', { name: /Production/ }).check({ force: true });
    await dialog.getByRole('switch', { name: /Read-only/ }).check({ force: true });
    await dialog.getByRole('button', { name: 'Save and test' }).click();

    const card = page.getByTestId('connection-card').filter({ hasText: 'Closed endpoint' });
    const alert = card.getByRole('alert');
    await alert.waitFor(slow);
    const text = await alert.innerText();
    // "Test connection" names the endpoint it dialled and what to do about it.
    expect(text).toMatch(/Nothing answered at http:\/\/127\.0\.0\.1:9\/?: the connection was refused/);
    expect(text).toContain('ECONNREFUSED');
    expect(text).not.toMatch(/\n\s+at |Error:|node_modules/);
    await session.browser.screenshot('error-test-connection');

    await card.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByTestId('production-band').waitFor();
    await page.getByTestId('top-bar').getByText('Read-only').waitFor();
    const listError = page.locator('.table-list').getByRole('alert');
    await listError.waitFor(slow);
    await expect.poll(() => listError.innerText()).toMatch(/Could not reach DynamoDB/);
    await session.browser.screenshot('error-table-list-production');
    await useColorScheme(page, 'dark');
    await session.browser.screenshot('error-table-list-production-dark');
  });

  it('raised no uncaught errors in the page', () => {
    // Failed requests the app handled (e.g. none expected here) would also show up in the console.
    expect(session.browser.pageErrors).toEqual([]);
  });
});
