import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CoreContext } from '../../../src/main/core/context';
import { shutdownCore } from '../../../src/main/create-core';
import { dataFolder } from '../../../src/main/files/data-folder';
import { jobHandlers } from '../../../src/main/ipc/handlers/jobs';
import { tableHandlers } from '../../../src/main/ipc/handlers/tables';
import { transferHandlers } from '../../../src/main/ipc/handlers/transfer';
import type { Connection } from '../../../src/shared/ipc/connection';
import type { StoppedJob } from '../../../src/shared/ipc/jobs';
import { rawPutAll } from '../../support/copy-oracle';
import {
  coreOn,
  operationEnded,
  saveLocalConnection,
  until,
  useLocalKeys,
} from '../../support/data-folder-core';
import { localClient, uniqueTableName } from '../../support/dynamo-local';
import { createTable } from '../../support/dynamo-tables';
import { startFaultyDynamo, type FaultyDynamo } from '../../support/faulty-dynamo';
import { rawScanItems } from '../../support/raw-dynamo';

/**
 * Imports and purges keep a record in the one job store. A second core on the same data folder
 * is DynoTable after a restart (the first one's running jobs are not its own): it lists the
 * import or purge the first one was running as interrupted, with where it stopped, and resumes
 * it; the table is then compared with the file (or with nothing) by a raw Scan.
 */
let endpoint: string;
let dataDir: string;
let first: CoreContext;
let restarted: CoreContext;
let connection: Connection;
let restoreKeys: () => void;
/** The saved connection's way to DynamoDB Local: it can hold one write, so a cut-off comes mid-import. */
let faulty: FaultyDynamo;

beforeAll(async () => {
  endpoint = inject('dynamoEndpoint');
  // The saved connection uses the default chain, as a CI job's would: keys from the environment.
  restoreKeys = useLocalKeys();
  dataDir = mkdtempSync(path.join(tmpdir(), 'dynotable-work-records-'));
  first = coreOn(dataDir);
  faulty = await startFaultyDynamo(endpoint);
  connection = await saveLocalConnection(first, faulty.endpoint);
  restarted = coreOn(dataDir);
});

