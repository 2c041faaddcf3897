import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CoreContext } from '../../../src/main/core/context';
import { shutdownCore } from '../../../src/main/create-core';
import { newCopyId } from '../../../src/main/dynamo/copy/copy-checkpoint';
import { newCheckpoint } from '../../../src/main/dynamo/copy/copy-service';
import { newTableExportCheckpoint } from '../../../src/main/dynamo/transfer/table-export-service';
import { dataFolder, type StoredJobKind } from '../../../src/main/files/data-folder';
import { copyHandlers } from '../../../src/main/ipc/handlers/copy';
import { migrationHandlers } from '../../../src/main/ipc/handlers/migration';
import { schemaHandlers } from '../../../src/main/ipc/handlers/schema';
import { transferHandlers } from '../../../src/main/ipc/handlers/transfer';
import { copyStartInput } from '../../../src/shared/ipc/copy';
import type { Connection } from '../../../src/shared/ipc/connection';
import { rawPutAll, rawScanAll } from '../../support/copy-oracle';
import { coreOn, operationEnded, saveLocalConnection, useLocalKeys } from '../../support/data-folder-core';
import { localClient, uniqueTableName } from '../../support/dynamo-local';
import { createTable } from '../../support/dynamo-tables';

/**
 * The job folders of an earlier release, converted when the real core starts (createCore).
 *
 * Before the job store (0ad6832, and 8854994 for fix plans) each store wrote its checkpoint as
 * the bare object, `JSON.stringify(checkpoint)`, in a folder of its own: copies/<id>.json,
 * table-exports/<id>.json beside the spool <id>.jsonl, migration/scans/<id>.checkpoint.json with
 * <id>.summary.json and <id>.report.json, schema/ the same, and migration/plans/<id>.plan.json
 * with <id>.updates.jsonl, <id>.results.jsonl and <id>.result.json. A record's payload is that
 * same object, so the files are made here as those writers made them: the checkpoint a copy and a
 * table export save when they start (their own newCheckpoint functions), and the pre-flight scan,
 * schema read and fix plan of a real run, each put back where and how the old store kept it.
 * The second core then finds every job through the channels the app uses, resumes or reads it,
 * and the old folders are gone, but for a corrupt checkpoint, set aside there with a sentence.
 */
let endpoint: string;
let dataDir: string;
let connection: Connection;
let first: CoreContext;
let restarted: CoreContext | undefined;

let restoreKeys: () => void;

beforeAll(async () => {
  endpoint = inject('dynamoEndpoint');
  restoreKeys = useLocalKeys();
  dataDir = mkdtempSync(path.join(tmpdir(), 'dynotable-legacy-jobs-'));
  first = coreOn(dataDir);
  connection = await saveLocalConnection(first, endpoint);
});

afterAll(async () => {
  restoreKeys();
  await shutdownCore(first).catch(() => undefined);
  if (restarted) await shutdownCore(restarted);
  rmSync(dataDir, { recursive: true, force: true });
});

async function done<T>(ctx: CoreContext, requestId: string, start: () => Promise<unknown>): Promise<T> {
  const end = operationEnded(ctx, requestId);
  await start();
  const event = await end;
  if (event.type !== 'done') throw new Error(`${requestId} ended ${event.type}: ${JSON.stringify(event)}`);
  return (event as { value: T }).value;
}

const legacy = (kind: StoredJobKind) => dataFolder.legacyJobs[kind]!(dataDir);

/** Puts a kind's records back in the old layout: the payload as the bare checkpoint, side files as they are. */
async function asOldLayout(kind: StoredJobKind, checkpoint: string): Promise<string[]> {
  const from = dataFolder.jobs(dataDir, kind);
  const to = legacy(kind);
  await mkdir(to, { recursive: true });
  const names = await readdir(from);
  for (const name of names) {
    if (name.endsWith('.json') && !name.slice(0, -5).includes('.')) {
      const { payload } = JSON.parse(await readFile(path.join(from, name), 'utf8')) as { payload: unknown };
      await writeFile(path.join(to, `${name.slice(0, -5)}${checkpoint}`), JSON.stringify(payload));
      await rm(path.join(from, name));
    } else await rename(path.join(from, name), path.join(to, name));
  }
  return readdir(to);
}

