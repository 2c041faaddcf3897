import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from './support/app';
import { launchBrowser, useColorScheme, type Browser } from './support/browser';

// The palette is written once (light-dark() in styles/theme.css); which half shows depends on the
// system's preference unless the toggle picked one. Nothing here starts Java.
const white = 'rgb(255, 255, 255)';
const darkBackground = 'rgb(15, 18, 22)';

let app: RunningApp;
let browser: Browser;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  app = await startApp();
  cleanups.push(() => app.close());
  browser = await launchBrowser();
  cleanups.push(() => browser.close());
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const background = (): Promise<string> =>
  browser.page.evaluate(() => getComputedStyle(document.body).backgroundColor);

async function choose(label: 'Theme: follows the system' | 'Theme: light' | 'Theme: dark'): Promise<void> {
  const toggle = browser.page.getByRole('button', { name: /^Theme:/ });
  for (let i = 0; i < 3 && (await toggle.getAttribute('aria-label')) !== label; i++) await toggle.click();
  expect(await toggle.getAttribute('aria-label')).toBe(label);
}

describe('the theme', () => {
  it('follows the system until a choice is made', async () => {
    const { page } = browser;
    await page.goto(app.url);
    await page.getByRole('heading', { name: 'Local playground' }).waitFor();
    await choose('Theme: follows the system');
    await useColorScheme(page, 'light');
    expect(await background()).toBe(white);
    await useColorScheme(page, 'dark');
    expect(await background()).toBe(darkBackground);
  });

  it('keeps an explicit choice against the system preference, across a reload', async () => {
    const { page } = browser;
    await useColorScheme(page, 'dark');
    await choose('Theme: light');
    expect(await background()).toBe(white);

    await useColorScheme(page, 'light');
    await choose('Theme: dark');
    expect(await background()).toBe(darkBackground);
    await page.reload();
    await page.getByRole('heading', { name: 'Local playground' }).waitFor();
    expect(await background()).toBe(darkBackground);

    await choose('Theme: follows the system');
    expect(await background()).toBe(white);
    expect(browser.pageErrors).toEqual([]);
  });
});
