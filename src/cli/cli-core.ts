import { mkdir } from 'node:fs/promises';
import type { AdHocConnections } from '../main/aws/ad-hoc-client';
import { createUnavailableSecretStore } from '../main/aws/secret-store';
import type { CoreContext } from '../main/core/context';
import { createCore, shutdownCore } from '../main/create-core';
import { defaultDataDir } from './data-dir';
import { cliVersion } from './version';

export interface CliCoreOptions {
  /** How a link leaves the command (serve prints it); the other commands open none. */
  openUrl?: (url: string) => Promise<void>;
  /** The connections the command line names by flags, kept in memory only. */
  adHoc?: AdHocConnections;
}

/**
 * The core every CLI command runs on, in the shared data folder: the app's services, guards,
 * journal, checkpoints and list of running jobs. No secret store: the CLI never stores access
 * keys (see docs/design/core-rules.md).
 */
export async function createCliCore(options: CliCoreOptions = {}): Promise<CoreContext> {
  const dataDir = defaultDataDir();
  await mkdir(dataDir, { recursive: true });
  return createCore({
    mode: 'browser',
    version: cliVersion,
    dataDir,
    secrets: createUnavailableSecretStore(),
    openUrl: options.openUrl ?? (() => Promise.resolve()),
    adHoc: options.adHoc,
  });
}

/**
 * Runs a one-shot command's work on a core and always shuts the core down after, so no worker,
 * client or timer keeps the process alive once the command has answered.
 */
export async function withCliCore<T>(
  adHoc: AdHocConnections,
  work: (ctx: CoreContext) => Promise<T>,
): Promise<T> {
  const ctx = await createCliCore({ adHoc });
  try {
    return await work(ctx);
  } finally {
    await shutdownCore(ctx);
  }
}
