import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CopyStore, newCopyId } from '../../../src/main/dynamo/copy/copy-checkpoint';
import { newCheckpoint } from '../../../src/main/dynamo/copy/copy-service';
import { copyHandlers } from '../../../src/main/ipc/handlers/copy';
import { dataFolder } from '../../../src/main/files/data-folder';
import { copyStartInput, type CopyList, type CopyReport } from '../../../src/shared/ipc/copy';
import { ourLines, runCli } from '../../support/cli-run';
import { crashedCopy as crashedCopyIn } from '../../support/copy-harness';
import { tableChecksum } from '../../support/copy-oracle';
import { itemsHarness, type ItemsHarness } from '../../support/items-context';

let h: ItemsHarness;
let endpoint: string;

beforeAll(() => {
  endpoint = inject('dynamoEndpoint');
  h = itemsHarness(endpoint, copyHandlers);
});
afterAll(() => h.close());

const copiesDir = () => dataFolder.jobs(h.ctx.dataDir, 'copy');

/** A crashed copy of 20 items, and its checkpoint's bytes. */
async function crashedCopy(): Promise<{ copyId: string; source: string; target: string; bytes: string }> {
  const crashed = await crashedCopyIn(h, endpoint, 20);
  const bytes = await readFile(path.join(copiesDir(), `${crashed.copyId}.json`), 'utf8');
  return { ...crashed, bytes };
}

async function plant(bytes: string): Promise<string> {
  const copyId = newCopyId();
  await writeFile(path.join(copiesDir(), `${copyId}.json`), bytes);
  return copyId;
}

async function kept(copyId: string): Promise<string[]> {
  return (await readdir(copiesDir())).filter((n) => n.startsWith(`${copyId}.json.unreadable-`));
}

async function list(): Promise<CopyList> {
  const answer = await h.call<CopyList>('copy:list', {});
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value;
}

describe('an unreadable copy checkpoint', () => {
  it('is set aside and named by copy:list, which still lists and resumes the other copies', async () => {
    const good = await crashedCopy();
    const other = await crashedCopy();
    const garbage = await plant('{"version":1,"copyId": nope');
    // A save cut short: the first half of a real checkpoint, naming its tables.
    // Cut past both table names (the record's envelope comes first), well before its end.
    const halfBytes = other.bytes.slice(0, Math.floor((other.bytes.length * 2) / 3));
    const half = await plant(halfBytes);

    const first = await list();

    expect(first.copies.map((c) => c.copyId)).toEqual(expect.arrayContaining([good.copyId, other.copyId]));
    expect(first.copies.some((c) => c.copyId === garbage || c.copyId === half)).toBe(false);
    const notices = first.setAside ?? [];
    expect(notices).toHaveLength(2);
    const aboutGarbage = notices.find((n) => n.file.endsWith(`${garbage}.json`));
    const aboutHalf = notices.find((n) => n.file.endsWith(`${half}.json`));
    expect(aboutGarbage?.message).toMatch(
      new RegExp(
        `^The checkpoint of copy ${garbage} \\(.*\\) could not be read: it is not valid JSON\\. DynoTable kept it unchanged as ${garbage}\\.json\\.unreadable-\\S+ in the same folder; it held 27 bytes\\. That copy can no longer be resumed`,
      ),
    );
    expect(aboutHalf?.message).toContain(
      'it ends in the middle, as a write cut short by a crash leaves a file',
    );
    expect(aboutHalf?.message).toContain(`it held a copy from ${other.source} to ${other.target}, `);
    // Kept byte for byte, and said once: the next listing has nothing more to set aside.
    expect(await readFile(path.join(copiesDir(), (await kept(garbage))[0]!), 'utf8')).toBe(
      '{"version":1,"copyId": nope',
    );
    expect(await readFile(path.join(copiesDir(), (await kept(half))[0]!), 'utf8')).toBe(halfBytes);
    expect((await list()).setAside).toBeUndefined();

    // The rest works: a listed copy resumes to the end.
    const done = h.waitFor('resume-beside-unreadable');
    expect(
      (await h.call('copy:resume', { requestId: 'resume-beside-unreadable', copyId: good.copyId })).ok,
    ).toBe(true);
    const { last } = await done;
    expect((last as { value: CopyReport }).value).toMatchObject({ itemsWritten: 20, complete: true });
    expect(await tableChecksum(endpoint, good.target)).toEqual(await tableChecksum(endpoint, good.source));
  });

  it('copy:resume of it answers the sentence, not InternalError, and keeps the file', async () => {
    const { copyId, bytes } = await crashedCopy();
    const cut = bytes.slice(0, 60);
    await writeFile(path.join(copiesDir(), `${copyId}.json`), cut);

    const answer = await h.call('copy:resume', { requestId: 'resume-unreadable', copyId });

    expect(answer).toMatchObject({ ok: false, error: { code: 'DataFileSetAside', retryable: false } });
    const message = answer.ok ? '' : answer.error.message;
    expect(message).toContain(`The checkpoint of copy ${copyId}`);
    expect(message).toContain('That copy can no longer be resumed');
    expect(await readFile(path.join(copiesDir(), (await kept(copyId))[0]!), 'utf8')).toBe(cut);
    expect((await list()).copies.some((c) => c.copyId === copyId)).toBe(false);
  });
});

describe('dynotable copy --list', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dynotable-resume-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  it('names an unreadable checkpoint on stderr and still lists the others', async () => {
    const store = new CopyStore(dataDir);
    const { requestId: _r, ...settings } = copyStartInput.parse({
      requestId: 'cli-listing',
      source: { connectionId: 'local', table: 'Orders' },
      target: { connectionId: 'local', table: 'OrdersCopy' },
    });
    const good = newCheckpoint(newCopyId(), settings);
    good.state = 'stopped';
    await store.save(good);
    const broken = newCopyId();
    // A checkpoint as the store before the job store left it, in copies/: converted on first use, and this one does not read.
    await mkdir(path.join(dataDir, 'copies'), { recursive: true });
    await writeFile(path.join(dataDir, 'copies', `${broken}.json`), 'garbage');

    const run = await runCli(['copy', '--list'], { DYNOTABLE_DATA_DIR: dataDir });

    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { copyId: string }[]).map((c) => c.copyId)).toEqual([good.copyId]);
    const [line, ...more] = ourLines(run.stderr);
    expect(more).toEqual([]);
    expect(line).toMatch(
      new RegExp(`^dynotable copy: The checkpoint of copy ${broken} .* it held 7 bytes\\.`),
    );
    expect(
      (await readdir(path.join(dataDir, 'copies'))).some((n) => n.startsWith(`${broken}.json.unreadable-`)),
    ).toBe(true);
  }, 60_000);
});
