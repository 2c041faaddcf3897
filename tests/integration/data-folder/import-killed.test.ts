import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CoreContext } from '../../../src/main/core/context';
import { shutdownCore } from '../../../src/main/create-core';
import { TEMP_FILE } from '../../../src/main/files/atomic-file';
import { dataFolder } from '../../../src/main/files/data-folder';
import { jobHandlers } from '../../../src/main/ipc/handlers/jobs';
import { transferHandlers } from '../../../src/main/ipc/handlers/transfer';
import {
  coreOn,
  localKeys,
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
 * kill -9 in the middle of an import: the real core imports a file in a child process, which is
 * killed with SIGKILL while one of its writes is held on the way to DynamoDB Local (so the kill
 * lands mid-import on every run, however loaded the machine). A new core on the same data folder
 * is the restart: it removes what the killed process left half-written, lists the import as
 * interrupted and resumable, and its Resume leaves exactly the file's items (a raw Scan).
 */
const root = path.resolve(__dirname, '../../..');
/** Ten chunks of 200 lines; the child is killed in the third (see the held write below). */
const LINES = 2_000;
let dataDir: string;
let proxy: FaultyDynamo;
let restarted: CoreContext | undefined;
let restoreKeys: () => void;

beforeAll(async () => {
  // The saved connection uses the default chain, as a CI job's would: keys from the environment.
  restoreKeys = useLocalKeys();
  dataDir = mkdtempSync(path.join(tmpdir(), 'dynotable-killed-import-'));
  proxy = await startFaultyDynamo(inject('dynamoEndpoint'));
});

afterAll(async () => {
  restoreKeys();
  if (restarted) await shutdownCore(restarted);
  await proxy.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Payload = { id: string; line: number; state: string };

/** The import's record as the child last saved it, once it says a line was written. */
async function recordPastLineZero(folder: string): Promise<Payload | undefined> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const name = names.find((n) => /^import-.*\.json$/.test(n));
  if (!name) return undefined;
  const text = await readFile(path.join(folder, name), 'utf8').catch(() => '');
  try {
    const { payload } = JSON.parse(text) as { payload: Payload };
    return payload.line > 0 ? payload : undefined;
  } catch {
    return undefined;
  }
}

async function tempFiles(): Promise<string[]> {
  const names = await readdir(dataDir, { recursive: true });
  return names.filter((n) => TEMP_FILE.test(path.basename(n)));
}

describe('an import killed with SIGKILL', () => {
  it("leaves no temp file after the restart, shows as interrupted and resumable, and resumes to exactly the file's items", async () => {
    const client = localClient(inject('dynamoEndpoint'));
    const table = await createTable(client, uniqueTableName('killimport'), { partitionKey: ['pk', 'S'] });
    client.destroy();
    const file = path.join(dataDir, 'items.jsonl');
    writeFileSync(
      file,
      Array.from({ length: LINES }, (_, i) =>
        JSON.stringify({ pk: { S: `K#${i}` }, n: { N: String(i) } }),
      ).join('\n'),
    );
    // The connection the child finds in the data folder; writes reach DynamoDB Local through the proxy.
    const setup = coreOn(dataDir);
    const connection = await saveLocalConnection(setup, proxy.endpoint);
    await shutdownCore(setup);

    // The 401st put of the table (the third chunk's first; "new items only" puts one item at a
    // time) is held, and the child is killed while it waits: two chunks' counts are in its record
    // by then (saved when their second is up), at any speed, and the file can be small.
    const held = proxy.holdOne({ operation: 'PutItem', after: 400, bodyIncludes: table });
    const child = spawn(
      process.execPath,
      // tsx as a loader, not its CLI: the CLI runs the script in a grandchild the kill would miss.
      [
        '--import',
        'tsx',
        path.join(root, 'tests/support/import-child.ts'),
        dataDir,
        connection.id,
        table,
        file,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...localKeys } },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    const folder = dataFolder.jobs(dataDir, 'import');
    const saved = await Promise.race([
      until(() => recordPastLineZero(folder), 'the import to record a line written'),
      exited.then(() => {
        throw new Error(`the import child ended before it recorded a line: ${output}`);
      }),
    ]);
    expect(saved.state).toBe('running');

    await Promise.race([
      held.reached,
      exited.then(() => {
        throw new Error(`the import child ended before the held write: ${output}`);
      }),
    ]);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    held.release();
    proxy.heal();
    expect(output).not.toContain('finished');

    // What a write cut off by the kill leaves: the record's temp file under the killed pid, half written.
    const record = path.join(folder, `${saved.id}.json`);
    const leftover = path.join(folder, `.${saved.id}.json.${child.pid}-0123456789ab.tmp`);
    await writeFile(leftover, (await readFile(record, 'utf8')).slice(0, 40));
    expect((await tempFiles()).length).toBeGreaterThan(0);

    restarted = coreOn(dataDir);
    const ctx = restarted;
    await until(async () => ((await tempFiles()).length === 0 ? true : undefined), 'the temp files to go');
    expect(await tempFiles()).toEqual([]);

    const listed = await jobHandlers['jobs:stopped']({ connectionId: connection.id }, ctx);
    expect(listed.setAside).toEqual([]);
    const job = listed.jobs.find((j) => j.id === saved.id);
    expect(job).toMatchObject({ kind: 'import', table, state: 'interrupted', canResume: true });
    expect(job?.sentence).toMatch(
      new RegExp(
        `^The import of items\\.jsonl into ${table} stopped when DynoTable closed\\. Lines 1–[\\d,]+ of the file are done: [\\d,]+ items written, 0 already in the table, 0 with problems\\. Resume goes on at line`,
      ),
    );
    const stoppedAt = (JSON.parse(await readFile(record, 'utf8')) as { payload: Payload }).payload.line;
    expect(stoppedAt).toBeGreaterThan(0);
    expect(stoppedAt).toBeLessThan(LINES);

    const requestId = 'killed-import-resumed';
    const end = operationEnded(ctx, requestId);
    expect(
      await transferHandlers['transfer:resumeImport'](
        { connectionId: connection.id, table, requestId, jobId: saved.id },
        ctx,
      ),
    ).toEqual({ started: true });
    const event = await end;
    expect(event.type).toBe('done');
    const report = (event as { value?: { total: number; invalid: number; failed: number } }).value;
    // It read only the lines after the one the record reached.
    expect(report).toMatchObject({ total: LINES - stoppedAt, invalid: 0, failed: 0 });

    const stored = (await rawScanItems(inject('dynamoEndpoint'), table)) as {
      pk: { S: string };
      n: { N: string };
    }[];
    const byKey = new Map(stored.map((item) => [item.pk.S, item.n.N]));
    expect(stored).toHaveLength(LINES);
    for (let i = 0; i < LINES; i++) expect(byKey.get(`K#${i}`)).toBe(String(i));
    // Finished, it keeps no record and lists nothing.
    expect((await jobHandlers['jobs:stopped']({ connectionId: connection.id }, ctx)).jobs).toEqual([]);
    expect(await readdir(folder)).toEqual([]);
  }, 300_000);
});
