import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FileChooser, type FileDialog } from '../../src/main/files/file-chooser';
import { journalHandlers } from '../../src/main/ipc/handlers/journal';
import { migrationHandlers } from '../../src/main/ipc/handlers/migration';
import { transferHandlers } from '../../src/main/ipc/handlers/transfer';
import { readDynamooseSchema } from '../../src/main/migration/dynamoose-schema';
import type { JournalEntry } from '../../src/shared/ipc/journal';
import type { FixPlanSummary, FixResult, MigrationReport } from '../../src/shared/ipc/migration';
import type { KeptDynamooseFile } from '../../src/shared/ipc/migration-dynamoose';
import { ormModelOfDynamoose } from '../../src/shared/schema/orm-from-dynamoose';
import { runCli } from '../support/cli-run';
import { uniqueTableName } from '../support/dynamo-local';
import { KEYS, PLAN, writeAllReleases } from '../support/dynamoose-releases';
import { itemsHarness, type ItemsHarness } from '../support/items-context';
import { canonical, rawScanItems } from '../support/raw-dynamo';

// Issue 29 items 2 and 3 in the app: the dynamoose schema file given to the Pre-flight view, the
// review it shows before and after a scan, and the rewrites `fix-migration --bool-path` and
// friends make, run from the app's one fix (staged, conditional, journaled) — on a table the real
// dynamoose 0.8.7, 1.11.1, 2.8.8 and 4.2.0 wrote.
const endpoint = inject('dynamoEndpoint');
const table = uniqueTableName('migdyn');
const file = path.join(import.meta.dirname, '../fixtures/dynamoose/releases-models.js');
const ref = { connectionId: 'local', table };
let h: ItemsHarness;
let picked: string | undefined;
const dialog: FileDialog = {
  open: () => Promise.resolve(picked),
  save: () => Promise.resolve(undefined),
  openFolder: () => Promise.resolve(undefined),
};

type Wire = Record<string, Record<string, unknown>>;
const idOf = (item: Wire) => `${String(item.pk?.S)}|${String(item[KEYS.sk]?.N)}`;
const prefixed = (items: Wire[], prefix: string) =>
  items.filter((i) => String(i.pk?.S).startsWith(`${prefix}#`));

beforeAll(async () => {
  h = itemsHarness(endpoint, { ...migrationHandlers, ...transferHandlers, ...journalHandlers });
  (h.ctx as { files: FileChooser }).files = new FileChooser(dialog);
  await writeAllReleases(h.client, endpoint, table);
}, 180_000);
afterAll(async () => {
  await h.close();
});

