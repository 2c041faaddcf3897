import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { createPlayground } from '../../src/main/playground/playground';
import type { TestProject } from 'vitest/node';
import { chromiumLaunch } from './support/browser';
import { buildRendererIfNeeded } from './support/build-renderer';
import { startSharedDynamoLocal, type SharedDynamoLocal } from './support/shared-dynamo-local';
import { useQuickJvm } from './support/quick-jvm';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumEndpoint: string;
    /** A playground folder with the sample table seeded, to copy (empty when Java is missing). */
    seededPlayground: string;
    /** The run's one DynamoDB Local, on which each app gets a database of its own (empty endpoint when Java is missing). */
    sharedDynamoLocal: { endpoint: string; dbPath: string };
  }
}

/**
 * Builds the renderer once for every e2e file and starts one Chromium that every file connects
 * to; each file opens its own browser context (fresh cookies and storage) and starts its own app.
 * The sample table is seeded once, by the product's playground into a template folder; one
 * DynamoDB Local then serves every file, each with a database of its own that starts as a copy
 * of the seeded one (support/shared-dynamo-local.ts). Files that test the playground's own start
 * (a `javaCommand` of their own) still start Java through the product, from the template's copy.
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
  const isSeeded = seeded.state === 'running' && seeded.seeded === true;
  project.provide('seededPlayground', isSeeded ? template : '');
  const dynamo: SharedDynamoLocal | undefined = isSeeded ? await startSharedDynamoLocal() : undefined;
  project.provide('sharedDynamoLocal', { endpoint: dynamo?.endpoint ?? '', dbPath: dynamo?.dbPath ?? '' });
  const server = await chromium.launchServer(chromiumLaunch);
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
    await dynamo?.stop();
    await rm(template, { recursive: true, force: true });
  };
}
