import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CoreContext } from '../../src/main/core/context';
import { EventBus } from '../../src/main/core/events';
import { streamExportDownload } from '../../src/main/dynamo/transfer/export-download';
import { createDispatcher, type HandlerTable } from '../../src/main/ipc/dispatcher';
import { createResultSetStore } from '../../src/main/resultsets/store';
import { startBrowserServer, type BrowserServer } from '../../src/main/server/http-server';
import { rawRequest, tokenOf } from '../support/browser-http';

const store = createResultSetStore();
let server: BrowserServer;
let root: string;
let resultSetId: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'dynotable-download-'));
  await writeFile(path.join(root, 'index.html'), '<!doctype html><title>DynoTable</title>');
  resultSetId = await store.create({ connectionId: 'local', table: 'Orders', keyAttributes: ['pk'] });
  await store.append(resultSetId, [
    { pk: { S: 'ORDER#1' }, total: { N: '12345678901234567890123456789012345678' } },
    { pk: { S: 'ORDER#2' }, tags: { SS: ['a', 'b'] } },
  ]);
  server = await startBrowserServer({
    dispatch: createDispatcher({} as HandlerTable, {} as CoreContext),
    events: new EventBus(),
    staticDir: root,
    port: 0,
    exportDownload: (params, response) => streamExportDownload(store, params, response),
  });
});

afterAll(async () => {
  await server.close();
  await store.close();
  await rm(root, { recursive: true, force: true });
});

const downloadPath = (format: string, id = resultSetId) =>
  `/api/download/export?${new URLSearchParams({ resultSetId: id, format, table: 'Orders' }).toString()}`;

it('streams a result set as a file download, every digit and set intact', async () => {
  const res = await rawRequest({
    port: server.port,
    path: downloadPath('jsonl'),
    method: 'GET',
    headers: { authorization: `Bearer ${tokenOf(server.url)}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers['content-disposition']).toMatch(/attachment; filename="Orders.*\.jsonl?"/);
  const lines = res.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { Item: Record<string, unknown> });
  expect(lines).toEqual([
    { Item: { pk: { S: 'ORDER#1' }, total: { N: '12345678901234567890123456789012345678' } } },
    { Item: { pk: { S: 'ORDER#2' }, tags: { SS: ['a', 'b'] } } },
  ]);
});

it('refuses a download without the token', async () => {
  const res = await rawRequest({ port: server.port, path: downloadPath('csv'), method: 'GET' });
  expect(res.status).toBe(401);
});

it('answers an unknown result set with a sentence, not a broken file', async () => {
  const res = await rawRequest({
    port: server.port,
    path: downloadPath('csv', 'no-such-result-set'),
    method: 'GET',
    headers: { authorization: `Bearer ${tokenOf(server.url)}` },
  });
  expect(res.status).toBe(400);
  const body = JSON.parse(res.body) as { ok: boolean; error: { code: string; message: string } };
  expect(body.ok).toBe(false);
  expect(body.error.code).toBe('NotFound');
});
