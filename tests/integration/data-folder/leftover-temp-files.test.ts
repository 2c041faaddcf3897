import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from '../../../src/main/files/atomic-file';
import { removeLeftoverTempFiles } from '../../../src/main/core/data-files';
import { createCore, shutdownCore } from '../../../src/main/create-core';
import { createUnavailableSecretStore } from '../../../src/main/aws/secret-store';
import { CopyStore, newCopyId } from '../../../src/main/dynamo/copy/copy-checkpoint';
import { newCheckpoint } from '../../../src/main/dynamo/copy/copy-service';
import { dataFolder as folderOf } from '../../../src/main/files/data-folder';
import { JobStore } from '../../../src/main/jobs/job-store';
import { copyStartInput } from '../../../src/shared/ipc/copy';

const root = path.resolve(__dirname, '../../..');
const folders: string[] = [];
const dataFolder = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dynotable-tmpfiles-'));
  folders.push(dir);
  return dir;
};
afterEach(() => folders.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function tempFiles(dataDir: string): Promise<string[]> {
  const names = await readdir(dataDir, { recursive: true });
  return names.filter((n) => n.endsWith('.tmp'));
}

/** Starts the writer and kills it with SIGKILL while a temp file is on disk, as kill -9 does. */
async function killMidWrite(dataDir: string): Promise<void> {
  const child = spawn(
    process.execPath,
    // tsx as a loader, not its CLI: the CLI runs the script in a grandchild the kill would miss.
    ['--import', 'tsx', path.join(root, 'tests/support/atomic-write-loop.ts'), dataDir],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the writer ended on its own (exit ${code})`)));
  });
  // Killed the moment a temp file is seen; with 8 MB writes that is while it is being written.
  while ((await tempFiles(dataDir)).length === 0) await new Promise((r) => setImmediate(r));
  child.kill('SIGKILL');
  await exited;
}

describe('temp files of atomic writes', () => {
  it('a restart removes what a process killed with SIGKILL left, and the saved files still read', async () => {
    const dataDir = dataFolder();
    let leftovers: string[] = [];
    // A kill can land just after a rename; a few tries leave a temp file behind.
    for (let attempt = 0; attempt < 10 && leftovers.length === 0; attempt++) {
      await killMidWrite(dataDir);
      leftovers = await tempFiles(dataDir);
    }
    expect(leftovers.length).toBeGreaterThan(0);

    const removed = await removeLeftoverTempFiles(dataDir);

    expect(removed.map((p) => path.relative(dataDir, p)).sort()).toEqual(leftovers.sort());
    expect(await tempFiles(dataDir)).toEqual([]);
    // Whatever was renamed into place before the kill is whole.
    for (const name of ['workspace.json', 'jobs/copy/copy-kill-test.json']) {
      const text = await readFile(path.join(dataDir, name), 'utf8').catch(() => undefined);
      if (text !== undefined) expect(JSON.parse(text)).toMatchObject({ version: 1 });
    }
  }, 60_000);

  it("leaves a running process's temp file and the user's own files alone", async () => {
    const dataDir = dataFolder();
    const live = path.join(dataDir, `.workspace.json.${process.pid}-0123456789ab.tmp`);
    const mine = path.join(dataDir, 'notes.tmp');
    await writeFile(live, '{}');
    await writeFile(mine, 'keep me');
    await writeFileAtomic(path.join(dataDir, 'schema', 'x.summary.json'), '{}');

    expect(await removeLeftoverTempFiles(dataDir)).toEqual([]);
    expect((await tempFiles(dataDir)).sort()).toEqual([path.basename(live), 'notes.tmp'].sort());
  });

  it('starting a core removes a temp file left in a job folder; the checkpoint it shadows still resumes', async () => {
    const dataDir = dataFolder();
    const store = new CopyStore(new JobStore(dataDir));
    const { requestId: _r, ...settings } = copyStartInput.parse({
      requestId: 'tmp-sweep',
      source: { connectionId: 'local', table: 'Orders' },
      target: { connectionId: 'local', table: 'OrdersCopy' },
    });
    const checkpoint = { ...newCheckpoint(newCopyId(), settings), state: 'stopped' as const };
    await store.save(checkpoint);
    const folder = folderOf.jobs(dataDir, 'copy');
    // What a writer killed mid-save leaves beside the record: a temp file no running process will rename.
    const leftover = path.join(folder, `.${checkpoint.copyId}.json.0123456789ab.tmp`);
    await writeFile(leftover, '{"half":');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(leftover, anHourAgo, anHourAgo);

    const core = createCore({
      mode: 'browser',
      version: 'test',
      dataDir,
      secrets: createUnavailableSecretStore(),
      openUrl: () => Promise.resolve(),
    });
    try {
      await vi.waitFor(async () => expect(await readdir(folder)).toEqual([`${checkpoint.copyId}.json`]));
      expect(await new CopyStore(new JobStore(dataDir)).load(checkpoint.copyId)).toMatchObject({
        copyId: checkpoint.copyId,
        state: 'stopped',
      });
    } finally {
      await shutdownCore(core);
    }
  });
});
