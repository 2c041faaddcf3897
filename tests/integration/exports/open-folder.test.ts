import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import type { AttributeValue } from '../../../src/shared/dynamo/attribute-value';
import type { FileDialog } from '../../../src/main/files/file-chooser';
import type { FileChoice } from '../../../src/shared/ipc/transfer';
import type { OpenedExportView } from '../../../src/shared/ipc/exports';
import type { SqlResultSummary, SqlWindow } from '../../../src/shared/ipc/sql';
import { startBrowserCore, type BrowserCore } from '../../support/browser-core';
import { comparable } from '../../support/duckdb-oracle';
import { runToDone } from '../../support/exports/export-stack';
import { generateExport, type GeneratedExport } from '../../support/exports/generate-export';

/**
 * A local export folder opened through the dispatcher as the desktop window does it: files:choose
 * shows the folder dialog (a stand-in answering as a user would: Electron is not here), main keeps
 * the path, exports:openFolder opens it by handle. The folder holds a 1,000,000-item export in the
 * documented layout, and a GROUP BY over it through sql:run agrees with DuckDB reading the files.
 */
const dynamoEndpoint = inject('dynamoEndpoint');
const ITEMS = 1_000_000;
let folder: string;
let generated: GeneratedExport;
let answer: string | undefined;
let app: BrowserCore;
let browser: BrowserCore;
let opened: OpenedExportView;

const folderDialog: FileDialog = {
  open: () => Promise.reject(new Error('a folder was asked for, not a file')),
  save: () => Promise.reject(new Error('a folder was asked for, not a file')),
  openFolder: () => Promise.resolve(answer),
};

async function call<T>(core: BrowserCore, channel: string, payload: unknown): Promise<T> {
  const reply = await core.call<T>(channel, payload);
  if (!reply.ok) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
  return reply.value;
}

async function chooseFolder(chosen: string | undefined): Promise<FileChoice> {
  answer = chosen;
  return call<FileChoice>(app, 'files:choose', { purpose: 'openExport' });
}

const cell = (v: AttributeValue | null): unknown =>
  v === null || 'NULL' in v ? null : 'S' in v ? v.S : 'N' in v ? Number(v.N) : JSON.stringify(v);

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'open-folder-'));
  generated = await generateExport(folder, ITEMS);
  app = await startBrowserCore(dynamoEndpoint, { fileDialog: folderDialog });
  browser = await startBrowserCore(dynamoEndpoint);
}, 120_000);

afterAll(async () => {
  await app.close();
  await browser.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('opening a local export folder', () => {
  it('opens a 1,000,000-item export from the chosen folder, reading no table', async () => {
    const choice = await chooseFolder(folder);
    expect(choice).toEqual({ fileId: expect.any(String) as string, name: path.basename(folder) });
    expect(JSON.stringify(choice)).not.toContain(tmpdir());
    if (!('fileId' in choice)) throw new Error('expected a folder');
    const { value, events } = await runToDone<OpenedExportView>(app, 'exports:openFolder', {
      connectionId: app.connectionId,
      folderId: choice.fileId,
    });
    opened = value;
    expect(opened).toMatchObject({ name: 'Orders-2026-11-30', table: 'Orders', items: ITEMS });
    expect(events.filter((e) => e.type === 'progress').length).toBeGreaterThan(0);
    const listed = await call<OpenedExportView[]>(app, 'exports:opened', {});
    expect(listed.map((e) => e.name)).toContain(opened.name);
  }, 240_000);

  it('runs a GROUP BY over the million items equal to DuckDB reading the same files', async () => {
    const id = `sql_open_folder_${Date.now()}`;
    const { value: summary } = await runToDone<SqlResultSummary>(app, 'sql:run', {
      connectionId: app.connectionId,
      requestId: id,
      sql: `SELECT status, region, COUNT(*) AS n, SUM(amount) AS total FROM export."${opened.name}" GROUP BY status, region`,
    });
    expect(summary.fetches).toMatchObject([{ operation: 'ReadExport', consumedCapacity: 0, items: ITEMS }]);
    const window = await call<SqlWindow>(app, 'sql:window', {
      resultId: summary.resultId,
      offset: 0,
      limit: 1000,
    });
    const ours = window.rows.map((row) => row.map(cell).map(comparable));

    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const reader = await duck.runAndReadAll(
      `SELECT json_extract_string(json, '$.Item.status.S') AS status,
              json_extract_string(json, '$.Item.region.S') AS region, COUNT(*) AS n,
              SUM(CAST(json_extract_string(json, '$.Item.amount.N') AS DECIMAL(38,4))) AS total
         FROM read_json_objects('${generated.root}/data/*.json.gz', format = 'newline_delimited') GROUP BY 1, 2`,
    );
    const oracle = reader.getRowsJS().map((row) => row.map(comparable));
    const order = (a: unknown[], b: unknown[]) =>
      `${String(a[0])}/${String(a[1])}`.localeCompare(`${String(b[0])}/${String(b[1])}`);
    expect(ours.sort(order)).toEqual(oracle.sort(order));
    expect(ours.reduce((sum, row) => sum + Number(row[2]), 0)).toBe(ITEMS);
  }, 240_000);

  it('says cancelled when the folder dialog is dismissed, and opens nothing', async () => {
    expect(await chooseFolder(undefined)).toEqual({ cancelled: true });
  });

  it('names the folder and the layout it looked for when the folder holds no export', async () => {
    const choice = await chooseFolder(path.join(generated.root, 'data'));
    if (!('fileId' in choice)) throw new Error('expected a folder');
    const requestId = `open_empty_${Date.now()}`;
    const ended = app.waitFor(requestId);
    const reply = await app.call('exports:openFolder', {
      connectionId: app.connectionId,
      folderId: choice.fileId,
      requestId,
    });
    expect(reply.ok).toBe(true);
    const { last } = await ended;
    expect(last).toMatchObject({ type: 'error', error: { code: 'NotFound' } });
    expect(last.type === 'error' && last.error.message).toMatch(
      /no DynamoDB export at .*manifest-summary\.json/,
    );
  });

  it('refuses a handle it never gave, asking to choose the folder again', async () => {
    const reply = await app.call('exports:openFolder', {
      connectionId: app.connectionId,
      folderId: 'f_not-a-choice',
      requestId: `open_stale_${Date.now()}`,
    });
    expect(reply).toMatchObject({ ok: false, error: { code: 'FileNotFound' } });
    expect(!reply.ok && reply.error.message).toMatch(/Choose the file again/);
  });

  it('says in browser mode that a folder is picked in the page and uploaded instead', async () => {
    const reply = await browser.call('files:choose', { purpose: 'openExport' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'NotSupported' } });
    expect(!reply.ok && reply.error.message).toContain('/api/upload/export-folder');
  });
});
