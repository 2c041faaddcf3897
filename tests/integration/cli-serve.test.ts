import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';
import { envelopeOf, openEvents, rawRequest, tokenOf } from '../support/browser-http';
import { localConnection } from '../support/browser-core';

const root = path.resolve(__dirname, '..', '..');
// The run's CLI bundle (global-setup.ts), built as `npm run build:cli` builds it.
const bundle = inject('cliBundle');

interface Served {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `dynotable serve --port 0` and resolves once it printed its address. */
function serve(command: string, args: string[], dataDir: string): Promise<Served> {
  const child = spawn(command, [...args, 'serve', '--port', '0'], {
    cwd: root,
    env: {
      ...process.env,
      DYNOTABLE_DATA_DIR: dataDir,
      // The default credential chain of a "default-chain" connection; DynamoDB Local accepts any keys.
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_REGION: 'us-east-1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(out);
      if (match?.[1]) resolve({ child, url: match[1], stdout: () => out, stderr: () => err, exited });
    });
    void exited.then((code) =>
      reject(new Error(`serve exited with ${code} before printing its address: ${err}`)),
    );
  });
}

async function stop(served: Served): Promise<number | null> {
  served.child.kill('SIGTERM');
  return served.exited;
}

const dataDirs: string[] = [];
async function freshDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-cli-'));
  dataDirs.push(dir);
  return dir;
}

afterAll(async () => {
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
});

describe('dynotable serve', () => {
  it('serves the real core from source: prints its address, answers with the cookie, stops cleanly on SIGTERM', async () => {
    // One process: node with tsx's loader, not the tsx binary, whose parent relays SIGTERM and kills
    // its child when the child takes over 30 ms to acknowledge it (exit 143 on a loaded machine).
    const served = await serve(
      process.execPath,
      ['--import', 'tsx', 'src/cli/index.ts'],
      await freshDataDir(),
    );
    const address = new URL(served.url);
    const port = Number(address.port);
    const first = await rawRequest({ port, path: `${address.pathname}${address.search}` });
    expect(first.status).toBe(302);
    const cookie = first.headers['set-cookie']?.[0]?.split(';')[0] ?? '';
    expect(cookie).toMatch(/^dynotable_token=/);

    const info = await rawRequest({
      port,
      path: '/api/app:info',
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(envelopeOf(info)).toMatchObject({
      ok: true,
      value: { mode: 'browser', encryptionAvailable: false },
    });

    expect(await stop(served)).toBe(0);
    expect(served.stdout()).toContain('Stopping DynoTable (SIGTERM)');
    expect(served.stderr()).not.toContain(tokenOf(served.url));
  });

  it('lists and scans DynamoDB Local through the built bundle and its result-set worker, the way a script would', async () => {
    const endpoint = inject('dynamoEndpoint');
    const client = localClient(endpoint);
    const table = await createTable(client, uniqueTableName('cli'), { partitionKey: ['PK', 'S'] });
    for (const id of ['u1', 'u2', 'u3']) {
      await client.send(
        new PutItemCommand({
          TableName: table,
          Item: { PK: { S: `USER#${id}` }, n: { N: '12345678901234567890.25' } },
        }),
      );
    }
    client.destroy();

    const served = await serve(process.execPath, [bundle], await freshDataDir());
    const port = Number(new URL(served.url).port);
    const headers = { authorization: `Bearer ${tokenOf(served.url)}`, 'content-type': 'application/json' };
    const call = async (channel: string, body: unknown) =>
      envelopeOf(
        await rawRequest({
          port,
          path: `/api/${channel}`,
          method: 'POST',
          headers,
          body: JSON.stringify(body),
        }),
      );

    const saved = await call('connections:save', { connection: localConnection(endpoint) });
    if (!saved.ok) throw new Error(saved.error.message);
    const connectionId = (saved.value as { id: string }).id;

    const tables = await call('tables:list', { connectionId });
    if (!tables.ok) throw new Error(tables.error.message);
    expect((tables.value as { name: string }[]).map((t) => t.name)).toContain(table);

    // A scan runs as an operation: its rows land in the worker-thread result set, its end on the stream.
    const stream = await openEvents(port, { authorization: headers.authorization });
    const requestId = 'cli_scan_0001';
    const started = await call('query:start', { connectionId, table, spec: { mode: 'scan' }, requestId });
    if (!started.ok) throw new Error(started.error.message);
    let last: { type?: string; requestId?: string } = {};
    while (!(last.requestId === requestId && ['done', 'error', 'cancelled'].includes(last.type ?? ''))) {
      last = (await stream.next()) as typeof last;
    }
    stream.close();
    expect(last).toMatchObject({ type: 'done', progress: { items: 3 } });
    const { resultSetId } = started.value as { resultSetId: string };
    const rows = await call('resultsets:window', { resultSetId, offset: 0, limit: 10 });
    expect(rows).toMatchObject({ ok: true, value: { total: 3 } });
    if (rows.ok)
      expect((rows.value as { rows: unknown[] }).rows).toContainEqual({
        PK: { S: 'USER#u2' },
        n: { N: '12345678901234567890.25' },
      });

    const refused = await rawRequest({
      port,
      path: '/api/tables:list',
      method: 'POST',
      headers: { ...headers, host: `evil.example:${port}` },
      body: '{}',
    });
    expect(refused.status).toBe(421);

    expect(await stop(served)).toBe(0);
  });

  it('explains a wrong option in one line and exits 2', () => {
    const result = spawnSync(process.execPath, [bundle, 'serve', '--port', 'eighty'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'dynotable serve: --port wants a number from 0 to 65535, not "eighty".',
    ]);
  });

  it('lists its commands with --help', () => {
    const result = spawnSync(process.execPath, [bundle, '--help'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: dynotable <command>');
    expect(result.stdout).toMatch(/^\s+serve\s+Serve the DynoTable UI/m);
  });
});
