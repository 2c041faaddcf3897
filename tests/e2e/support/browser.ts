import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const artifactsDir = path.resolve(__dirname, '..', 'artifacts');

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Browser-side errors (uncaught exceptions, console errors) seen so far. */
  pageErrors: string[];
  screenshot(name: string): Promise<string>;
  /** `<name>-light` and `<name>-dark`, leaving the page in the light scheme. */
  screenshotBothSchemes(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Debian's Chromium through playwright-core (never `playwright install`), with a fresh profile
 * directory that playwright itself passes as --user-data-dir.
 */
export async function launchBrowser(): Promise<Browser> {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1360, height: 820 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await mkdir(artifactsDir, { recursive: true });
  const screenshot = async (name: string): Promise<string> => {
    const file = path.join(artifactsDir, `${name}.png`);
    await page.screenshot({ path: file, fullPage: false });
    return file;
  };
  return {
    context,
    page,
    pageErrors,
    screenshot,
    async screenshotBothSchemes(name) {
      for (const scheme of ['dark', 'light'] as const) {
        await useColorScheme(page, scheme);
        await screenshot(`${name}-${scheme}`);
      }
    },
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

export async function useColorScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
}
