import { copyFile, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createUnavailableSecretStore } from '../../../src/main/aws/secret-store';
import type { CoreContext } from '../../../src/main/core/context';
import { createCore, shutdownCore } from '../../../src/main/create-core';
import { dataFolder } from '../../../src/main/files/data-folder';
import { startCoreServer } from '../../../src/main/server/core-server';
import type { ReplayLimits } from '../../../src/main/server/event-replay';
import type { BrowserServer } from '../../../src/main/server/http-server';
import { e2eRendererDir } from './build-renderer';
import { attachDatabase, type AttachedDatabase } from './shared-dynamo-local';

export interface RunningApp {
  /** The one-time address with the token, as `dynotable serve` prints it. */
  url: string;
  origin: string;
  port: number;
  core: CoreContext;
  dataDir: string;
  close(): Promise<void>;
}

/** The access key of the `e2e-keys` profile, which local servers that check keys are told. */
export const E2E_KEYS_ACCESS_KEY_ID = 'AKIAE2ETESTEXAMPLE00';

/** Saves a writable connection through the `e2e-keys` profile to a local stand-in for DynamoDB. */
export function saveKeysConnection(app: RunningApp, label: string, endpoint: string) {
  return app.core.connections.save({
    label,
    color: '#1f6feb',
    kind: 'profile',
    profile: 'e2e-keys',
    region: 'eu-west-1',
    endpoint,
    readOnly: false,
    isProduction: false,
  });
}

/**
 * A fake-keys profile in a config file of the test's own, so a connection can reach the point of
 * dialling an endpoint without real AWS credentials (browser mode cannot store access keys).
 */
async function writeAwsProfiles(dir: string): Promise<void> {
  const config = path.join(dir, 'aws-config');
  const credentials = path.join(dir, 'aws-credentials');
  // e2e-sso has no cached token, so it reads as an expired SSO session; its OIDC region does not
  // exist, so "Sign in again" fails at once on any machine instead of calling AWS.
  await writeFile(
    config,
    [
      '[profile e2e-keys]',
      'region = eu-west-1',
      '[profile e2e-sso]',
      'sso_session = e2e',
      'sso_account_id = 111111111111',
      'sso_role_name = ReadOnly',
      'region = eu-west-1',
      '[sso-session e2e]',
      'sso_start_url = https://dynotable-e2e.awsapps.com/start',
      'sso_region = e2e-nowhere-1',
      'sso_registration_scopes = sso:account:access',
      '',
    ].join('\n'),
  );
  await writeFile(
    credentials,
    `[e2e-keys]\naws_access_key_id = ${E2E_KEYS_ACCESS_KEY_ID}\naws_secret_access_key = e2eSecretKeyThatIsNotRealAtAll000000000\n`,
  );
  process.env.AWS_CONFIG_FILE = config;
  process.env.AWS_SHARED_CREDENTIALS_FILE = credentials;
}

/**
 * The real browser-mode server in this process: the real core (connections, playground on real
 * Java, tables), the real dispatcher and HTTP transport, serving the e2e renderer build.
 */
export interface StartAppOptions {
  /** Which java the playground runs; a path that does not exist plays a machine without Java. */
  javaCommand?: string;
  /** How much of the event stream a reconnecting page can catch up on (the server's default if unset). */
  replay?: ReplayLimits;
  /**
   * A playground folder whose sample table is already seeded (tests/e2e/global-setup.ts), copied
   * in as this app's own: its first start runs DynamoDB Local on the copy and finds the sample there.
   */
  seededPlayground?: string;
  /**
   * The run's one DynamoDB Local: with a seeded playground and no `javaCommand`, the app's
   * playground uses a database of its own there instead of starting Java (shared-dynamo-local.ts).
   */
  sharedDynamoLocal?: { endpoint: string; dbPath: string };
}

/** The playground settings of the app's core, and what to close after it. */
async function playgroundFor(
  options: StartAppOptions,
  dataDir: string,
): Promise<{ settings?: { javaCommand?: string; attachTo?: string }; attached?: AttachedDatabase }> {
  const seeded = options.seededPlayground;
  if (options.javaCommand) {
    if (seeded) await cp(seeded, path.join(dataDir, 'playground'), { recursive: true });
    return { settings: { javaCommand: options.javaCommand } };
  }
  if (!seeded) return {};
  if (!options.sharedDynamoLocal?.endpoint) {
    await cp(seeded, path.join(dataDir, 'playground'), { recursive: true });
    return {};
  }
  const attached = await attachDatabase(options.sharedDynamoLocal, path.join(seeded, SEEDED_DB));
  // The seed's record, so the playground's start finds the sample written and leaves it alone.
  await mkdir(path.join(dataDir, 'playground'), { recursive: true });
  await copyFile(dataFolder.sampleSeeded(seeded), dataFolder.sampleSeeded(path.join(dataDir, 'playground')));
  return { settings: { attachTo: attached.endpoint }, attached };
}

/** The database file the product's playground (-sharedDb) keeps in its folder. */
const SEEDED_DB = 'shared-local-instance.db';

export async function startApp(options: StartAppOptions = {}): Promise<RunningApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-e2e-'));
  await writeAwsProfiles(dataDir);
  const { settings, attached } = await playgroundFor(options, dataDir);
  const core = createCore({
    mode: 'browser',
    version: '0.0.0-e2e',
    dataDir,
    secrets: createUnavailableSecretStore(),
    openUrl: () => Promise.resolve(),
    playground: settings,
  });
  let server: BrowserServer;
  try {
    server = await startCoreServer(core, { staticDir: e2eRendererDir, port: 0, replay: options.replay });
  } catch (error) {
    await shutdownCore(core);
    await attached?.close();
    throw error;
  }
  return {
    url: server.url,
    origin: server.origin,
    port: server.port,
    core,
    dataDir,
    async close() {
      await server.close();
      await shutdownCore(core);
      await attached?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
