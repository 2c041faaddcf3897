import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Envelope } from '../../../src/shared/errors';
import type { Item } from '../../../src/shared/dynamo/attribute-value';
import type { OpenedExportView } from '../../../src/shared/ipc/exports';
import type { SqlResultSummary, SqlWindow } from '../../../src/shared/ipc/sql';
import { startBrowserCore, type BrowserCore } from '../../support/browser-core';
import { envelopeOf, errorOf, rawRequest, tokenOf, type RawResponse } from '../../support/browser-http';
import { runToDone } from '../../support/exports/export-stack';
import { generateExport, type GeneratedExport } from '../../support/exports/generate-export';

/**
 * Browser mode's export folder, over real HTTP against the browser-mode server: the page sends
 * each file of the layout to POST /api/upload/export-folder, then exports:openFolder {uploadId}
 * opens the uploaded copy as the desktop's folder is opened. The oracle is the export's own
 * files, decompressed and parsed here.
 */
const ITEMS = 2_500;
let b: BrowserCore;
let source: string;
let generated: GeneratedExport;
let exported: Item[];

interface Receipt {
  uploadId: string;
  name: string;
  bytes: number;
}

function send(
  query: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<RawResponse> {
  return rawRequest({
    port: b.server.port,
    path: `/api/upload/export-folder?${query}`,
    method,
    headers: {
      authorization: `Bearer ${tokenOf(b.server.url)}`,
      'content-type': 'application/octet-stream',
      ...headers,
    },
    body,
  });
}

async function uploadFile(name: string, body: Buffer, uploadId?: string): Promise<Receipt> {
  const query = new URLSearchParams({ name, ...(uploadId ? { upload: uploadId } : {}) });
  const res = await send(query.toString(), body);
  const envelope = envelopeOf(res) as Envelope<Receipt>;
  if (!envelope.ok) throw new Error(`${name}: ${envelope.error.message}`);
  return envelope.value;
}

/** The export's files as the page sends them: each file's name relative to the picked folder. */
async function layoutFiles(rootName: (relative: string) => string): Promise<[string, Buffer][]> {
  const names = [
    'manifest-summary.json',
    'manifest-files.json',
    ...generated.dataFiles.map((f) => `data/${path.basename(f)}`),
  ];
  return Promise.all(
    names.map(
      async (name) =>
        [rootName(name), await readFile(path.join(generated.root, ...name.split('/')))] as [string, Buffer],
    ),
  );
}

async function uploadAll(files: [string, Buffer][]): Promise<string> {
  let uploadId: string | undefined;
  for (const [name, body] of files) uploadId = (await uploadFile(name, body, uploadId)).uploadId;
  if (!uploadId) throw new Error('nothing uploaded');
  return uploadId;
}

async function itemsOf(resultSetId: string, total: number): Promise<Item[]> {
  const rows: Item[] = [];
  for (let offset = 0; offset < total; offset += 1000) {
    const window = await b.call<{ rows: Item[] }>('resultsets:window', { resultSetId, offset, limit: 1000 });
    if (!window.ok) throw new Error(window.error.message);
    rows.push(...window.value.rows);
  }
  return rows;
}

const byKey = (items: Item[]) => items.map((item) => JSON.stringify(item)).sort((a, z) => a.localeCompare(z));

async function openUpload(uploadId: string) {
  const requestId = `open_upload_${Date.now()}_${Math.random().toString(36).slice(2)}`;
  const ended = b.waitFor(requestId);
  const reply = await b.call('exports:openFolder', { connectionId: b.connectionId, requestId, uploadId });
  return { reply, ended };
}

beforeAll(async () => {
  source = await mkdtemp(path.join(tmpdir(), 'upload-folder-'));
  generated = await generateExport(source, ITEMS, 3);
  exported = [];
  for (const file of generated.dataFiles)
    for (const line of gunzipSync(await readFile(file))
      .toString('utf8')
      .split('\n'))
      if (line.trim()) exported.push((JSON.parse(line) as { Item: Item }).Item);
  b = await startBrowserCore(inject('dynamoEndpoint'));
}, 60_000);

afterAll(async () => {
  await b.close();
  await rm(source, { recursive: true, force: true });
});

describe('an export folder uploaded from the page', () => {
  it('opens the uploaded AWSDynamoDB/<id>/ layout with every exported item, and SQL counts them', async () => {
    const files = await layoutFiles((name) => `AWSDynamoDB/${generated.exportId}/${name}`);
    const uploadId = await uploadAll(files);
    const { value } = await runToDone<OpenedExportView>(b, 'exports:openFolder', {
      connectionId: b.connectionId,
      uploadId,
    });
    expect(value).toMatchObject({ name: 'Orders-2026-11-30', table: 'Orders', items: ITEMS });
    expect(byKey(await itemsOf(value.resultSetId, ITEMS))).toEqual(byKey(exported));

    const { value: summary } = await runToDone<SqlResultSummary>(b, 'sql:run', {
      connectionId: b.connectionId,
      sql: `SELECT COUNT(*) AS n FROM export."${value.name}"`,
    });
    expect(summary.fetches).toMatchObject([{ operation: 'ReadExport', consumedCapacity: 0 }]);
    const window = await b.call<SqlWindow>('sql:window', { resultId: summary.resultId, offset: 0, limit: 1 });
    if (!window.ok) throw new Error(window.error.message);
    expect(window.value.rows[0]?.[0]).toEqual({ N: String(exported.length) });
  }, 120_000);

  it('opens the export’s own folder picked at its top, whose manifest keys still name AWSDynamoDB/<id>/', async () => {
    const uploadId = await uploadAll(await layoutFiles((name) => name));
    const { value } = await runToDone<OpenedExportView>(b, 'exports:openFolder', {
      connectionId: b.connectionId,
      uploadId,
    });
    expect(value.items).toBe(ITEMS);
    expect(byKey(await itemsOf(value.resultSetId, ITEMS))).toEqual(byKey(exported));
  }, 120_000);

  it('refuses an upload without the token, from another origin or Host, or as a form-encodable type', async () => {
    const query = 'name=manifest-summary.json';
    const noToken = await rawRequest({
      port: b.server.port,
      path: `/api/upload/export-folder?${query}`,
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: '{}',
    });
    expect(noToken.status).toBe(401);
    expect((await send(query, '{}', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await send(query, '{}', { host: 'evil.example' })).status).toBe(421);
    const plain = await send(query, '{}', { 'content-type': 'text/plain' });
    expect(plain.status).toBe(415);
    expect((await send(query, '{}', {}, 'PUT')).status).toBe(405);
  });

  it.each([
    '../x',
    '../../manifest-summary.json',
    'data/../../x.gz',
    'AWSDynamoDB/../manifest-summary.json',
    'AWSDynamoDB/id/../../../x.gz',
    '/etc/passwd',
    'data\\..\\..\\x.gz',
    'data/.hidden.gz',
    'notes.txt',
    'data/part0.json',
    '',
  ])('refuses the name %j: only names of the export layout, kept under a fresh folder', async (name) => {
    // The data folder's parent is the shared temp folder, where other test processes come and go:
    // look only for what this name would leave there if it escaped its upload folder.
    const traces = new Set([name, ...name.split(/[\\/]/)].filter((part) => part !== '' && part !== '..'));
    const left = async () => (await readdir(path.dirname(b.dataDir))).filter((entry) => traces.has(entry));
    const before = await left();
    const res = await send(new URLSearchParams({ name }).toString(), 'x');
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toMatch(/is not a file of a DynamoDB export/);
    expect(await left()).toEqual(before);
    expect(await readdir(path.join(b.dataDir, 'export-uploads')).catch(() => [])).not.toContain('x');
  });

  it('refuses a forged upload id and a manifest over the cap, with sentences', async () => {
    for (const upload of ['../../etc', 'no-such-upload-0000000000000']) {
      const res = await send(new URLSearchParams({ name: 'manifest-files.json', upload }).toString(), 'x');
      expect(errorOf(res)).toMatchObject({ code: 'FileNotFound' });
      expect(errorOf(res).message).toMatch(/Choose the folder again/);
    }
    const big = await send('name=manifest-files.json', 'x', { 'content-length': String(100 * 1024 * 1024) });
    expect(big.status).toBe(413);
    expect(errorOf(big).message).toMatch(/larger than 64 MB/);
  });

  it('names the data file a folder lacks, and the manifest a folder without one lacks', async () => {
    const files = await layoutFiles((name) => name);
    const missing = files.at(-1)![0];
    const { reply, ended } = await openUpload(await uploadAll(files.slice(0, -1)));
    expect(reply.ok).toBe(true);
    const { last } = await ended;
    expect(last).toMatchObject({ type: 'error', error: { code: 'FileNotFound' } });
    expect(last.type === 'error' && last.error.message).toContain(`has no ${missing}`);
    expect(last.type === 'error' && last.error.message).not.toContain(b.dataDir);

    const dataOnly = await openUpload(await uploadAll(files.slice(2)));
    const { last: noManifest } = await dataOnly.ended;
    expect(noManifest.type === 'error' && noManifest.error.message).toMatch(/no manifest-summary\.json/);
  });

  it('removes an upload on DELETE, after which opening it asks to choose the folder again', async () => {
    const uploadId = await uploadAll((await layoutFiles((name) => name)).slice(0, 2));
    const removed = await send(new URLSearchParams({ upload: uploadId }).toString(), '', {}, 'DELETE');
    expect(envelopeOf(removed)).toEqual({ ok: true, value: { removed: true } });
    const reply = await b.call('exports:openFolder', {
      connectionId: b.connectionId,
      requestId: `open_removed_${Date.now()}`,
      uploadId,
    });
    expect(reply).toMatchObject({ ok: false, error: { code: 'FileNotFound' } });
    expect(!reply.ok && reply.error.message).toMatch(/Choose the folder again/);
  });

  it('refuses openFolder given both a folder handle and an upload, or neither', async () => {
    for (const input of [{}, { folderId: 'f_x', uploadId: 'u_x' }]) {
      const reply = await b.call('exports:openFolder', {
        connectionId: b.connectionId,
        requestId: `open_bad_${Date.now()}`,
        ...input,
      });
      expect(reply).toMatchObject({ ok: false, error: { code: 'InvalidInput' } });
    }
  });
});
