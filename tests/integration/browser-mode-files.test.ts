import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { appendFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Envelope } from '../../src/shared/errors';
import type { StoppedJob } from '../../src/shared/ipc/jobs';
import type { ExportReport, ImportReport } from '../../src/shared/ipc/transfer';
import { uploadFolder } from '../../src/main/dynamo/transfer/transfer-folders';
import { startBrowserCore, type BrowserCore } from '../support/browser-core';
import { envelopeOf, errorOf, rawRequest, tokenOf } from '../support/browser-http';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems } from '../support/dynamo-tables';

// Browser mode's files: imports arrive as uploads from the page, exports leave as downloads or
// land in the export folder, and no path a request names reaches outside DynoTable's folders.

let b: BrowserCore;
let table: string;
let exportsDir: string;
let outside: string;
let resultSetId: string;
let counter = 0;
const client = () => localClient(inject('dynamoEndpoint'));
const requestId = (prefix: string) => `${prefix}_${++counter}_${Date.now()}`;
const SECRET = 'top-secret-line-of-a-file-outside';

async function operation<T>(channel: string, payload: Record<string, unknown>): Promise<T> {
  const id = requestId(channel.replace(':', '_'));
  const done = b.waitFor(id);
  const started = await b.call(channel, { ...payload, requestId: id });
  if (!started.ok) throw new Error(`${started.error.code}: ${started.error.message}`);
  const { last } = await done;
  if (last.type !== 'done') throw new Error(`ended with ${JSON.stringify(last)}`);
  return last.value as T;
}

function upload(body: string | Buffer, headers: Record<string, string> = {}) {
  return rawRequest({
    port: b.server.port,
    path: '/api/upload/import',
    method: 'POST',
    headers: {
      authorization: `Bearer ${tokenOf(b.server.url)}`,
      'content-type': 'application/octet-stream',
      ...headers,
    },
    body,
  });
}

beforeAll(async () => {
  b = await startBrowserCore(inject('dynamoEndpoint'));
  const c = client();
  table = await createTable(c, uniqueTableName('files'), { partitionKey: ['PK', 'S'] });
  await putItems(c, table, [{ PK: { S: 'seed#1' }, n: { N: '1' } }]);
  c.destroy();
  exportsDir = path.join(b.dataDir, 'exports');
  await mkdir(exportsDir, { recursive: true });
  outside = await mkdtemp(path.join(os.tmpdir(), 'dynotable-outside-'));
  await writeFile(path.join(outside, 'secret.jsonl'), `${SECRET}\n`);
  resultSetId = await b.scan(table);
});

afterAll(async () => {
  await b.close();
  await rm(outside, { recursive: true, force: true });
});

