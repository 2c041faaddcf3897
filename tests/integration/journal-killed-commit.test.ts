import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { journalHandlers } from '../../src/main/ipc/handlers/journal';
import { journalFolder, journalPairs, type JournalPair } from '../../src/main/journal/journal-files';
import type { JournalEntry, UndoReport } from '../../src/shared/ipc/journal';
import { rawPutAll } from '../support/copy-oracle';
import { startFaultyDynamo, type FaultRule, type FaultyDynamo } from '../support/faulty-dynamo';
import { createItemsTable, itemsHarness, type ItemsHarness } from '../support/items-context';
import { canonical, rawScanItems } from '../support/raw-dynamo';

/**
 * A grid commit killed with SIGKILL while a request is held at a chosen point — before a
 * transaction reaches DynamoDB, after DynamoDB applied it but before its answer came back, and
 * after every transaction landed but before the entry was finished — then the journal listed by
 * a fresh process on the same data folder. The oracle is DynamoDB Local's raw wire JSON: the
 * entry holds a line for exactly the items the commit changed, each with the item as it was,
 * and its undo restores the table byte for byte.
 */
const root = path.resolve(__dirname, '../..');
const endpoint = () => inject('dynamoEndpoint');
let dataDir: string;
let h: ItemsHarness;
let proxy: FaultyDynamo;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'dynotable-killed-commit-'));
  h = itemsHarness(endpoint(), journalHandlers);
  (h.ctx as { dataDir: string }).dataDir = dataDir;
  proxy = await startFaultyDynamo(endpoint());
});
afterAll(async () => {
  await proxy.close();
  await h.close();
  await rm(dataDir, { recursive: true, force: true });
});

const pk = (item: Record<string, unknown> | null | undefined) => (item?.pk as { S: string } | undefined)?.S;

/**
 * Commits `count` changes in a child process through the proxy, holds the call `rule` picks
 * at `point`, and kills the child there.
 */
async function killedCommit(
  count: number,
  rule: Omit<FaultRule, 'fault' | 'next' | 'beforeForward' | 'beforeAnswer'>,
  point: 'beforeForward' | 'beforeAnswer',
): Promise<{ table: string; original: Map<string, string> }> {
  const table = await createItemsTable(h.client, { prefix: 'killcommit' });
  const items = Array.from({ length: count }, (_, i) => ({
    pk: { S: `ITEM#${String(i).padStart(4, '0')}` },
    status: { S: 'open' },
    note: { S: `n${i}` },
  }));
  await rawPutAll(endpoint(), table, items);
  const held = proxy.holdOne({ ...rule, bodyIncludes: table }, point);
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'tests/support/commit-child.ts'),
      proxy.endpoint,
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
  await Promise.race([
    held.reached,
    exited.then(() => {
      throw new Error(`the commit child ended before the held call: ${stderr}`);
    }),
  ]);
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  held.release();
  proxy.heal();
  return { table, original: new Map(items.map((i) => [i.pk.S, canonical(i)])) };
}

/** The journal as the next start lists it, checked against what DynamoDB Local holds. */
async function expectJournalMatchesTable(table: string, original: Map<string, string>, changedCount: number) {
  const stored = new Map((await rawScanItems(endpoint(), table)).map((i) => [pk(i)!, i]));
  const changed = [...stored.values()].filter((i) => (i.status as { S: string }).S === 'closed');
  expect(changed).toHaveLength(changedCount);

  const listed = await h.call<{ entries: JournalEntry[] }>('journal:list', { connectionId: 'local', table });
  if (!listed.ok) throw new Error(listed.error.message);
  const entries = listed.value.entries;
  expect(entries).toHaveLength(1);
  const entry = entries[0]!;
  expect(entry).toMatchObject({ source: 'grid', action: 'commit', isInterrupted: true, count: changedCount });
  const lines: JournalPair[] = [];
  for await (const chunk of journalPairs(dataDir, 'local', entry.id)) lines.push(...chunk);
  // Nothing missed, nothing invented: one line per item the commit changed, each holding the
  // item as it was and as it is now, none left unconfirmed.
  expect(lines.map((l) => pk(l.key)).sort()).toEqual(changed.map((i) => pk(i)).sort());
  for (const line of lines) {
    expect(line.isUnconfirmed).toBeUndefined();
    expect(canonical(line.before)).toBe(original.get(pk(line.key)!));
    expect(canonical(line.after)).toBe(canonical(stored.get(pk(line.key)!)));
  }
  expect(
    (await readdir(journalFolder(dataDir, 'local'))).filter((n) => n.endsWith('.pending.jsonl')),
  ).toEqual([]);

  const requestId = `undo_${table}`;
  const done = h.waitFor(requestId);
  const started = await h.call('journal:undo', { connectionId: 'local', entryId: entry.id, requestId });
  if (!started.ok) throw new Error(started.error.message);
  const { last } = await done;
  expect(last.type === 'done' ? (last.value as UndoReport) : last).toMatchObject({
    restored: changedCount,
    alreadyRestored: 0,
    conflicts: 0,
    failed: 0,
  });
  const after = await rawScanItems(endpoint(), table);
  expect(new Map(after.map((i) => [pk(i)!, canonical(i)]))).toEqual(original);
}

describe('a grid commit killed mid-way', () => {
  it('before its second transaction reaches DynamoDB: journals the first, not the second', async () => {
    const { table, original } = await killedCommit(
      250,
      { operation: 'TransactWriteItems', after: 1 },
      'beforeForward',
    );
    await expectJournalMatchesTable(table, original, 100);
  }, 120_000);

  it('after DynamoDB applied its second transaction, before the answer came: journals both', async () => {
    const { table, original } = await killedCommit(
      250,
      { operation: 'TransactWriteItems', after: 1 },
      'beforeAnswer',
    );
    await expectJournalMatchesTable(table, original, 200);
  }, 120_000);

  it('after every transaction landed, while it read them back: journals all of them', async () => {
    const { table, original } = await killedCommit(250, { operation: 'BatchGetItem' }, 'beforeForward');
    await expectJournalMatchesTable(table, original, 250);
  }, 120_000);

  it('a single change, applied and its answer never heard: journals it', async () => {
    const { table, original } = await killedCommit(1, { operation: 'UpdateItem' }, 'beforeAnswer');
    await expectJournalMatchesTable(table, original, 1);
  }, 120_000);

  it('a single change killed before it reached DynamoDB: no entry at all', async () => {
    const { table } = await killedCommit(1, { operation: 'UpdateItem' }, 'beforeForward');
    const listed = await h.call<{ entries: JournalEntry[] }>('journal:list', {
      connectionId: 'local',
      table,
    });
    if (!listed.ok) throw new Error(listed.error.message);
    expect(listed.value.entries).toEqual([]);
    expect(await rawScanItems(endpoint(), table)).toMatchObject([{ status: { S: 'open' } }]);
  }, 120_000);
});