afterAll(async () => {
  restoreKeys();
  await shutdownCore(first);
  await shutdownCore(restarted);
  await faulty.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ended = operationEnded;
/** The import's file: ten chunks of 200 lines, cut off in the third. */
const LINES = 2_000;

const stopped = (ctx: CoreContext) => jobHandlers['jobs:stopped']({ connectionId: connection.id }, ctx);

/** The restarted core's listing of `kind` once the first core's record shows it wrote something. */
const interruptedIn = (kind: 'import' | 'purge') =>
  until(async () => {
    const { jobs } = await stopped(restarted);
    return jobs.find((j) => j.kind === kind && j.items > 0);
  }, `an interrupted ${kind}`);

async function table(prefix: string): Promise<string> {
  const c = localClient(endpoint);
  const name = await createTable(c, uniqueTableName(prefix), { partitionKey: ['pk', 'S'] });
  c.destroy();
  return name;
}

describe('import and purge records in the job store', () => {
  it("an import cut off mid-file is listed after a restart, refuses a changed file, and resumes to exactly the file's items", async () => {
    const target = await table('recimport');
    const file = path.join(dataDir, 'many.jsonl');
    const lines = Array.from({ length: LINES }, (_, i) =>
      JSON.stringify({ pk: { S: `K#${i}` }, n: { N: String(i) } }),
    );
    writeFileSync(file, lines.join('\n'));
    // The first core's 401st put (the third chunk of 200 lines; "new items only" puts one item at
    // a time) waits at the door until Cancel: the import is cut off mid-file at any speed, with
    // two chunks' counts saved in its record, and the file can be small.
    const held = faulty.holdOne({ operation: 'PutItem', bodyIncludes: target, after: 400 });
    const requestId = 'records-import-1';
    const end = ended(first, requestId);
    await transferHandlers['transfer:import'](
      {
        connectionId: connection.id,
        table: target,
        requestId,
        format: 'jsonl',
        source: { path: file },
        mode: 'create-only',
        dryRun: false,
      },
      first,
    );
    const seen: StoppedJob = await interruptedIn('import');
    expect(seen).toMatchObject({ kind: 'import', table: target, state: 'interrupted' });
    expect(seen.sentence).toMatch(
      new RegExp(
        `^The import of many\\.jsonl into ${target} stopped when DynoTable closed\\. Lines 1–[\\d,]+ of the file are done: [\\d,]+ items written, 0 already in the table, 0 with problems\\.`,
      ),
    );
    expect(seen.sentence).toMatch(
      /Resume goes on at line [\d,]+ of the same file, unless the file changed since\.$/,
    );
    expect(seen.canResume).toBe(true);
    // The first core still runs it: its own listing leaves a running job out.
    expect((await stopped(first)).jobs.map((j) => j.id)).not.toContain(seen.id);

    first.operations.cancel(requestId);
    held.release();
    expect((await end).type).toBe('cancelled');
    const after = (await stopped(restarted)).jobs.find((j) => j.id === seen.id);
    expect(after?.state).toBe('stopped');
    // Its count is what DynamoDB holds: a raw Scan tallies the items written.
    expect(after?.items).toBe((await rawScanItems(endpoint, target)).length);
    expect(after?.sentence).toContain('when it was cancelled');
    // Where it stopped and what it wrote agree: each of the lines done (one item each, into an
    // empty table) was written, and a resume goes on at the next one. Before, the puts in flight
    // when Cancel came were written after the line recorded: "stopped at line 200; 208 written".
    const done =
      /Lines 1–([\d,]+) of the file are done: ([\d,]+) items written, 0 already in the table, 0 with problems\. Resume goes on at line ([\d,]+) /.exec(
        after?.sentence ?? '',
      );
    const [linesDone, written, next] = (done ?? []).slice(1).map((text) => Number(text.replace(/,/g, '')));
    expect(written).toBe(after?.items);
    expect(linesDone).toBe(written);
    expect(next).toBe((linesDone ?? 0) + 1);

    // A file that is not the one the import read is refused with a sentence, never half-mixed in:
    // records of the same import that remember another size, or a file that is gone.
    const record = JSON.parse(
      await readFile(path.join(dataFolder.jobs(dataDir, 'import'), `${seen.id}.json`), 'utf8'),
    ) as { payload: { source: { size: number; path: string } } };
    const plant = async (id: string, source: object) => {
      const payload = { ...record.payload, id, source: { ...record.payload.source, ...source } };
      const text = JSON.stringify({ ...record, id, payload });
      await writeFile(path.join(dataFolder.jobs(dataDir, 'import'), `${id}.json`), text);
    };
    const resume = (jobId: string, requestId: string) =>
      transferHandlers['transfer:resumeImport'](
        { connectionId: connection.id, table: target, requestId, jobId },
        restarted,
      );
    await plant('import-changed-00000000', { size: record.payload.source.size + 1 });
    await expect(resume('import-changed-00000000', 'records-import-changed')).rejects.toMatchObject({
      code: 'FileChanged',
      message: expect.stringMatching(/^many\.jsonl changed since the import stopped/) as string,
    });
    await plant('import-gone-00000000', { path: path.join(dataDir, 'gone.jsonl') });
    await expect(resume('import-gone-00000000', 'records-import-gone')).rejects.toMatchObject({
      code: 'FileNotFound',
    });
    for (const id of ['import-changed-00000000', 'import-gone-00000000'])
      await jobHandlers['jobs:forget']({ kind: 'import', id }, restarted);

    // Resumed after a restart, it writes the rest: the table then holds exactly the file's items.
    const resumedId = 'records-import-resumed';
    const resumedEnd = ended(restarted, resumedId);
    expect(await resume(seen.id, resumedId)).toEqual({ started: true });
    const resumedEvent = await resumedEnd;
    expect(resumedEvent.type).toBe('done');
    const report = (resumedEvent as { value?: { total: number; invalid: number; failed: number } }).value;
    // It read only the lines after the one the record reached.
    expect(report?.total).toBeLessThan(LINES);
    expect(report).toMatchObject({ invalid: 0, failed: 0 });
    const stored = (await rawScanItems(endpoint, target)) as { pk: { S: string }; n: { N: string } }[];
    const byKey = new Map(stored.map((item) => [item.pk.S, item.n.N]));
    expect(byKey.size).toBe(LINES);
    for (let i = 0; i < LINES; i++) expect(byKey.get(`K#${i}`)).toBe(String(i));
    // Finished, it keeps no record: nothing is left to resume or to forget.
    expect((await stopped(restarted)).jobs.map((j) => j.id)).not.toContain(seen.id);
    expect(await jobHandlers['jobs:forget']({ kind: 'import', id: seen.id }, restarted)).toEqual({
      forgotten: false,
    });
  }, 300_000);

  it('a purge cut off is listed after a restart, resumes under the same confirmation, and leaves no record when done', async () => {
    const name = await table('recpurge');
    await rawPutAll(
      endpoint,
      name,
      Array.from({ length: 1500 }, (_, i) => ({ pk: { S: `K#${i}` } })),
    );
    const requestId = 'records-purge-1';
    const end = ended(first, requestId);
    await tableHandlers['tables:purge'](
      { connectionId: connection.id, table: name, requestId, confirmTable: name, maxPerSecond: 100 },
      first,
    );
    const seen = await interruptedIn('purge');
    expect(seen).toMatchObject({ kind: 'purge', table: name, state: 'interrupted' });
    expect(seen.sentence).toMatch(
      new RegExp(
        `^The purge of ${name} stopped when DynoTable closed after deleting [\\d,]+ items\\. Resume purges what is left`,
      ),
    );
    first.operations.cancel(requestId);
    expect((await end).type).toBe('cancelled');
    const left = (await rawScanItems(endpoint, name)).length;
    const after = (await stopped(restarted)).jobs.find((j) => j.id === seen.id);
    expect(after).toMatchObject({ state: 'stopped', items: 1500 - left });

    // Resumed after a restart, under the same confirmation: it purges the rest, its record counts
    // every item deleted by both runs, and once the table is empty it keeps nothing.
    await expect(
      tableHandlers['tables:purge'](
        {
          connectionId: connection.id,
          table: name,
          requestId: 'records-purge-wrong-name',
          confirmTable: 'not-the-name',
          resumeJobId: seen.id,
        },
        restarted,
      ),
    ).rejects.toMatchObject({ code: 'ConfirmationRequired' });
    const again = 'records-purge-2';
    const done = ended(restarted, again);
    await tableHandlers['tables:purge'](
      {
        connectionId: connection.id,
        table: name,
        requestId: again,
        confirmTable: name,
        resumeJobId: seen.id,
      },
      restarted,
    );
    const finished = await done;
    expect(finished.type).toBe('done');
    expect((finished as { value?: { deleted: number; isEmpty: boolean } }).value).toMatchObject({
      deleted: left,
      isEmpty: true,
    });
    expect(await rawScanItems(endpoint, name)).toEqual([]);
    expect((await stopped(restarted)).jobs.filter((j) => j.kind === 'purge')).toEqual([]);
    expect(await readdir(dataFolder.jobs(dataDir, 'purge'))).toEqual([]);
  }, 180_000);

  it("an unreadable purge record met as a purge empties its table is set aside, and the purge's ending says which and what it held", async () => {
    const name = await table('recpurgebad');
    await rawPutAll(
      endpoint,
      name,
      Array.from({ length: 20 }, (_, i) => ({ pk: { S: `K#${i}` } })),
    );
    const folder = dataFolder.jobs(dataDir, 'purge');
    await mkdir(folder, { recursive: true });
    // Cut off mid-write, as a disk that filled up leaves it: the table's name is still in it.
    const broken = `{"kind":"purge","id":"purge-broken-00000000","version":1,"state":"stopped","payload":{"table":"${name}","connectionId":"${connection.id}","del`;
    await writeFile(path.join(folder, 'purge-broken-00000000.json'), broken);

    const requestId = 'records-purge-unreadable';
    const done = ended(restarted, requestId);
    await tableHandlers['tables:purge'](
      { connectionId: connection.id, table: name, requestId, confirmTable: name },
      restarted,
    );
    const finished = await done;
    expect(finished.type).toBe('done');
    const value = (
      finished as { value?: { isEmpty: boolean; setAside?: { message: string; keptAs: string }[] } }
    ).value;
    expect(value?.isEmpty).toBe(true);
    expect(value?.setAside).toHaveLength(1);
    expect(value?.setAside?.[0]?.message).toMatch(
      new RegExp(
        `^The record of a purge purge-broken-00000000 \\(.*\\) could not be read: .*DynoTable kept it unchanged as purge-broken-00000000\\.json\\.unreadable-.*; it held a purge of ${name}, \\d+ bytes\\. What it deleted stays deleted`,
      ),
    );
    // Renamed and kept byte for byte, never dropped.
    const kept = value!.setAside![0]!.keptAs;
    expect(path.dirname(kept)).toBe(folder);
    expect(await readFile(kept, 'utf8')).toBe(broken);
    expect((await readdir(folder)).filter((n) => n.startsWith('purge-broken-00000000.json'))).toEqual([
      path.basename(kept),
    ]);
    expect(await rawScanItems(endpoint, name)).toEqual([]);
    // Said once, by the purge that met it: the next listing has nothing more to set aside.
    expect((await stopped(restarted)).setAside).toEqual([]);
  }, 120_000);

  it('an unreadable record is set aside with a sentence; the rest are still listed', async () => {
    const folder = dataFolder.jobs(dataDir, 'import');
    const listedBefore = (await stopped(restarted)).jobs.length;
    await mkdir(folder, { recursive: true });
    await writeFile(
      path.join(folder, 'import-broken-00000000.json'),
      '{"kind":"import","table":"Orders", nope',
    );
    const listed = await stopped(restarted);
    expect(listed.setAside).toHaveLength(1);
    expect(listed.setAside[0]!.message).toContain('The record of an import import-broken-00000000');
    expect(listed.jobs).toHaveLength(listedBefore);
    const names = await readdir(folder);
    expect(names.some((n) => n.startsWith('import-broken-00000000.json.unreadable-'))).toBe(true);
    // Said once: the next listing has nothing more to set aside.
    expect((await stopped(restarted)).setAside).toEqual([]);
  }, 60_000);
});
