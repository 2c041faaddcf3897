import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { journalHandlers } from '../../src/main/ipc/handlers/journal';
import { journalFolder, startJournalEntry } from '../../src/main/journal/journal-files';
import type { JournalEntry, JournalLimits } from '../../src/shared/ipc/journal';
import { itemsHarness, type ItemsHarness } from '../support/items-context';

/**
 * The journal on disk: bounded by the user's settings, readable after a crash, and honest
 * about a file it cannot read.
 */
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
  const writer = startJournalEntry(dataDir, connectionId, { table, action: 'commit' });
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
});