const items = Array.from({ length: 40 }, (_, i) => ({
  pk: { S: `K#${i}` },
  n: { N: String(i) },
  // A dotted name where a nested attribute was meant: what the fix plan moves.
  ...(i % 4 === 0 ? { 'address.city': { S: `City ${i}` } } : {}),
}));
const byKey = (list: Record<string, unknown>[]) =>
  new Map(list.map((item) => [(item.pk as { S: string }).S, JSON.stringify(item)]));

describe('job folders of an earlier release, at start', () => {
  it('are converted when the core starts: every job is listed and resumes or reads, and a corrupt checkpoint is set aside with a sentence', async () => {
    const client = localClient(endpoint);
    const source = await createTable(client, uniqueTableName('legacysrc'), { partitionKey: ['pk', 'S'] });
    const target = await createTable(client, uniqueTableName('legacydst'), { partitionKey: ['pk', 'S'] });
    const fixed = await createTable(client, uniqueTableName('legacyfix'), { partitionKey: ['pk', 'S'] });
    await rawPutAll(endpoint, source, items);
    await rawPutAll(endpoint, fixed, items);

    // The checkpoints a copy and a table export save as they start, cut off right there.
    const copyId = newCopyId();
    const copyInput = copyStartInput.parse({
      requestId: 'legacy-copy-start',
      source: { kind: 'table', connectionId: connection.id, table: source },
      target: { connectionId: connection.id, table: target },
    });
    const { requestId: _unused, ...copySettings } = copyInput;
    const copyCheckpoint = newCheckpoint(copyId, copySettings);
    const exportFile = path.join(dataDir, 'exported.jsonl');
    const exportCheckpoint = await newTableExportCheckpoint(
      client,
      { connectionId: connection.id, table: source, format: 'jsonl' },
      exportFile,
    );
    client.destroy();

    // A pre-flight scan, a full schema read and a fix plan, run to their end by the first core.
    const scanId = (
      await done<{ scanId: string }>(first, 'legacy-scan', () =>
        migrationHandlers['migration:scan'](
          { connectionId: connection.id, table: fixed, requestId: 'legacy-scan' },
          first,
        ),
      )
    ).scanId;
    const schemaId = (
      await done<{ scanId: string }>(first, 'legacy-schema', () =>
        schemaHandlers['schema:analyze'](
          { connectionId: connection.id, table: source, requestId: 'legacy-schema', mode: 'full' },
          first,
        ),
      )
    ).scanId;
    const plan = await done<{ planId: string; updates: number }>(first, 'legacy-plan', () =>
      migrationHandlers['migration:fixPlan'](
        { connectionId: connection.id, table: fixed, requestId: 'legacy-plan', policy: 'nested-wins' },
        first,
      ),
    );
    expect(plan.updates).toBe(10);
    await shutdownCore(first);

    // Everything as the stores before the job store kept it.
    await mkdir(legacy('copy'), { recursive: true });
    await writeFile(path.join(legacy('copy'), `${copyId}.json`), JSON.stringify(copyCheckpoint));
    const broken = 'copy-broken-00000000';
    const brokenText = `{"version":1,"copyId":"${broken}","input":{"source":{"connectionId":"${connection.id}","table":"${source}"},"target":{"table":"Orders`;
    await writeFile(path.join(legacy('copy'), `${broken}.json`), brokenText);
    await mkdir(legacy('export'), { recursive: true });
    await writeFile(
      path.join(legacy('export'), `${exportCheckpoint.exportId}.json`),
      JSON.stringify(exportCheckpoint),
    );
    await writeFile(path.join(legacy('export'), `${exportCheckpoint.exportId}.jsonl`), '');
    expect(await asOldLayout('preflight', '.checkpoint.json')).toEqual(
      expect.arrayContaining([`${scanId}.summary.json`, `${scanId}.report.json`]),
    );
    expect(await asOldLayout('schema', '.checkpoint.json')).toEqual(
      expect.arrayContaining([`${schemaId}.summary.json`, `${schemaId}.report.json`]),
    );
    expect((await asOldLayout('fix', '.plan.json')).sort()).toEqual([
      `${plan.planId}.plan.json`,
      `${plan.planId}.updates.jsonl`,
    ]);
    await rm(path.join(dataDir, 'jobs'), { recursive: true });

    restarted = coreOn(dataDir);
    const ctx = restarted;

    // The copy: listed as stopped, the corrupt one named with a sentence, and it resumes to the end.
    const copies = await copyHandlers['copy:list']({}, ctx);
    expect(copies.copies.map((c) => [c.copyId, c.state])).toEqual([[copyId, 'stopped']]);
    expect(copies.setAside).toHaveLength(1);
    expect(copies.setAside?.[0]?.message).toMatch(
      new RegExp(
        `^The checkpoint of copy ${broken} \\(.*\\) could not be read: .*DynoTable kept it unchanged as ${broken}\\.json\\.unreadable-.*; it held a copy from ${source}, \\d+ bytes\\. That copy can no longer be resumed`,
      ),
    );
    expect(await readFile(copies.setAside![0]!.keptAs, 'utf8')).toBe(brokenText);
    // One record format now: the old checkpoint is the record's payload, unchanged.
    const record = JSON.parse(
      await readFile(path.join(dataFolder.jobs(dataDir, 'copy'), `${copyId}.json`), 'utf8'),
    ) as { kind: string; id: string; version: number; payload: unknown };
    expect(record).toMatchObject({ kind: 'copy', id: copyId, version: 1, payload: copyCheckpoint });
    await done(ctx, 'legacy-copy-resume', () =>
      copyHandlers['copy:resume']({ copyId, requestId: 'legacy-copy-resume' }, ctx),
    );
    expect(byKey(await rawScanAll(endpoint, target))).toEqual(byKey(await rawScanAll(endpoint, source)));

    // The table export: listed, and its resume writes every item to the file.
    const exports = await transferHandlers['transfer:tableExports'](
      { connectionId: connection.id, table: source },
      ctx,
    );
    expect(exports.map((e) => e.exportId)).toEqual([exportCheckpoint.exportId]);
    await done(ctx, 'legacy-export-resume', () =>
      transferHandlers['transfer:resumeTableExport'](
        { requestId: 'legacy-export-resume', exportId: exportCheckpoint.exportId },
        ctx,
      ),
    );
    const exported = (await readFile(exportFile, 'utf8')).trim().split('\n');
    expect(exported).toHaveLength(items.length);

    // The pre-flight scan and the schema read: listed, their reports read as they were written.
    const scans = await migrationHandlers['migration:scans'](
      { connectionId: connection.id, table: fixed },
      ctx,
    );
    expect(scans.map((s) => [s.scanId, s.state])).toEqual([[scanId, 'done']]);
    const report = await migrationHandlers['migration:report']({ scanId }, ctx);
    expect(report).toMatchObject({ scanId, table: fixed });
    const schemaScans = await schemaHandlers['schema:scans'](
      { connectionId: connection.id, table: source },
      ctx,
    );
    expect(schemaScans.map((s) => s.scanId)).toEqual([schemaId]);
    expect(await schemaHandlers['schema:report']({ scanId: schemaId }, ctx)).toMatchObject({
      scanId: schemaId,
    });

    // The fix plan: there with its updates, and it runs.
    const status = await migrationHandlers['migration:fixStatus']({ planId: plan.planId }, ctx);
    expect(status).toMatchObject({ plan: { planId: plan.planId, updates: 10 }, result: null });
    const result = await done<{ state: string; total: number; written: number }>(ctx, 'legacy-fix-run', () =>
      migrationHandlers['migration:fixRun'](
        { connectionId: connection.id, requestId: 'legacy-fix-run', planId: plan.planId },
        ctx,
      ),
    );
    expect(result).toMatchObject({ state: 'done', total: 10, written: 10 });
    const moved = await rawScanAll(endpoint, fixed);
    expect(moved.filter((item) => 'address.city' in item)).toEqual([]);
    expect(moved.filter((item) => 'address' in item)).toHaveLength(10);

    // The old folders are gone, but for the one that keeps the set-aside checkpoint.
    for (const kind of ['export', 'preflight', 'schema', 'fix'] as const)
      await expect(readdir(legacy(kind))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await readdir(legacy('copy'))).map((n) => n.replace(/unreadable-.*$/, 'unreadable-'))).toEqual([
      `${broken}.json.unreadable-`,
    ]);
  }, 300_000);
});
