import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { localClient } from '../../support/dynamo-local';
import { startApp, type RunningApp, type StartAppOptions } from './app';
import { launchBrowser, useColorScheme, type Browser } from './browser';

export interface AppInBrowser {
  readonly app: RunningApp;
  readonly browser: Browser;
  /** The playground's DynamoDB Local, when the file asked for it. */
  readonly playgroundEndpoint: string;
  /** A client of the playground's DynamoDB Local, for checking what the UI wrote; closed after the file. */
  readonly playgroundClient: DynamoDBClient;
  /** Loads the printed address (the token becomes a cookie) in the light scheme: a user opening DynoTable. */
  openPage(): Promise<Page>;
}

export interface AppInBrowserOptions extends StartAppOptions {
  /** Starts the playground before the first test, so no test waits for it. */
  withPlayground?: boolean;
}

/**
 * The setup every e2e file shares: the real app (browser-mode server and core) and Debian's
 * Chromium, started before the file's first test and closed after its last, browser first.
 * A file's own beforeAll, registered after this call, runs once the app is up.
 */
export function useAppInBrowser(options: AppInBrowserOptions = {}): AppInBrowser {
  let app: RunningApp | undefined;
  let browser: Browser | undefined;
  let playgroundEndpoint: string | undefined;
  let playgroundClient: DynamoDBClient | undefined;

  beforeAll(async () => {
    // The app's playground is a database of its own on the run's one DynamoDB Local, with the
    // sample seeded once per run; a file that tests the playground's own start (a java of its
    // own) runs Java through the product, and sees the first start seed the sample.
    const shared = options.javaCommand
      ? {}
      : { seededPlayground: inject('seededPlayground'), sharedDynamoLocal: inject('sharedDynamoLocal') };
    app = await startApp({ ...shared, ...options });
    if (options.withPlayground) {
      const status = await app.core.playground.start();
      if (!status.endpoint)
        throw new Error(`The playground did not start: ${status.message ?? status.state}`);
      playgroundEndpoint = status.endpoint;
    }
    browser = await launchBrowser(inject('chromiumEndpoint'));
  }, 240_000);

  // A failed step leaves what the user would have seen: a screenshot named after the test, the
  // page's text and every browser-side error, so a failure on CI can be read without a rerun.
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(async () => {
      if (!browser) return;
      const name = `failed-${task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}`;
      const shown = browser.page.locator('body').innerText({ timeout: 2_000 });
      const [file, text] = await Promise.all([
        browser.screenshot(name).catch((error: unknown) => `no screenshot: ${String(error)}`),
        shown.catch((error: unknown) => `no text: ${String(error)}`),
      ]);
      console.error(
        [
          `"${task.name}" failed. Screenshot: ${file}`,
          `Page text:\n${text.slice(0, 1_500)}`,
          `Browser errors:\n${browser.pageErrors.join('\n') || '(none)'}`,
        ].join('\n'),
      );
    });
  });

  afterAll(async () => {
    playgroundClient?.destroy();
    await browser?.close();
    await app?.close();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not started: use it inside a test or a later hook.`);
    return value;
  };
  return {
    async openPage() {
      const { page } = started(browser, 'The browser');
      await useColorScheme(page, 'light');
      await page.goto(started(app, 'The app').url);
      return page;
    },
    get app() {
      return started(app, 'The app');
    },
    get browser() {
      return started(browser, 'The browser');
    },
    get playgroundEndpoint() {
      return started(playgroundEndpoint, 'The playground');
    },
    get playgroundClient() {
      playgroundClient ??= localClient(started(playgroundEndpoint, 'The playground'));
      return playgroundClient;
    },
  };
}
