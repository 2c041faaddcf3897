import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { MigrationReport } from '../../src/shared/ipc/migration';
import { readDynamooseSchema } from '../../src/main/migration/dynamoose-schema';
import { runMigrationScan } from '../../src/main/migration/scan-migration';
import { rawScanItems } from '../support/raw-dynamo';
import { runCli } from '../support/cli-run';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import {
  createReleasesTable,
  KEYS,
  orderKey,
  PLAN,
  userKey,
  writeAllReleases,
  writeClean4,
  writeWith08,
} from '../support/dynamoose-releases';
import { tallyTraps } from '../support/dynamoose-tally';

const endpoint = inject('dynamoEndpoint');
const client = localClient(endpoint);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-releases-'));
});
afterAll(async () => {
  client.destroy();
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { AWS_REGION: 'us-east-1' });
const byId = (report: MigrationReport) =>
  new Map((report.findings ?? []).map((f) => [`${f.kind}|${f.entity ?? ''}|${f.path}`, f.items]));

async function scan(table: string): Promise<MigrationReport> {
  const { report, complete } = await runMigrationScan({
    client,
    table,
    scanId: `scan-${table.slice(-12)}`,
    segments: 3,
    pageSize: 5,
    signal: new AbortController().signal,
  });
  expect(complete).toBe(true);
  return report;
}

describe('a table written by dynamoose 0.8.7, 1.11.1, 2.8.8 and 4.2.0', () => {
  const table = uniqueTableName('releases');
  let report: MigrationReport;

  beforeAll(async () => {
    await writeAllReleases(client, endpoint, table);
    report = await scan(table);
  });

  it('finds each trap with the counts an independent raw Scan tallies', async () => {
    const tally = await tallyTraps(
      endpoint,
      table,
      { pk: KEYS.pk, sk: KEYS.sk },
      Math.floor(Date.parse(report.startedAt) / 1000),
    );
    expect(byId(report)).toEqual(tally);
    // And what the releases were asked to do, so the oracle cannot agree on nothing.
    const users = PLAN.users + PLAN.upsertedUsers;
    const posts = PLAN.postsV1 + PLAN.postsV2;
    expect(Object.fromEntries(byId(report))).toEqual({
      'booleanAsString|USER|active': users,
      'documentAsString|POST|meta': PLAN.postsV1,
      'documentAsString|USER|profile': PLAN.users,
      'documentAsString|USER|tags': PLAN.users,
      'setListMix|POST|scores': PLAN.postsV1,
      'setListMix|POST|tags': PLAN.postsV1,
      'ttlMilliseconds|SESSION|ttl': PLAN.msSessions,
      'ttlNotNumber|SESSION|ttl': PLAN.isoSessions,
      'ttlMissing|ORDER|ttl': PLAN.upsertedOrders,
      'ttlMissing|USER|ttl': PLAN.upsertedUsers,
      'ttlExpiredPresent|USER|ttl': PLAN.expiredUsers,
      'dateLostToEmptyMap|ORDER|details.shippedAt': PLAN.orders,
      'upsertResidue|ORDER|address': PLAN.upsertedOrders,
      'upsertResidue|ORDER|createdAt': PLAN.upsertedOrders,
      'upsertResidue|ORDER|details': PLAN.upsertedOrders,
      'upsertResidue|USER|name': PLAN.upsertedUsers,
      'upsertResidue|USER|profile': PLAN.upsertedUsers,
      'upsertResidue|USER|tags': PLAN.upsertedUsers,
      'mapTruncated|ORDER|address.zip': PLAN.patchedOrders,
      'dottedKeyInMap|ORDER|details["gift.wrap"]': PLAN.orders,
      'keyAttributeDate||timestamp': posts,
    });
  });

  it("with the team's dynamoose schema file: stale Combine values and conformance, counted as a raw Scan counts them", async () => {
    const file = path.join(import.meta.dirname, '../fixtures/dynamoose/releases-models.js');
    const { report: withModel, complete } = await runMigrationScan({
      client,
      table,
      scanId: `scan-model-${table.slice(-12)}`,
      segments: 3,
      pageSize: 5,
      signal: new AbortController().signal,
      dynamoose: { file, models: readDynamooseSchema(await readFile(file, 'utf8'), file) },
    });
    expect(complete).toBe(true);
    const raw = (await rawScanItems(endpoint, table)) as Record<string, Record<string, string>>[];
    const of = (prefix: string) => raw.filter((i) => (i.pk?.S ?? '').startsWith(`${prefix}#`));
    // Oracle: dynamoose's own join (Item.js), sources present joined by ",".
    const stale = of('ORDER').filter(
      (i) => i.fullName && i.fullName.S !== [i.first?.S, i.last?.S].filter((v) => v !== undefined).join(','),
    );
    expect(stale).toHaveLength(PLAN.patchedOrders);
    expect(byId(withModel).get('staleCombine|ORDER|fullName')).toBe(stale.length);

    const row = (model: string, attr: string) =>
      withModel.dynamoose?.conformance.find((c) => c.model === model && c.path === attr);
    const tagsOf = (items: Record<string, Record<string, string>>[], attr: string) => {
      const tally: Record<string, number> = {};
      for (const item of items) {
        const value = item[attr];
        if (value) tally[Object.keys(value)[0] as string] = (tally[Object.keys(value)[0] as string] ?? 0) + 1;
      }
      return tally;
    };
    const users = of('USER');
    expect(row('User', 'active')).toMatchObject({
      items: users.length,
      stored: tagsOf(users, 'active'),
      mismatched: users.filter((u) => u.active && !('BOOL' in u.active)).length,
      problem: `${users.length} of ${users.length} items store a string where the model declares Boolean.`,
    });
    const posts = of('POST');
    expect(row('Post', 'tags')).toMatchObject({
      items: posts.length,
      stored: tagsOf(posts, 'tags'),
      mismatched: PLAN.postsV1,
      problem: `${PLAN.postsV1} of ${posts.length} items store a string set where the model declares Array.`,
    });
    expect(row('Order', 'last')).toMatchObject({
      required: true,
      present: PLAN.orders + PLAN.upsertedOrders,
    });
    expect(row('Order', 'last')?.problem).toBeUndefined();
    const notes = withModel.dynamoose?.notes.map((n) => `${n.model}:${n.setting}:${n.path}`);
    expect(notes).toEqual([
      'User:timestamps:',
      'User:expires:ttl',
      'Order:alias/map:last',
      'Order:Combine:fullName',
      'Order:timestamps:',
      'Order:saveUnknown:',
    ]);
    expect(withModel.dynamoose?.behaviours).toContain(
      "Expired items were hidden by dynamoose's reads; dynotable-orm returns them until DynamoDB deletes them.",
    );

    // The same through the CLI flag, and the Combine is a finding the gate counts.
    const run = await cli([
      'scan-migration',
      '--table',
      table,
      '--endpoint',
      endpoint,
      '--quiet',
      '--dynamoose-model',
      file,
    ]);
    expect(run.code).toBe(1);
    const fromCli = JSON.parse(run.stdout) as MigrationReport;
    expect(byId(fromCli).get('staleCombine|ORDER|fullName')).toBe(PLAN.patchedOrders);
    expect(fromCli.verdict.mustFix).toContain(
      `staleCombine at fullName on ${PLAN.patchedOrders} items of ORDER (acknowledge with --expect staleCombine:fullName)`,
    );
  });

  it('gives sample keys to open, and says in one sentence why each matters', () => {
    const findings = report.findings ?? [];
    const mix = findings.find((f) => f.kind === 'setListMix' && f.path === 'tags');
    expect(mix?.sampleKeys).toEqual([
      { pk: 'POST#0', timestamp: Date.UTC(2019, 0, 1) },
      { pk: 'POST#1', timestamp: Date.UTC(2019, 0, 2) },
      { pk: 'POST#2', timestamp: Date.UTC(2019, 0, 3) },
      { pk: 'POST#3', timestamp: Date.UTC(2019, 0, 4) },
    ]);
    expect(mix?.detail).toBe(
      '4 items hold a set (SS/NS, dynamoose 1.x [String]/[Number]) at tags while 3 items hold a list (L, 2.x and later arrays), so the new ORM fails validation on whichever form its model does not declare.',
    );
    const residue = findings.find((f) => f.kind === 'upsertResidue' && f.path === 'name');
    expect(residue?.sampleKeys).toEqual([userKey(PLAN.users), userKey(PLAN.users + 1)]);
    expect(findings.find((f) => f.kind === 'mapTruncated')?.sampleKeys).toEqual([orderKey(0), orderKey(1)]);
    for (const f of findings) {
      expect(f.detail).toMatch(/^\d[^]*\.$/);
      expect(f.detail.slice(0, -1)).not.toContain('. ');
    }
    expect(report.ttlAttribute).toBe(KEYS.ttl);
    expect(report.verdict.actionNeeded).toBe(true);
  });
});

describe('the CI gate counts the findings', () => {
  it('exits 1 while any finding is unacknowledged, 0 once --expect and the file acknowledge each', async () => {
    const table = uniqueTableName('gate08');
    await createReleasesTable(client, endpoint, table);
    await writeWith08(endpoint, table);
    const at = ['scan-migration', '--table', table, '--endpoint', endpoint, '--quiet'];
    const bare = await cli(at);
    expect(bare.code).toBe(1);
    const kinds = (JSON.parse(bare.stdout) as MigrationReport).findings?.map((f) => `${f.kind}:${f.path}`);
    expect(kinds).toEqual([
      'booleanAsString:active',
      'documentAsString:profile',
      'documentAsString:tags',
      'ttlMissing:ttl',
      'ttlExpiredPresent:ttl',
      'upsertResidue:name',
      'upsertResidue:profile',
      'upsertResidue:tags',
    ]);
    // 0.8 stored the TTL in epoch seconds: a Date setting, acknowledged the way it always was.
    const file = path.join(dir, 'expectations.json');
    await writeFile(
      file,
      JSON.stringify({
        table,
        dateStorage: [{ path: 'ttl', storage: 'seconds' }],
        findings: [
          { kind: 'documentAsString', path: 'profile' },
          { kind: 'documentAsString', path: 'tags' },
          { kind: 'ttlMissing', path: 'ttl' },
          { kind: 'ttlExpiredPresent', path: 'ttl' },
        ],
      }),
    );
    const flags = ['upsertResidue:name', 'upsertResidue:profile', 'upsertResidue:tags'].flatMap((e) => [
      '--expect',
      e,
    ]);
    const oneLeft = await cli([...at, '--expectations', file, ...flags]);
    expect(oneLeft.code).toBe(1);
    const left = JSON.parse(oneLeft.stdout) as MigrationReport;
    expect(left.verdict.mustFix).toEqual([
      'booleanAsString at active on 20 items of USER (acknowledge with --expect booleanAsString:active)',
    ]);
    expect(left.verdict.settings).toEqual([]);
    const all = await cli([...at, '--expectations', file, ...flags, '--expect', 'booleanAsString:active']);
    expect(all.code).toBe(0);
    expect((JSON.parse(all.stdout) as MigrationReport).verdict.acknowledgedFindings).toHaveLength(8);
  });

  it('a table written by dynamoose 4.2.0 with a matching schema has no finding and exits 0', async () => {
    const table = uniqueTableName('clean42');
    const count = await writeClean4(client, endpoint, table);
    const run = await cli(['scan-migration', '--table', table, '--endpoint', endpoint, '--quiet']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as MigrationReport;
    expect(report.itemsScanned).toBe(count);
    expect(report.findings).toEqual([]);
    expect(report.verdict.actionNeeded).toBe(false);
  });
});
