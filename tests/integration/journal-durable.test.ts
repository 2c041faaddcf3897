import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { journalHandlers } from '../../src/main/ipc/handlers/journal';
import { journalFolder, journalPairs, startJournalEntry } from '../../src/main/journal/journal-files';
import type { JournalEntry, JournalLimits, UndoReport } from '../../src/shared/ipc/journal';
import { rawPutAll } from '../support/copy-oracle';
import { createItemsTable, itemsHarness, type ItemsHarness } from '../support/items-context';
import { canonical, rawScanItems } from '../support/raw-dynamo';

/**
 * The journal on disk: bounded by the user's settings, readable after a crash, and honest
 * about a file it cannot read. The oracle for the killed job is DynamoDB Local's raw wire JSON.
 */
const root = path.resolve(__dirname, '../..');
const endpoint = () => inject('dynamoEndpoint');
let dataDir: string;
let h: ItemsHarness;
let ids = 0;

interface Listing {
  entries: JournalEntry[];
  limits?: JournalLimits;
  limitsProblem?: string;
  setAside?: { file: string; reason: string }[];
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'dynotable-journal-durable-'));
  h = itemsHarness(endpoint(), journalHandlers);
  (h.ctx as { dataDir: string }).dataDir = dataDir;
});
afterAll(async () => {
  await h.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function list(connectionId: string): Promise<Listing> {
  const answer = await h.call<Listing>('journal:list', { connectionId });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value;
}

/** One finished entry of `count` items, written as a commit would write it. */
async function entry(connectionId: string, table: string, count = 1): Promise<JournalEntry> {
  const writer = startJournalEntry(dataDir, connectionId, {
    table,
    action: 'commit',
    source: 'grid',
    reason: 'Committed staged changes',
  });
  await writer.add(
    Array.from({ length: count }, (_, i) => ({
      key: { pk: { S: `k${i}` } },
      before: { pk: { S: `k${i}` }, v: { N: '1' } },
      after: { pk: { S: `k${i}` }, v: { N: '2' } },
    })),
  );
  const finished = await writer.finish();
  if (!finished) throw new Error('nothing journaled');
  return finished;
}

async function settings(text: string | undefined): Promise<void> {
  const file = path.join(dataDir, 'journal', 'settings.json');
  if (text === undefined) await rm(file, { force: true });
  else await writeFile(file, text);
}

describe('the undo journal on disk', () => {
  it('keeps the entries within the bounds set in journal/settings.json, the defaults without it', async () => {
    const connection = `bounds${++ids}`;
    await settings(undefined);
    const first = await entry(connection, 't');
    expect((await list(connection)).limits).toEqual({ maxEntries: 200, maxAgeDays: 30, maxMegabytes: 500 });

    await settings(JSON.stringify({ maxEntries: 2 }));
    const second = await entry(connection, 't');
    const third = await entry(connection, 't');
    const listed = await list(connection);
    expect(listed.limits).toMatchObject({ maxEntries: 2, maxAgeDays: 30 });
    expect(listed.entries.map((e) => e.id)).toEqual([third.id, second.id]);
    // Gone from the disk too, not only from the list.
    expect(await readdir(journalFolder(dataDir, connection))).not.toContain(`${first.id}.jsonl`);

    // An entry older than the age bound goes at the next list.
    await settings(JSON.stringify({ maxAgeDays: 1 }));
    const summary = path.join(journalFolder(dataDir, connection), `${second.id}.json`);
    const old = JSON.parse(await readFile(summary, 'utf8')) as JournalEntry;
    await writeFile(
      summary,
      JSON.stringify({ ...old, at: new Date(Date.now() - 2 * 86_400_000).toISOString() }),
    );
    expect((await list(connection)).entries.map((e) => e.id)).toEqual([third.id]);

    // A typo is said, and the defaults hold meanwhile.
    await settings('{"maxEntries": 0}');
    const typo = await list(connection);
    expect(typo.limits).toMatchObject({ maxEntries: 200 });
    expect(typo.limitsProblem).toMatch(/"maxEntries".*default bounds\.$/);
    await settings(undefined);
  });

  it('sets an unreadable entry aside with a sentence, keeps its files, and lists the rest', async () => {
    const connection = `aside${++ids}`;
    const good = await entry(connection, 't');
    const bad = await entry(connection, 't', 3);
    const folder = journalFolder(dataDir, connection);
    await writeFile(path.join(folder, `${bad.id}.json`), '{"id": "cut sh');
    const listed = await list(connection);
    expect(listed.entries.map((e) => e.id)).toEqual([good.id]);
    expect(listed.setAside).toEqual([
      {
        file: path.join(folder, 'set-aside', `${bad.id}.json`),
        reason: expect.stringMatching(
          /could not be read \(it is not valid JSON\), so it was set aside/,
        ) as unknown,
      },
    ]);
    // Kept, never emptied: the items are still there to look at.
    const items = await readFile(path.join(folder, 'set-aside', `${bad.id}.jsonl`), 'utf8');
    expect(items.trim().split('\n')).toHaveLength(3);
    // Said again on the next list, not only once.
    expect((await list(connection)).setAside).toHaveLength(1);
  });

  it('completes an entry a killed run left, also one that had the pid this run has now', async () => {
    const connection = `restart${++ids}`;
    const folder = journalFolder(dataDir, connection);
    await mkdir(folder, { recursive: true });
    const id = 'jzz0000000000001';
    const pair = (k: string) => ({
      key: { pk: { S: k } },
      before: { pk: { S: k } },
      after: { pk: { S: k }, v: { N: '1' } },
    });
    // A container restart may hand the app its killed run's pid: the run token tells them apart.
    const head = { entry: { table: 't', action: 'bulk-update', pid: process.pid, run: 'an-earlier-run' } };
    const pending = [
      head,
      pair('landed'),
      pair('in-flight'),
      { key: { pk: { S: 'refused' } }, before: null, after: null },
    ];
    pending.push({ key: { pk: { S: 'refused' } }, isRefused: true } as never);
    await writeFile(
      path.join(folder, `${id}.pending.jsonl`),
      pending.map((l) => `${JSON.stringify(l)}\n`).join(''),
    );
    await writeFile(path.join(folder, `${id}.jsonl`), `${JSON.stringify(pair('landed'))}\n`);
    const listed = await list(connection);
    expect(listed.entries).toMatchObject([
      { id, table: 't', action: 'bulk-update', count: 2, isInterrupted: true },
    ]);
    const lines = [];
    for await (const chunk of journalPairs(dataDir, connection, id)) lines.push(...chunk);
    expect(lines.map((l) => [l.key.pk, l.isUnconfirmed ?? false])).toEqual([
      [{ S: 'landed' }, false],
      [{ S: 'in-flight' }, true],
    ]);
    expect(await readdir(folder)).not.toContain(`${id}.pending.jsonl`);
  });

  it('after a bulk job is killed mid-way, holds every write that landed and none that did not', async () => {
    const table = await createItemsTable(h.client, { prefix: 'killed' });
    const count = 1500;
    const original = Array.from({ length: count }, (_, i) => ({
      pk: { S: `ITEM#${String(i).padStart(4, '0')}` },
      status: { S: 'open' },
      note: { S: `n${i}` },
    }));
    await rawPutAll(endpoint(), table, original);
    const originalText = new Map(original.map((i) => [i.pk.S, canonical(i)]));
    const isChanged = (item: Record<string, unknown>) => (item.status as { S: string }).S === 'closed';

    const child = spawn(
      process.execPath,
      // tsx as a loader, not its CLI: the CLI runs the script in a second process, which the
      // kill would leave running.
      [
        '--import',
        'tsx',
        path.join(root, 'tests/support/bulk-child.ts'),
        endpoint(),
        dataDir,
        table,
        String(count),
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_c, signal) => resolve(signal)),
    );
    // Killed once some writes have landed, while more are in flight.
    for (;;) {
      const changed = (await rawScanItems(endpoint(), table)).filter(isChanged).length;
      if (changed >= 100) break;
      if (child.exitCode !== null) throw new Error(`the bulk child ended early: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const stored = new Map(
      (await rawScanItems(endpoint(), table)).map((i) => [(i.pk as { S: string }).S, i]),
    );
    const changed = [...stored.values()].filter(isChanged).map((i) => (i.pk as { S: string }).S);
    expect(changed.length).toBeGreaterThanOrEqual(100);
    expect(changed.length).toBeLessThan(count);

    const listed = await list('local');
    const interrupted = listed.entries.find((e) => e.table === table);
    expect(interrupted).toMatchObject({ action: 'bulk-update', isInterrupted: true });
    const lines = [];
    for await (const chunk of journalPairs(dataDir, 'local', interrupted!.id)) lines.push(...chunk);
    const byKey = new Map(lines.map((p) => [(p.key.pk as { S: string }).S, p]));
    expect(byKey.size).toBe(lines.length);
    // Nothing missed: every item the job changed has its line, with the item as it was before.
    for (const key of changed) expect(canonical(byKey.get(key)?.before)).toBe(originalText.get(key));
    // Nothing invented: the writes in flight when the job was killed were read back when the
    // journal was listed, so every line is a write that landed, none left unconfirmed.
    expect(lines).toHaveLength(changed.length);
    for (const pair of lines) {
      expect(pair.isUnconfirmed).toBeUndefined();
      expect(canonical(stored.get((pair.key.pk as { S: string }).S))).toBe(canonical(pair.after));
    }

    const requestId = `undo_killed_${Date.now()}`;
    const done = h.waitFor(requestId);
    const started = await h.call('journal:undo', {
      connectionId: 'local',
      entryId: interrupted!.id,
      requestId,
    });
    if (!started.ok) throw new Error(started.error.message);
    const { last } = await done;
    const report = (last.type === 'done' ? last.value : undefined) as UndoReport;
    expect(report).toMatchObject({
      restored: lines.length,
      alreadyRestored: 0,
      conflicts: 0,
      failed: 0,
    });
    const after = await rawScanItems(endpoint(), table);
    expect(new Map(after.map((i) => [(i.pk as { S: string }).S, canonical(i)]))).toEqual(originalText);
    // The pending record is gone once the entry was completed from it.
    const names = await readdir(journalFolder(dataDir, 'local'));
    expect(names.filter((n) => n.endsWith('.pending.jsonl'))).toEqual([]);
    expect((await stat(path.join(journalFolder(dataDir, 'local'), `${interrupted!.id}.json`))).isFile()).toBe(
      true,
    );
  }, 120_000);
});
