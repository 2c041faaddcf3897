import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CopyCheckpoint, CopyStore } from '../../src/main/dynamo/copy/copy-checkpoint';
import { TableExportStore } from '../../src/main/dynamo/transfer/table-export-store';
import { dataFolder } from '../../src/main/files/data-folder';
import { JobStore } from '../../src/main/jobs/job-store';
import { copyJob } from '../../src/main/dynamo/copy/copy-checkpoint';
import { exportJob } from '../../src/main/dynamo/transfer/table-export-store';
import { fixJob, MigrationStore, preflightJob } from '../../src/main/migration/store';
import { schemaJob, SchemaStore } from '../../src/main/schema/schema-store';

const folders: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'dynotable-jobstore-'));
  folders.push(dir);
  return dir;
}
afterEach(() => folders.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const at = '2026-01-02T03:04:05.000Z';
const copyId = 'copy-mabc123-0a1b2c3d';
const exportId = 'texp-mabc123-0a1b2c3d';
const scanId = 'scan-mabc123-0a1b2c3d';
const schemaId = 'schema-mabc123-0a1b2c3d';

/** A copy checkpoint as the store before the job store wrote it: the bare checkpoint in copies/<id>.json. */
const oldCopy = {
  version: 1,
  copyId,
  input: {
    source: { connectionId: 'local', table: 'Orders' },
    target: { connectionId: 'local', table: 'OrdersCopy' },
  },
  state: 'stopped',
  startedAt: at,
  savedAt: at,
  segments: [{ segment: 0, done: false, startKey: { pk: { S: 'A' }, __proto__x: { S: 'b' } } }],
  sourceCount: 10,
  counts: { read: 4, written: 4, skipped: 0, failed: 0 },
  failures: [],
  notes: [],
};
const oldExport = {
  version: 1,
  exportId,
  connectionId: 'local',
  table: 'Orders',
  format: 'jsonl',
  path: '/tmp/out.jsonl',
  totalSegments: 1,
  segments: [{ segment: 0, done: false }],
  spoolBytes: 12,
  items: 1,
  consumedCapacity: 0.5,
  sourceCount: 3,
  state: 'stopped',
  startedAt: at,
  savedAt: at,
};
const scanCheckpoint = { version: 1, scanId, table: 'Orders', startedAt: at, segments: [] };
const scanSummary = { scanId, connectionId: 'local', table: 'Orders', state: 'stopped', startedAt: at };
const schemaCheckpoint = { version: 1, scanId: schemaId, table: 'Orders', startedAt: at, segments: [] };
const schemaSummary = { scanId: schemaId, connectionId: 'local', table: 'Orders', state: 'stopped' };
const planId = 'plan-mabc123-0a1b2c3d';
/** A fix plan as the fix service wrote it before plans were a job kind: migration/plans/<id>.plan.json. */
const oldPlan = {
  planId,
  connectionId: 'local',
  table: 'Orders',
  policy: 'nested-wins',
  convertDates: false,
  createdAt: at,
  readOnly: false,
  itemsScanned: 2,
  updates: 1,
};
const oldUpdates = '{"i":0,"update":{"key":{"pk":"A"}}}\n';
const oldOutcomes = '{"i":0,"outcome":"written","key":{"pk":"A"}}\n';
const oldResult = { planId, state: 'complete', total: 1, written: 1 };

async function plantOldLayout(dir: string): Promise<void> {
  const put = async (rel: string, text: string) => {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  };
  await put(`copies/${copyId}.json`, JSON.stringify(oldCopy));
  await put(`table-exports/${exportId}.json`, JSON.stringify(oldExport));
  await put(`table-exports/${exportId}.jsonl`, '{"Item":{}}\n');
  await put(`migration/scans/${scanId}.checkpoint.json`, JSON.stringify(scanCheckpoint));
  await put(`migration/scans/${scanId}.summary.json`, JSON.stringify(scanSummary));
  await put(`schema/${schemaId}.checkpoint.json`, JSON.stringify(schemaCheckpoint));
  await put(`schema/${schemaId}.summary.json`, JSON.stringify(schemaSummary));
  await put(`migration/plans/${planId}.plan.json`, JSON.stringify(oldPlan));
  await put(`migration/plans/${planId}.updates.jsonl`, oldUpdates);
  await put(`migration/plans/${planId}.results.jsonl`, oldOutcomes);
  await put(`migration/plans/${planId}.result.json`, JSON.stringify(oldResult));
}

/** The job store as the core starts it: the old layout converted before anything reads it. */
async function startedStore(dir: string): Promise<JobStore> {
  const jobs = new JobStore(dir);
  await jobs.convertLegacy([copyJob, exportJob, preflightJob, schemaJob, fixJob]);
  return jobs;
}

async function record(dir: string, kind: 'copy' | 'export' | 'preflight' | 'schema' | 'fix', id: string) {
  return JSON.parse(await readFile(path.join(dataFolder.jobs(dir, kind), `${id}.json`), 'utf8')) as {
    kind: string;
    id: string;
    version: number;
    state: string;
    startedAt: string;
    updatedAt: string;
    payload: unknown;
  };
}

describe('the job store', () => {
  it('finds, converts once and resumes the checkpoints the four stores wrote before it', async () => {
    const dir = dataDir();
    await plantOldLayout(dir);
    const jobs = await startedStore(dir);

    expect(await new CopyStore(jobs).load(copyId)).toEqual(oldCopy);
    expect(await new TableExportStore(jobs).load(exportId)).toEqual(oldExport);
    expect(await readFile(await new TableExportStore(jobs).spool(exportId), 'utf8')).toBe('{"Item":{}}\n');
    const migration = new MigrationStore(dir, jobs);
    expect(await migration.loadCheckpoint(scanId)).toEqual(scanCheckpoint);
    expect((await migration.listSummaries({ connectionId: 'local' })).map((s) => s.scanId)).toEqual([scanId]);
    const schema = new SchemaStore(jobs);
    expect(await schema.checkpoint(schemaId)).toEqual(schemaCheckpoint);
    expect((await schema.list()).map((s) => s.scanId)).toEqual([schemaId]);
    expect(await migration.loadPlanSummary(planId)).toEqual(oldPlan);
    expect(await readFile(await migration.planFile(planId), 'utf8')).toBe(oldUpdates);
    expect(await readFile(await migration.resultsFile(planId), 'utf8')).toBe(oldOutcomes);
    expect(await migration.loadFixResult(planId)).toEqual(oldResult);

    // One record format for every kind; the old folders are gone.
    expect(await record(dir, 'copy', copyId)).toMatchObject({
      kind: 'copy',
      id: copyId,
      version: 1,
      state: 'stopped',
      startedAt: at,
      payload: oldCopy,
    });
    expect(await record(dir, 'export', exportId)).toMatchObject({ kind: 'export', state: 'stopped' });
    expect(await record(dir, 'preflight', scanId)).toMatchObject({ kind: 'preflight', state: 'running' });
    expect(await record(dir, 'schema', schemaId)).toMatchObject({
      kind: 'schema',
      payload: schemaCheckpoint,
    });
    expect(await record(dir, 'fix', planId)).toMatchObject({
      kind: 'fix',
      state: 'stopped',
      payload: oldPlan,
    });
    expect((await readdir(dir)).sort()).toEqual(['jobs', 'migration']);
    expect(await readdir(path.join(dir, 'migration'))).toEqual([]);
  });

  it('lists the jobs of each kind, and forgets one with its side files', async () => {
    const dir = dataDir();
    await plantOldLayout(dir);
    const jobs = await startedStore(dir);
    const copies = new CopyStore(jobs);
    await copies.save({
      ...(oldCopy as unknown as CopyCheckpoint),
      copyId: 'copy-second-00000000',
      state: 'running',
    });

    const listed = await copies.list((id) => id === 'copy-second-00000000');
    expect(listed.copies.map((c) => [c.copyId, c.state]).sort()).toEqual([
      ['copy-mabc123-0a1b2c3d', 'stopped'],
      ['copy-second-00000000', 'running'],
    ]);
    const exports = new TableExportStore(jobs);
    expect((await exports.list('local', 'Orders', () => false)).map((e) => e.exportId)).toEqual([exportId]);
    expect(await exports.remove(exportId)).toBe(true);
    expect(await readdir(dataFolder.jobs(dir, 'export'))).toEqual([]);
    expect(await exports.remove(exportId)).toBe(false);
  });

  it.each([
    ['copy', copyId, (jobs: JobStore) => new CopyStore(jobs).load(copyId), 'The checkpoint of copy'],
    [
      'export',
      exportId,
      (jobs: JobStore) => new TableExportStore(jobs).load(exportId),
      'The place of table export',
    ],
    [
      'preflight',
      scanId,
      (jobs: JobStore) => new MigrationStore(jobs.dataDir, jobs).loadCheckpoint(scanId),
      'The checkpoint of pre-flight scan',
    ],
    [
      'schema',
      schemaId,
      (jobs: JobStore) => new SchemaStore(jobs).checkpoint(schemaId),
      'The checkpoint of schema read',
    ],
    [
      'fix',
      planId,
      (jobs: JobStore) => new MigrationStore(jobs.dataDir, jobs).loadPlanSummary(planId),
      'The fix plan',
    ],
  ] as const)('sets a corrupt %s checkpoint aside with a sentence', async (kind, id, load, what) => {
    const dir = dataDir();
    const folder = dataFolder.jobs(dir, kind);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, `${id}.json`), '{"kind":"' + kind + '","table":"Orders","payl');

    const failure = await load(new JobStore(dir)).then(
      () => undefined,
      (error: unknown) => error as { code: string; message: string },
    );

    expect(failure?.code).toBe('DataFileSetAside');
    expect(failure?.message).toMatch(
      new RegExp(`^${what} ${id} \\(.*\\) could not be read: it ends in the middle`),
    );
    const names = await readdir(folder);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(new RegExp(`^${id}\\.json\\.unreadable-`));
  });

  it('sets aside a record of another kind put in the wrong folder instead of resuming it', async () => {
    const dir = dataDir();
    await plantOldLayout(dir);
    const jobs = await startedStore(dir);
    await new CopyStore(jobs).load(copyId);
    const copyRecord = await readFile(path.join(dataFolder.jobs(dir, 'copy'), `${copyId}.json`), 'utf8');
    await writeFile(path.join(dataFolder.jobs(dir, 'copy'), 'copy-other-00000000.json'), copyRecord);

    const { copies, setAside } = await new CopyStore(new JobStore(dir)).list();

    expect(copies.map((c) => c.copyId)).toEqual([copyId]);
    expect(setAside?.[0]?.message).toContain(`it is the record of copy ${copyId}, not of this job`);
  });

  it('an old checkpoint that does not read is set aside where it was, and the list and a resume say so', async () => {
    const dir = dataDir();
    await mkdir(path.join(dir, 'copies'));
    await writeFile(path.join(dir, 'copies', `${copyId}.json`), 'garbage');
    const store = new CopyStore(await startedStore(dir));

    await expect(store.load(copyId)).rejects.toMatchObject({ code: 'DataFileSetAside' });
    const { setAside } = await store.list();
    expect(setAside?.[0]?.message).toMatch(
      new RegExp(`^The checkpoint of copy ${copyId} .* it is not valid JSON`),
    );
    expect((await readdir(path.join(dir, 'copies')))[0]).toMatch(
      new RegExp(`^${copyId}\\.json\\.unreadable-`),
    );
  });
});
