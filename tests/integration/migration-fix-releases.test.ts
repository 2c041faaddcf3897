import { afterAll, describe, expect, inject, it } from 'vitest';
import type { MigrationReport } from '../../src/shared/ipc/migration';
import { runCli } from '../support/cli-run';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import {
  createReleasesTable,
  KEYS,
  PLAN,
  writeWith08,
  writeWith1,
  writeWith2,
  writeWith4,
} from '../support/dynamoose-releases';
import { canonical, rawScanItems } from '../support/raw-dynamo';

const endpoint = inject('dynamoEndpoint');
const client = localClient(endpoint);
afterAll(() => client.destroy());

const cli = (args: string[]) => runCli(args, { AWS_REGION: 'us-east-1' });
type Wire = Record<string, Record<string, unknown>>;
const idOf = (item: Wire) => `${String(item.pk?.S)}|${String(item[KEYS.sk]?.N)}`;

describe('fix-migration rewrites what dynamoose 0.8.7 and 4.2.0 stored', () => {
  it('"true"/"false" as BOOL and TTL ms as seconds, every other attribute byte-identical, then nothing to do', async () => {
    const table = uniqueTableName('fixrel');
    await createReleasesTable(client, endpoint, table);
    await writeWith08(endpoint, table);
    await writeWith4(endpoint, table);
    const before = new Map((await rawScanItems(endpoint, table)).map((i) => [idOf(i as Wire), i as Wire]));
    const at = ['--table', table, '--endpoint', endpoint, '--quiet'];

    const run = await cli(['fix-migration', ...at, '--bool-path', 'active', '--ttl-seconds']);
    expect(run.code).toBe(0);
    const done = JSON.parse(run.stdout) as { updates: number; rewrites: number; result: { written: number } };
    const users = PLAN.users + PLAN.upsertedUsers;
    expect(done).toMatchObject({ updates: users + PLAN.msSessions, rewrites: users + PLAN.msSessions });
    expect(done.result.written).toBe(users + PLAN.msSessions);

    const after = await rawScanItems(endpoint, table);
    expect(after).toHaveLength(before.size);
    for (const raw of after) {
      const item = raw as Wire;
      const old = before.get(idOf(item)) as Wire;
      const expected: Wire = { ...old };
      if (old.active?.S !== undefined) expected.active = { BOOL: old.active.S === 'true' };
      const ttl = old[KEYS.ttl]?.N;
      if (typeof ttl === 'string' && ttl.length === 13)
        expected[KEYS.ttl] = { N: String(Math.floor(Number(ttl) / 1000)) };
      // Each attribute as DynamoDB sends it: what was not rewritten is byte-identical.
      expect(Object.keys(item).sort()).toEqual(Object.keys(expected).sort());
      for (const name of Object.keys(expected)) expect(canonical(item[name])).toBe(canonical(expected[name]));
    }

    const scan = await cli(['scan-migration', ...at]);
    const kinds = (JSON.parse(scan.stdout) as MigrationReport).findings?.map((f) => f.kind) ?? [];
    expect(kinds).not.toContain('booleanAsString');
    expect(kinds).not.toContain('ttlMilliseconds');
    const again = await cli(['fix-migration', ...at, '--dry-run', '--bool-path', 'active', '--ttl-seconds']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ updates: 0, rewrites: 0, review: 0 });
  });
});

