import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { createPlayground } from '../../src/main/playground/playground';
import type { TestProject } from 'vitest/node';
import { chromiumLaunch } from './support/browser';
import { buildRendererIfNeeded } from './support/build-renderer';
import { useQuickJvm } from './support/quick-jvm';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumEndpoint: string;
    /** A playground folder with the sample table seeded, to copy (empty when Java is missing). */
    seededPlayground: string;
  }
}

/**
 * Builds the renderer once for every e2e file and starts one Chromium that every file connects
 * to; each file opens its own browser context (fresh cookies and storage) and starts its own app.
 * The sample table is seeded once, into a playground folder that each file starting its
 * playground gets a copy of: its own DynamoDB Local and data, without writing the sample again.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync('/usr/bin/chromium')) {
    throw new Error(
      "End-to-end tests need Debian's Chromium at /usr/bin/chromium: apt-get install -y chromium",
    );
  }
  buildRendererIfNeeded();
  const template = await mkdtemp(path.join(os.tmpdir(), 'dynotable-e2e-playground-'));
  const playground = createPlayground({ dataDir: template });
  const restoreJvm = useQuickJvm();
  const seeded = await playground.start().finally(restoreJvm);
  await playground.stop();
  project.provide('seededPlayground', seeded.state === 'running' && seeded.seeded ? template : '');
  const server = await chromium.launchServer(chromiumLaunch);
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
    await rm(template, { recursive: true, force: true });
  };
}
