import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, locateDynamoLocal, waitUntilAnswering } from '../../../src/main/playground/dynamo-local';
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

/** DynamoDB Local's default region, under which the sample's copy is named. */
const REGION = 'us-east-1';
// `Credential=<key>/<date>/<region>/<service>/aws4_request` in a SigV4 Authorization header.
const credentialScope = /Credential=[^/]*\/(\d{8})\/[^/]*\//;

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
  // Letters and digits only: DynamoDB Local refuses anything else in a key id.
  const key = `e2e${randomBytes(8).toString('hex')}`;
  const dbFile = path.join(shared.dbPath, `${key}_${REGION}.db`);
  await copyFile(seededDb, dbFile);
  const upstream = new URL(shared.endpoint);
  const agent = new Agent({ keepAlive: true });
  const signedAs = (headers: IncomingHttpHeaders): IncomingHttpHeaders => {
    const authorization = headers.authorization;
    if (!authorization) return headers;
    return {
      ...headers,
      authorization: authorization.replace(credentialScope, `Credential=${key}/$1/${REGION}/`),
    };
  };
  const server = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: signedAs(incoming.headers),
        agent,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    // The connection drops, as it would if DynamoDB Local itself had gone away.
    forwarded.once('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
      // DynamoDB Local keeps the file open; on Linux and macOS removing it is safe, and no
      // request names this key again.
      await rm(dbFile, { force: true });
    },
  };
}
