import { mkdir } from 'node:fs/promises';
import { createUnavailableSecretStore } from '../main/aws/secret-store';
import type { ClientFactory, CoreContext } from '../main/core/context';
import { createCore } from '../main/create-core';
import { defaultDataDir } from './data-dir';
import { cliVersion } from './version';

/**
 * The core of a long-running CLI command (serve, mcp) in the shared data folder. No secret store:
 * the CLI never stores access keys (see docs/design/core-rules.md).
 */
export async function createCliCore(
  openUrl: (url: string) => Promise<void>,
  wrapClients?: (clients: ClientFactory) => ClientFactory,
): Promise<CoreContext> {
  const dataDir = defaultDataDir();
  await mkdir(dataDir, { recursive: true });
  return createCore({
    mode: 'browser',
    version: cliVersion,
    dataDir,
    secrets: createUnavailableSecretStore(),
    openUrl,
    wrapClients,
  });
}
