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

/** How Debian's Chromium runs here, through playwright-core (never `playwright install`). */
export const chromiumLaunch = {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

const viewport = { width: 1360, height: 820 };

/**
 * A fresh browser context: its own cookies, storage and pages, as a new profile would have.
 * With `endpoint` (the e2e run's one Chromium, started by tests/e2e/global-setup.ts), the
 * context is opened in that browser, which saves starting Chromium for every file; without it
 * (benchmarks), a Chromium of its own with a fresh profile directory.
 */
export async function launchBrowser(endpoint?: string): Promise<Browser> {
  let context: BrowserContext;
  let release: () => Promise<void>;
  if (endpoint) {
    const shared = await chromium.connect(endpoint);
    context = await shared.newContext({ viewport });
    release = async () => {
      await context.close();
      await shared.close();
    };
  } else {
    const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, { ...chromiumLaunch, viewport });
    release = async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    };
  }
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
    close: release,
  };
}

export async function useColorScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
}
