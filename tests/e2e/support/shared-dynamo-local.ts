import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, locateDynamoLocal, waitUntilAnswering } from '../../../src/main/playground/dynamo-local';
import { startKeyProxy } from '../../support/key-proxy';
import { QUICK_JVM_OPTIONS } from './quick-jvm';

/**
 * One DynamoDB Local for the whole e2e run, in place of a JVM per file. It runs without
 * `-sharedDb`, so it keeps one database file per access key and region (`<key>_<region>.db` in
 * its folder), and each file gets a database of its own: `attachDatabase` copies the seeded
 * sample's database in under a fresh key before that key's first request, and puts a small
 * proxy in front that signs every request as that key. Behind the proxy a file sees what the
 * product's `-sharedDb` playground gives: one database whatever key and region a client uses
 * (the app's own, the tests' raw clients, the CLI, the fake S3 and Athena servers), and no
 * other file's tables. DynamoDB Local does not check signatures, so rewriting the key is enough.
 */
export interface SharedDynamoLocal {
  endpoint: string;
  /** The folder holding one database file per key. */
  dbPath: string;
  stop(): Promise<void>;
}

export async function startSharedDynamoLocal(): Promise<SharedDynamoLocal> {
  const dbPath = await mkdtemp(path.join(os.tmpdir(), 'dynotable-e2e-dynamo-'));
  const { cwd, jar, nativeLibs } = locateDynamoLocal();
  const port = await freePort();
  const args = [`-Djava.library.path=${nativeLibs}`, '-jar', jar, '-dbPath', dbPath, '-port', String(port)];
  const child = spawn('java', [...args, '-disableTelemetry'], {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    // The client compiler and serial collector even for this JVM, which lives for the whole run:
    // on five files it used 4 s less CPU than with C2 (docs/PERFORMANCE.md, 2026-12-07).
    env: {
      ...process.env,
      JAVA_TOOL_OPTIONS: process.env.JAVA_TOOL_OPTIONS ?? QUICK_JVM_OPTIONS,
      DDB_LOCAL_TELEMETRY: '0',
    },
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-4000)));
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    await ended(child);
    await rm(dbPath, { recursive: true, force: true });
  };
  try {
    const exited = (): Error | undefined =>
      child.exitCode === null && child.signalCode === null
        ? undefined
        : new Error(`The e2e run's DynamoDB Local stopped while starting: ${output}`);
    await waitUntilAnswering(endpoint, exited, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, dbPath, stop };
}

function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface AttachedDatabase {
  /** The proxy's address: give it to the app's playground and to every client of the file. */
  endpoint: string;
  close(): Promise<void>;
}

/**
 * A database of the file's own on the shared DynamoDB Local, starting as a copy of `seededDb`
 * (the sample table, seeded once by the global setup), behind a proxy on a port of its own.
 */
export async function attachDatabase(
  shared: { endpoint: string; dbPath: string },
  seededDb: string,
): Promise<AttachedDatabase> {
  const proxy = await startKeyProxy(shared.endpoint, 'e2e');
  // Before the key's first request: DynamoDB Local opens `<key>_<region>.db` then.
  const dbFile = path.join(shared.dbPath, `${proxy.key}_${proxy.region}.db`);
  await copyFile(seededDb, dbFile).catch(async (error: unknown) => {
    await proxy.close();
    throw error;
  });
  return {
    endpoint: proxy.endpoint,
    async close() {
      await proxy.close();
      // DynamoDB Local keeps the file open; on Linux and macOS removing it is safe, and no
      // request names this key again.
      await rm(dbFile, { force: true });
    },
  };
}
