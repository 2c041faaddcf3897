import type { AdHocConnections } from './aws/ad-hoc-client';
import { createClientFactory } from './aws/client-factory';
import { createConnectionStore } from './aws/connection-store';
import { createMfaPrompts } from './aws/mfa-prompts';
import { createProfileCredentials } from './aws/profile-credentials';
import { startSsoSignIn } from './aws/sso-sign-in';
import { FileChooser, type FileDialog } from './files/file-chooser';
import { createPlayground } from './playground/playground';
import { createResultSetStore } from './resultsets/store';
import { isAllowedExternalUrl } from './security/external-links';
import type { ClientFactory, CoreContext, SecretStore } from './core/context';
import { removeLeftoverTempFiles } from './core/data-files';
import { EventBus } from './core/events';
import { OperationRegistry } from './core/operations';
import { CoreServices } from './core/services';
import { copyJob } from './dynamo/copy/copy-checkpoint';
import { exportJob } from './dynamo/transfer/table-export-store';
import { jobStore } from './jobs/job-store';
import { fixJob, preflightJob } from './migration/store';
import { schemaJob } from './schema/schema-store';

/** The job kinds an earlier release kept elsewhere in the data folder: converted once, at start. */
const LEGACY_JOB_KINDS = [copyJob, exportJob, preflightJob, schemaJob, fixJob] as const;

export interface CoreOptions {
  mode: 'desktop' | 'browser';
  version: string;
  dataDir: string;
  secrets: SecretStore;
  /** How links leave the app: shell.openExternal in Electron, printed/opened by the browser otherwise. */
  openUrl: (url: string) => Promise<void>;
  /** The system's file dialogs (desktop only); without one, files:choose says to upload or download. */
  fileDialog?: FileDialog;
  /** Serves some connections with clients made elsewhere (the CLI's --profile/--endpoint client). */
  wrapClients?: (clients: ClientFactory) => ClientFactory;
  /** Connections a CLI command names by flags: in memory only, served like saved ones. */
  adHoc?: AdHocConnections;
  /** Overrides for tests: where DynamoDB Local keeps its files, which java to run, or one already running to use. */
  playground?: { dataDir?: string; javaCommand?: string; port?: number; attachTo?: string };
}

/** Builds the core that Electron IPC, browser mode and the CLI all share. */
export function createCore(options: CoreOptions): CoreContext {
  // What a killed process (kill -9, a power cut) left half-written; never in the way of starting.
  void removeLeftoverTempFiles(options.dataDir).catch(() => undefined);
  const events = new EventBus();
  const operations = new OperationRegistry(events);
  const playground = createPlayground({
    dataDir: options.playground?.dataDir ?? `${options.dataDir}/playground`,
    javaCommand: options.playground?.javaCommand,
    port: options.playground?.port,
    attachTo: options.playground?.attachTo,
  });
  const saved = createConnectionStore(options.dataDir, options.secrets);
  const connections = options.adHoc ? options.adHoc.wrapConnections(saved) : saved;
  const mfa = createMfaPrompts(operations, events);
  const profileCredentials = createProfileCredentials(mfa);
  const factory = createClientFactory({
    connections,
    secrets: options.secrets,
    playground,
    profileCredentials,
  });
  const withAdHoc = options.adHoc ? options.adHoc.wrapClients(factory) : factory;
  const clients = options.wrapClients ? options.wrapClients(withAdHoc) : withAdHoc;
  const ctx: CoreContext = {
    mode: options.mode,
    version: options.version,
    platform: process.platform,
    dataDir: options.dataDir,
    secrets: options.secrets,
    connections,
    clients,
    profileCredentials,
    mfa,
    playground,
    resultSets: createResultSetStore(),
    operations,
    events,
    services: new CoreServices(() => ctx),
    files: new FileChooser(options.fileDialog),
    async openExternal(url) {
      if (!isAllowedExternalUrl(url)) return false;
      await options.openUrl(url);
      return true;
    },
    async signIn(connectionId, requestId) {
      const connection = await connections.get(connectionId);
      operations.start(requestId, (run) => startSsoSignIn(connection, run, ctx));
    },
  };
  // The job folders of an earlier release become job-store records now, not when first used;
  // each use of a kind waits for its conversion. What does not read is set aside with a sentence.
  void jobStore(ctx).convertLegacy(LEGACY_JOB_KINDS);
  return ctx;
}

/** The one orderly shutdown: running work first, then the services, clients, workers, Java. */
export async function shutdownCore(ctx: CoreContext): Promise<void> {
  ctx.operations.cancelAll();
  await ctx.services.close();
  ctx.clients.destroy();
  await ctx.resultSets.close();
  await ctx.playground.stop();
}