async function ok<T>(channel: string, payload: unknown): Promise<T> {
  const envelope = await h.call<T>(channel, payload);
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`);
  return envelope.value;
}

async function operation<T>(channel: string, payload: object): Promise<T> {
  const requestId = `req_migdyn_${Date.now()}_${Math.random().toString(36).slice(2)}`;
  const done = h.waitFor(requestId);
  await ok(channel, { ...payload, requestId });
  const last = (await done).last;
  if (last.type !== 'done') throw new Error(`${channel} ended ${last.type}`);
  return last.value as T;
}

async function scanReport(): Promise<MigrationReport> {
  const { scanId } = await operation<{ scanId: string }>('migration:scan', { ...ref, segments: 3 });
  return ok<MigrationReport>('migration:report', { scanId });
}

describe('a dynamoose schema file in the Pre-flight view', () => {
  it('shows what the file says at once, and every later scan checks the items against it as the CLI does', async () => {
    // Desktop: the system's dialog picks the file, main reads it; the page never sends a path.
    picked = file;
    const choice = await ok<{ fileId: string }>('files:choose', { purpose: 'dynamoose' });
    const { dynamoose } = await ok<{ dynamoose: KeptDynamooseFile }>('migration:useDynamoose', {
      ...ref,
      source: { fileId: choice.fileId },
    });
    expect(dynamoose.fileName).toBe('releases-models.js');
    expect(dynamoose.review.conformance).toEqual([]);
    expect(dynamoose.review.notes.map((n) => `${n.model}:${n.setting}:${n.path}`)).toEqual([
      'User:timestamps:',
      'User:expires:ttl',
      'Order:alias/map:last',
      'Order:Combine:fullName',
      'Order:timestamps:',
      'Order:saveUnknown:',
    ]);
    const text = await readFile(file, 'utf8');
    expect(dynamoose.review.ormModel).toBe(ormModelOfDynamoose(readDynamooseSchema(text, file), file));
    // Kept for the table: the view finds it again.
    expect((await ok<{ dynamoose: KeptDynamooseFile }>('migration:dynamoose', ref)).dynamoose).toEqual(
      dynamoose,
    );

    const report = await scanReport();
    const cli = await runCli(
      ['scan-migration', '--table', table, '--endpoint', endpoint, '--quiet', '--dynamoose-model', file],
      { AWS_REGION: 'us-east-1' },
    );
    const fromCli = JSON.parse(cli.stdout) as MigrationReport;
    // The same conformance, notes and behaviours as the CLI's, and the same staleCombine finding.
    expect(report.dynamoose?.conformance).toEqual(fromCli.dynamoose?.conformance);
    expect(report.dynamoose?.notes).toEqual(fromCli.dynamoose?.notes);
    expect(report.dynamoose?.behaviours).toEqual(fromCli.dynamoose?.behaviours);
    expect(report.findings?.find((f) => f.kind === 'staleCombine')?.items).toBe(PLAN.patchedOrders);

    // Declared Date storage against what is stored, tallied from a raw Scan: Post's sort key.
    const raw = (await rawScanItems(endpoint, table)) as Wire[];
    const posts = prefixed(raw, 'POST');
    const millis = posts.filter((p) => /^\d{13}$/.test(String(p[KEYS.sk]?.N))).length;
    expect(millis).toBe(PLAN.postsV1 + PLAN.postsV2);
    const stamp = report.dynamoose?.conformance.find((c) => c.model === 'Post' && c.path === 'timestamp');
    expect(stamp?.dates).toEqual({ iso: 0, millis, seconds: 0, other: 0 });
    expect(stamp?.problem).toBeUndefined();

    // Removed: the next scan does without it.
    await ok('migration:removeDynamoose', ref);
    expect((await ok<{ dynamoose: null }>('migration:dynamoose', ref)).dynamoose).toBeNull();
    expect((await scanReport()).dynamoose).toBeUndefined();
  }, 240_000);

  it('refuses a file that is not a dynamoose schema with a sentence, keeping the one in use', async () => {
    const used = await ok<{ dynamoose: KeptDynamooseFile }>('migration:useDynamoose', {
      ...ref,
      source: { name: 'models.js', text: await readFile(file, 'utf8') },
    });
    const refused = await h.call('migration:useDynamoose', {
      ...ref,
      source: { name: 'notes.js', text: 'export const x = 1;\n' },
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe('InvalidInput');
      expect(refused.error.message).toContain('notes.js has no dynamoose Schema({...})');
    }
    expect((await ok<{ dynamoose: KeptDynamooseFile }>('migration:dynamoose', ref)).dynamoose).toEqual(
      used.dynamoose,
    );
    await ok('migration:removeDynamoose', ref);
  });
});

describe("the app's fix rewrites what the older releases stored", () => {
  it('previews counts and before/after, writes through the journaled fix, leaves the rest byte-identical, then has nothing to do', async () => {
    const before = new Map(((await rawScanItems(endpoint, table)) as Wire[]).map((i) => [idOf(i), i]));
    const all = [...before.values()];
    const rewrites = {
      booleanPaths: ['active'],
      documentPaths: ['profile'],
      ttlToSeconds: true,
      setToListPaths: ['tags'],
    };
    const plan = await operation<FixPlanSummary>('migration:fixPlan', {
      ...ref,
      policy: 'review',
      segments: 2,
      ...rewrites,
    });
    // Oracle: the raw Scan's own tally of what each rewrite applies to.
    const strings = all.filter((i) => i.active?.S === 'true' || i.active?.S === 'false').length;
    const texts = all.filter((i) => typeof i.profile?.S === 'string').length;
    const ttlMs = all.filter((i) => /^\d{13}$/.test(String(i[KEYS.ttl]?.N))).length;
    const sets = all.filter((i) => i.tags?.SS !== undefined).length;
    expect([strings, texts, ttlMs, sets]).toEqual([
      PLAN.users + PLAN.upsertedUsers,
      PLAN.users,
      PLAN.msSessions,
      PLAN.postsV1,
    ]);
    const byPath = new Map(plan.rewritesByPath?.map((r) => [r.path, r.values]));
    expect(Object.fromEntries(byPath)).toEqual({ active: strings, profile: texts, ttl: ttlMs, tags: sets });
    expect(plan.rewrites).toBe(strings + texts + ttlMs + sets);
    const sample = plan.sampleChanges?.find((c) => c.path === 'active');
    expect(sample?.before).toEqual({ S: expect.stringMatching(/^(true|false)$/) as string });
    expect(sample?.after).toEqual({ BOOL: (sample?.before as { S: string }).S === 'true' });
    const profile = plan.sampleChanges?.find((c) => c.path === 'profile');
    expect(profile?.after).toMatchObject({ M: { city: { S: 'Madrid' } } });
    // Nothing is written by the dry run.
    for (const raw of (await rawScanItems(endpoint, table)) as Wire[])
      expect(canonical(raw)).toBe(canonical(before.get(idOf(raw))));

    const result = await operation<FixResult>('migration:fixRun', {
      connectionId: 'local',
      planId: plan.planId,
      writesPerSecond: 500,
    });
    expect(result).toMatchObject({ state: 'done', written: plan.updates, skippedChanged: 0, failed: 0 });
    // Kept for undo: History lists the run as the pre-flight fix's entry.
    const { entries } = await ok<{ entries: JournalEntry[] }>('journal:list', ref);
    const entry = entries.find((e) => e.id === result.journalId);
    expect(entry?.source).toBe('fix');

    for (const raw of (await rawScanItems(endpoint, table)) as Wire[]) {
      const old = before.get(idOf(raw)) as Wire;
      const expected: Wire = { ...old };
      if (old.active?.S !== undefined) expected.active = { BOOL: old.active.S === 'true' };
      if (typeof old.profile?.S === 'string') delete expected.profile;
      const ttl = old[KEYS.ttl]?.N;
      if (typeof ttl === 'string' && ttl.length === 13)
        expected[KEYS.ttl] = { N: String(Math.floor(Number(ttl) / 1000)) };
      if (old.tags?.SS !== undefined) delete expected.tags;
      expect(Object.keys(raw).sort()).toEqual(Object.keys(old).sort());
      for (const name of Object.keys(expected)) expect(canonical(raw[name])).toBe(canonical(expected[name]));
      if (typeof old.profile?.S === 'string')
        expect(raw.profile).toEqual({ M: { city: { S: 'Madrid' }, visits: expect.any(Object) as object } });
      if (old.tags?.SS !== undefined)
        expect(((raw.tags?.L ?? []) as { S: string }[]).map((e) => e.S).sort()).toEqual(
          [...(old.tags.SS as string[])].sort(),
        );
    }

    const again = await operation<FixPlanSummary>('migration:fixPlan', {
      ...ref,
      policy: 'review',
      ...rewrites,
    });
    expect(again).toMatchObject({ updates: 0, rewrites: 0, rewritesByPath: [], sampleChanges: [] });
  }, 240_000);
});
