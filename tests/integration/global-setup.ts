import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../support/dynamo-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    /** The CLI bundled as it ships (out/cli/index.js), built once for the run's CLI tests. */
    cliBundle: string;
  }
}

const root = path.resolve(__dirname, '../..');

/**
 * `npm run build:cli` into a private folder, two levels under the root as out/cli is, so the
 * bundle finds node_modules and the renderer the way the shipped one does. Every CLI test spawns
 * this instead of tsx over the sources: one esbuild per run rather than a TypeScript transform
 * of the whole CLI in every child process.
 */
function buildCli(outdir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/build-cli.mjs', '--outdir', outdir], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`the CLI bundle did not build: ${stderr}`)),
    );
  });
}

/**
 * One real DynamoDB Local for the integration run (each test makes its own table in it), and the
 * CLI bundle. The shared instance keeps Java's defaults, unlike the per-file ones
 * (quick-jvm-setup.ts runs in the workers, not here): it serves the whole run, and over tens of
 * thousands of requests C2 pays for itself (docs/PERFORMANCE.md).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cliDir = path.join(root, '.tmp', `integration-cli-${process.pid}`);
  // One after the other: on a loaded machine esbuild beside the JVM's start-up can hold
  // DynamoDB Local past the 60 s it is given to answer.
  const local = await startDynamoLocal();
  await buildCli(cliDir).catch(async (error: unknown) => {
    await local.stop();
    throw error;
  });
  project.provide('dynamoEndpoint', local.endpoint);
  project.provide('cliBundle', path.join(cliDir, 'index.js'));
  return async () => {
    await local.stop();
    await rm(cliDir, { recursive: true, force: true });
  };
}