describe('imports as uploads', () => {
  it('takes the file’s bytes from the page, then imports them by uploadId, every digit intact', async () => {
    const lines = [
      { Item: { PK: { S: 'up#1' }, big: { N: '12345678901234567890123456789012345678' } } },
      { Item: { PK: { S: 'up#2' }, tags: { SS: ['a', 'b'] }, bin: { B: 'AAEC/w==' } } },
    ];
    const res = await upload(lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(res.status).toBe(200);
    const { uploadId, bytes } = (
      envelopeOf(res) as Envelope<{ uploadId: string; bytes: number }> & {
        ok: true;
      }
    ).value;
    expect(bytes).toBeGreaterThan(100);
    const source = { uploadId };
    const base = { connectionId: b.connectionId, table, format: 'jsonl', source };
    const dry = await operation<ImportReport>('transfer:import', { ...base, dryRun: true });
    expect(dry).toMatchObject({ total: 2, written: 2, invalid: 0 });
    const report = await operation<ImportReport>('transfer:import', { ...base, dryRun: false });
    expect(report).toMatchObject({ total: 2, written: 2, invalid: 0, failed: 0 });
    const c = client();
    const stored = await c.send(new GetItemCommand({ TableName: table, Key: { PK: { S: 'up#1' } } }));
    expect(stored.Item?.big).toEqual({ N: '12345678901234567890123456789012345678' });
    const second = await c.send(new GetItemCommand({ TableName: table, Key: { PK: { S: 'up#2' } } }));
    expect(second.Item?.bin?.B).toEqual(Uint8Array.from([0, 1, 2, 255]));
    c.destroy();
  });

  it('lists a stopped import of an upload under the file’s own name, and Resume still refuses the file once changed', async () => {
    const c = client();
    const target = await createTable(c, uniqueTableName('named'), { partitionKey: ['PK', 'S'] });
    c.destroy();
    const lines = Array.from({ length: 20_000 }, (_, i) =>
      JSON.stringify({ Item: { PK: { S: `named#${i}` } } }),
    );
    const res = await upload(lines.join('\n'));
    const { uploadId } = (envelopeOf(res) as Envelope<{ uploadId: string }> & { ok: true }).value;
    const id = requestId('named_import');
    const done = b.waitFor(id);
    // Cancelled once it has written a chunk, as a user presses Cancel on a long import.
    const progressed = new Promise<void>((resolve) => {
      const stop = b.core.events.subscribe((event) => {
        if (event.requestId !== id || event.type !== 'progress') return;
        stop();
        resolve();
      });
    });
    const started = await b.call('transfer:import', {
      connectionId: b.connectionId,
      table: target,
      requestId: id,
      format: 'jsonl',
      source: { uploadId, name: 'orders May.jsonl' },
      dryRun: false,
    });
    expect(started.ok).toBe(true);
    await progressed;
    await b.call('ops:cancel', { requestId: id });
    expect((await done).last.type).toBe('cancelled');

    const listed = await b.call<{ jobs: StoppedJob[] }>('jobs:stopped', { connectionId: b.connectionId });
    const job = listed.ok ? listed.value.jobs.find((j) => j.table === target) : undefined;
    // The name the user chose, not the server's id for the upload (which they never saw).
    expect(job?.sentence).toMatch(/^The import of orders May\.jsonl into /);
    expect(job?.sentence).not.toContain(uploadId);
    expect(job?.canResume).toBe(true);

    // The upload changed on the server since: Resume refuses it with a sentence naming the file.
    await appendFile(path.join(uploadFolder(b.dataDir), uploadId), '\n{"Item":{"PK":{"S":"late"}}}');
    const resumed = await b.call('transfer:resumeImport', {
      connectionId: b.connectionId,
      table: target,
      requestId: requestId('named_resume'),
      jobId: job?.id,
    });
    expect(resumed).toMatchObject({
      ok: false,
      error: {
        code: 'FileChanged',
        message: expect.stringMatching(/^orders May\.jsonl changed since the import stopped/) as unknown,
      },
    });
    await b.call('jobs:forget', { kind: 'import', id: job?.id });
  });

  it('refuses an upload without the token, from another origin, or as a form-encodable type', async () => {
    const noToken = await rawRequest({
      port: b.server.port,
      path: '/api/upload/import',
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'x',
    });
    expect(noToken.status).toBe(401);
    expect((await upload('x', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await upload('x', { host: 'evil.example' })).status).toBe(421);
    const plain = await upload('x', { 'content-type': 'text/plain' });
    expect(plain.status).toBe(415);
    expect(errorOf(plain).message).toMatch(/application\/octet-stream/);
  });

  it('refuses a file over the cap with a sentence that says the limit and what to do', async () => {
    const res = await upload('x', { 'content-length': String(300 * 1024 * 1024) });
    expect(res.status).toBe(413);
    const error = errorOf(res);
    expect(error.code).toBe('InvalidInput');
    expect(error.message).toMatch(/larger than 256 MB.*Split it/);
  });

  it.each(['no-such-upload-id-000000000', '../../../../etc/passwd', '..%2F..%2Fetc%2Fpasswd'])(
    'an unknown or forged uploadId %s is a sentence, not a read',
    async (uploadId) => {
      const res = await b.call('transfer:import', {
        connectionId: b.connectionId,
        table,
        requestId: requestId('import'),
        format: 'jsonl',
        source: { uploadId },
        dryRun: true,
      });
      expect(res.ok).toBe(false);
      if (res.ok) return;
      expect(res.error.code).toBe('FileNotFound');
      expect(res.error.message).toContain('Choose the file again');
    },
  );
});

describe('server paths stay inside DynoTable’s folders', () => {
  const importPath = (p: string) =>
    b.call('transfer:import', {
      connectionId: b.connectionId,
      table,
      requestId: requestId('import'),
      format: 'jsonl',
      source: { path: p },
      dryRun: true,
    });
  const exportPath = (p: string, overwrite = false) =>
    b.call('transfer:export', {
      requestId: requestId('export'),
      resultSetId,
      format: 'jsonl',
      path: p,
      overwrite,
    });

  it.each([
    ['an absolute path elsewhere', () => path.join(outside, 'secret.jsonl')],
    ['/etc/passwd', () => '/etc/passwd'],
    ['.. out of the export folder', () => `../../${path.basename(outside)}/secret.jsonl`],
    [
      '.. inside an absolute path',
      () =>
        path
          .join(exportsDir, '..', '..', path.basename(outside), 'secret.jsonl')
          .replace(path.join(exportsDir, '..', '..'), `${exportsDir}/../..`),
    ],
    ['a symbolic link to a file outside', () => path.join(exportsDir, 'link-to-secret.jsonl')],
    ['a file under a linked folder', () => path.join(exportsDir, 'linked-folder', 'secret.jsonl')],
  ])('import refuses %s with a sentence naming the allowed folder', async (_what, given) => {
    await symlink(path.join(outside, 'secret.jsonl'), path.join(exportsDir, 'link-to-secret.jsonl')).catch(
      () => undefined,
    );
    await symlink(outside, path.join(exportsDir, 'linked-folder')).catch(() => undefined);
    const res = await importPath(given());
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.error.code).toBe('PathNotAllowed');
    expect(res.error.message).toContain(b.dataDir);
    expect(res.error.message).toContain(given());
    expect(res.error.message).toMatch(/Upload the file/);
    expect(res.error.message).not.toContain(SECRET);
  });

  it('import of an encoded separator stays a name inside the folder, and a NUL is refused', async () => {
    const encoded = await importPath('..%2F..%2Fsecret.jsonl');
    expect(encoded.ok ? 'started' : encoded.error.code).toBe('FileNotFound');
    const nul = await importPath(`ok.jsonl\0/../../etc/passwd`);
    expect(nul.ok ? 'started' : nul.error.code).toBe('InvalidInput');
  });

  it('imports a file inside the data folder, by a name relative to the export folder', async () => {
    await writeFile(path.join(exportsDir, 'inside.jsonl'), JSON.stringify({ Item: { PK: { S: 'in#1' } } }));
    const report = await operation<ImportReport>('transfer:import', {
      connectionId: b.connectionId,
      table,
      format: 'jsonl',
      source: { path: 'inside.jsonl' },
      dryRun: true,
    });
    expect(report).toMatchObject({ total: 1, written: 1 });
  });

  it.each([
    ['an absolute path elsewhere', () => path.join(outside, 'out.jsonl')],
    ['.. out of the export folder', () => '../out.jsonl'],
    ['the data folder itself', () => path.join(b.dataDir, 'connections.json')],
    ['a folder linked to elsewhere', () => path.join(exportsDir, 'linked-folder', 'out.jsonl')],
    ['a file linked to elsewhere', () => path.join(exportsDir, 'link-to-secret.jsonl')],
  ])('export refuses %s and writes nothing there', async (_what, given) => {
    await symlink(path.join(outside, 'secret.jsonl'), path.join(exportsDir, 'link-to-secret.jsonl')).catch(
      () => undefined,
    );
    await symlink(outside, path.join(exportsDir, 'linked-folder')).catch(() => undefined);
    const res = await exportPath(given(), true);
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.error.code).toBe('PathNotAllowed');
    expect(res.error.message).toContain(exportsDir);
    expect(res.error.message).toMatch(/Download/);
    expect(await readFile(path.join(outside, 'secret.jsonl'), 'utf8')).toBe(`${SECRET}\n`);
  });

  it('exports by a bare name into the export folder, and never through a planted .part link', async () => {
    await symlink(path.join(outside, 'secret.jsonl'), path.join(exportsDir, 'planted.jsonl.part'));
    const report = await operation<ExportReport>('transfer:export', {
      resultSetId,
      format: 'jsonl',
      path: 'planted.jsonl',
    });
    expect(report.path).toBe(
      path.join(await import('node:fs/promises').then((fs) => fs.realpath(exportsDir)), 'planted.jsonl'),
    );
    expect(await readFile(report.path, 'utf8')).toContain('seed#1');
    expect(await readFile(path.join(outside, 'secret.jsonl'), 'utf8')).toBe(`${SECRET}\n`);
  });
});
