import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createUnavailableSecretStore } from '../../src/main/aws/secret-store';
import type { CoreContext } from '../../src/main/core/context';
import { createCore, shutdownCore } from '../../src/main/create-core';
import type { FileDialog } from '../../src/main/files/file-chooser';
import { startCoreServer } from '../../src/main/server/core-server';
import type { BrowserServer } from '../../src/main/server/http-server';
import type { Envelope, OperationEvent } from '../../src/shared/ipc';
import { envelopeOf, rawRequest, tokenOf, type RawResponse } from './browser-http';

export interface BrowserCore {
  core: CoreContext;
  server: BrowserServer;
  dataDir: string;
  /** A default-chain connection to DynamoDB Local, saved through the API. */
  connectionId: string;
  /** POST /api/<channel> with a JSON body, as the page sends it. */
  call<T = unknown>(channel: string, payload: unknown): Promise<Envelope<T>>;
  /** The same, with the body sent exactly as given. */
  post(channel: string, body: string): Promise<RawResponse>;
  /** The terminal event of an operation, with every event before it. */
  waitFor(requestId: string): Promise<{ events: OperationEvent[]; last: OperationEvent }>;
  /** Scans `table` (up to 1,000 items) through query:start and returns the finished result set. */
  scan(table: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * The real core in browser mode behind the real HTTP server (the wiring `dynotable serve`
 * uses), in this process, with its own data folder. DynamoDB Local accepts any keys; the
 * default credential chain finds them in the environment.
 */
/** The connection every in-process browser core and `dynotable serve` test saves first. */
export function localConnection(endpoint: string) {
  return {
    label: 'DynamoDB Local',
    color: '#1f6feb',
    kind: 'default-chain',
    region: 'us-east-1',
    endpoint,
    readOnly: false,
    isProduction: false,
  } as const;
}

let scans = 0;

export async function startBrowserCore(
  endpoint: string,
  /** Stands in for the desktop's system dialogs behind files:choose (browser mode has none). */
  options: { fileDialog?: FileDialog } = {},
): Promise<BrowserCore> {
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-browser-core-'));
  const staticDir = path.join(dataDir, 'renderer');
  await mkdir(staticDir);
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>DynoTable</title>');
  const core = createCore({
    mode: 'browser',
    version: '0.0.0-test',
    dataDir,
    secrets: createUnavailableSecretStore(),
    openUrl: () => Promise.resolve(),
    ...(options.fileDialog ? { fileDialog: options.fileDialog } : {}),
  });
  const server = await startCoreServer(core, { staticDir, port: 0 });
  const headers = { authorization: `Bearer ${tokenOf(server.url)}`, 'content-type': 'application/json' };
  const post = (channel: string, body: string) =>
    rawRequest({ port: server.port, path: `/api/${channel}`, method: 'POST', headers, body });
  const call = async <T>(channel: string, payload: unknown) =>
    envelopeOf(await post(channel, JSON.stringify(payload))) as Envelope<T>;
  const saved = await call<{ id: string }>('connections:save', { connection: localConnection(endpoint) });
  if (!saved.ok) throw new Error(saved.error.message);
  const waitFor: BrowserCore['waitFor'] = (requestId) =>
    new Promise((resolve) => {
      const seen: OperationEvent[] = [];
      const stop = core.events.subscribe((event) => {
        if (event.requestId !== requestId) return;
        seen.push(event);
        if (event.type === 'done' || event.type === 'cancelled' || event.type === 'error') {
          stop();
          resolve({ events: seen, last: event });
        }
      });
    });
  return {
    core,
    server,
    dataDir,
    connectionId: saved.value.id,
    call,
    post,
    waitFor,
    async scan(table) {
      const requestId = `scan_${++scans}_${Date.now()}`;
      const done = waitFor(requestId);
      const started = await call<{ resultSetId: string }>('query:start', {
        connectionId: saved.value.id,
        table,
        spec: { mode: 'scan' },
        maxItems: 1000,
        requestId,
      });
      if (!started.ok) throw new Error(started.error.message);
      const { last } = await done;
      if (last.type !== 'done') throw new Error(`The scan of ${table} ended with ${last.type}.`);
      return started.value.resultSetId;
    },
    async close() {
      await server.close();
      await shutdownCore(core);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