describe('fix-migration rewrites what dynamoose 1.11.1 and 2.8.8 stored at one path', () => {
  it('sets as lists at one path and lists as sets at another, the rest byte-identical, then nothing to do', async () => {
    const table = uniqueTableName('fixsets');
    await createReleasesTable(client, endpoint, table);
    await writeWith1(endpoint, table);
    await writeWith2(endpoint, table);
    const before = new Map((await rawScanItems(endpoint, table)).map((i) => [idOf(i as Wire), i as Wire]));
    const at = ['--table', table, '--endpoint', endpoint, '--quiet'];

    const run = await cli(['fix-migration', ...at, '--set-to-list', 'tags', '--list-to-set', 'scores']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ updates: PLAN.postsV1 + PLAN.postsV2, rewrites: 7 });

    const members = (v: Record<string, unknown> | undefined) =>
      JSON.stringify(
        (
          (v?.SS ??
            v?.NS ??
            (v?.L as { S?: string; N?: string }[] | undefined)?.map((e) => e.S ?? e.N)) as string[]
        )
          .slice()
          .sort(),
      );
    for (const raw of await rawScanItems(endpoint, table)) {
      const item = raw as Wire;
      const old = before.get(idOf(item)) as Wire;
      expect(Object.keys(item).sort()).toEqual(Object.keys(old).sort());
      for (const name of Object.keys(old)) {
        if (String(old.pk?.S).startsWith('POST#') && (name === 'tags' || name === 'scores')) {
          expect(Object.keys(item[name] as object)).toEqual([name === 'tags' ? 'L' : 'NS']);
          expect(members(item[name])).toBe(members(old[name]));
        } else expect(canonical(item[name])).toBe(canonical(old[name]));
      }
    }

    const scan = await cli(['scan-migration', ...at]);
    const kinds = (JSON.parse(scan.stdout) as MigrationReport).findings?.map((f) => f.kind) ?? [];
    expect(kinds).not.toContain('setListMix');
    const again = await cli([
      'fix-migration',
      ...at,
      '--dry-run',
      '--set-to-list',
      'tags',
      '--list-to-set',
      'scores',
    ]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ updates: 0, rewrites: 0, review: 0 });
  });
});

describe('fix-migration rewrites the JSON text dynamoose 0.8.7 stored', () => {
  it('maps and lists as M and L at the paths named, every other attribute byte-identical, then nothing to do', async () => {
    const table = uniqueTableName('fixdocs');
    await createReleasesTable(client, endpoint, table);
    await writeWith08(endpoint, table);
    const before = new Map((await rawScanItems(endpoint, table)).map((i) => [idOf(i as Wire), i as Wire]));
    const at = ['--table', table, '--endpoint', endpoint, '--quiet'];

    const run = await cli(['fix-migration', ...at, '--document-path', 'profile', '--document-path', 'tags']);
    expect(run.code).toBe(0);
    const done = JSON.parse(run.stdout) as { updates: number; rewrites: number; result: { written: number } };
    expect(done).toMatchObject({ updates: PLAN.users, rewrites: 2 * PLAN.users });
    expect(done.result.written).toBe(PLAN.users);

    // Oracle: JSON.parse of the text 0.8 stored, tagged the plain way (its numbers are small integers).
    const tag = (v: unknown): Record<string, unknown> => {
      if (typeof v === 'string') return { S: v };
      if (typeof v === 'number') return { N: String(v) };
      if (typeof v === 'boolean') return { BOOL: v };
      if (v === null) return { NULL: true };
      if (Array.isArray(v)) return { L: v.map(tag) };
      return { M: Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, tag(x)])) };
    };
    const after = await rawScanItems(endpoint, table);
    expect(after).toHaveLength(before.size);
    for (const raw of after) {
      const item = raw as Wire;
      const old = before.get(idOf(item)) as Wire;
      const expected: Wire = { ...old };
      for (const name of ['profile', 'tags'])
        if (typeof old[name]?.S === 'string') expected[name] = tag(JSON.parse(old[name].S));
      expect(Object.keys(item).sort()).toEqual(Object.keys(expected).sort());
      for (const name of Object.keys(expected)) expect(canonical(item[name])).toBe(canonical(expected[name]));
    }
    const scan = JSON.parse((await cli(['scan-migration', ...at])).stdout) as MigrationReport;
    expect(scan.findings?.filter((f) => f.kind === 'documentAsString')).toEqual([]);
    const again = await cli([
      'fix-migration',
      ...at,
      '--dry-run',
      '--document-path',
      'profile',
      '--document-path',
      'tags',
    ]);
    expect(JSON.parse(again.stdout)).toMatchObject({ updates: 0, rewrites: 0, review: 0 });
  });
});
