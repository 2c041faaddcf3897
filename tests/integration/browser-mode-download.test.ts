import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CoreContext } from '../../src/main/core/context';
import { EventBus } from '../../src/main/core/events';
import { exportDownloadRoute } from '../../src/main/export-rows/export-download';
import { resultSetRows } from '../../src/main/export-rows/rows-source';
import { createDispatcher, type HandlerTable } from '../../src/main/ipc/dispatcher';
import { createResultSetStore } from '../../src/main/resultsets/store';
import { startBrowserServer, type BrowserServer } from '../../src/main/server/http-server';
import { rawRequest, tokenOf } from '../support/browser-http';

const store = createResultSetStore();
let server: BrowserServer;
let root: string;
let resultSetId: string;
let dataDir: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'dynotable-download-'));
  await writeFile(path.join(root, 'index.html'), '<!doctype html><title>DynoTable</title>');
  dataDir = path.join(root, 'data');
  await mkdir(path.join(dataDir, 'exports'), { recursive: true });
  await writeFile(path.join(dataDir, 'exports', 'whole.csv'), 'pk\r\nS\r\nORDER#1\r\n');
  await writeFile(path.join(dataDir, 'secret.txt'), 'not for the page');
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
    exportDownload: exportDownloadRoute((ids) => resultSetRows(store, ids.resultSetId ?? ''), dataDir),
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

const savedPath = (name: string) => `/api/download/export?${new URLSearchParams({ saved: name }).toString()}`;

it('downloads an export saved in the export folder (a whole-table export), byte for byte', async () => {
  const res = await rawRequest({
    port: server.port,
    path: savedPath('whole.csv'),
    method: 'GET',
    headers: { authorization: `Bearer ${tokenOf(server.url)}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers['content-disposition']).toBe('attachment; filename="whole.csv"');
  expect(res.body).toBe('pk\r\nS\r\nORDER#1\r\n');
});

it.each(['../secret.txt', path.join(os.tmpdir(), 'x'), 'missing.csv'])(
  'gives nothing outside the export folder or missing (%s), with a sentence',
  async (name) => {
    const res = await rawRequest({
      port: server.port,
      path: savedPath(name),
      method: 'GET',
      headers: { authorization: `Bearer ${tokenOf(server.url)}` },
    });
    expect(res.status).toBe(400);
    const body = JSON.parse(res.body) as { ok: boolean; error: { code: string; message: string } };
    expect(body.error.code).toBe(name === 'missing.csv' ? 'FileNotFound' : 'PathNotAllowed');
    expect(res.body).not.toContain('not for the page');
  },
);
