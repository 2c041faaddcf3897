import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeSchema } from '../../src/main/schema/analyze';
import { keepProtoNames } from '../../src/main/aws/proto-names';
import { adviceIndex } from '../../src/shared/schema/key-advice-text';
import type { KeyAdvice } from '../../src/shared/ipc/schema';
import type { ItemsHarness } from '../support/items-context';
import { localClient, startDynamoLocal, uniqueTableName, type LocalDynamo } from '../support/dynamo-local';
import { createSyntheticKeysTable } from '../support/synthetic-keys-table';
import { rawPutAll } from '../support/copy-oracle';
import { rawReadAll, rawScanItems } from '../support/raw-dynamo';
import { describeRaw, tableAdminHarness, updateThrough } from '../support/table-admin';

// Its own DynamoDB Local: adding a GSI backfills behind whatever else a shared instance is doing.
let local: LocalDynamo;
let h: ItemsHarness;
const table = uniqueTableName('advisor');
beforeAll(async () => {
  local = await startDynamoLocal();
  h = tableAdminHarness(local.endpoint);
  await createSyntheticKeysTable(local.endpoint, table);
  // Items outside GSI1 (no GSI1SK) that the advisor's count must tell apart by type: three hold
  // `seq` as a string (a number key would not take them), two lack `reg.ion`, two hold every
  // attribute of the proposed key with its type and would enter the new index.
  const outside = (n: number, parts: string) =>
    JSON.parse(`{"PK":{"S":"OUTSIDE#${n}"},"GSI1PK":{"S":"TENANT#t9#REGION#eu"},${parts}}`) as Record<
      string,
      unknown
    >;
  await rawPutAll(local.endpoint, table, [
    ...[0, 1, 2].map((n) =>
      outside(n, '"tenant":{"S":"t9"},"reg.ion":{"S":"eu"},"#day":{"S":"2026-01-01"},"seq":{"S":"x"}'),
    ),
    ...[3, 4].map((n) => outside(n, '"tenant":{"S":"t9"},"#day":{"S":"2026-01-01"},"seq":{"N":"1"}')),
    ...[5, 6].map((n) =>
      outside(n, '"tenant":{"S":"t9"},"reg.ion":{"S":"eu"},"#day":{"S":"2026-01-01"},"seq":{"N":"2"}'),
    ),
  ]);
});
afterAll(async () => {
  await h.close();
  await local.stop();
});

type Wire = Record<string, { S?: string; N?: string } | undefined>;
const text = (v: { S?: string; N?: string } | undefined) => v?.S ?? v?.N;
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** The advisor's counts, computed again from DynamoDB Local's own Scan of the table and the index. */
async function tally() {
  const stored = (await rawScanItems(local.endpoint, table)) as Wire[];
  const inIndex = (await rawScanItems(local.endpoint, table, 'GSI1')) as Wire[];
  const shaped = inIndex.filter(
    (i) =>
      /^TENANT#[^#]+#REGION#[^#]+$/.test(i.GSI1PK?.S ?? '') &&
      /^DAY#[^#]+#SEQ#[^#]+$/.test(i.GSI1SK?.S ?? ''),
  );
  const parts = (i: Wire) => [...(i.GSI1PK?.S ?? '').split('#'), ...(i.GSI1SK?.S ?? '').split('#')];
  const holds = (i: Wire, name: string, at: number) => text(i[name]) === parts(i)[at];
  const ready = shaped.filter(
    (i) => holds(i, 'tenant', 1) && holds(i, 'reg.ion', 3) && holds(i, '#day', 5) && holds(i, 'seq', 7),
  );
  const typed: [string, 'S' | 'N'][] = [
    ['tenant', 'S'],
    ['reg.ion', 'S'],
    ['#day', 'S'],
    ['seq', 'N'],
  ];
  // What a sparse index on the proposed key would newly hold: outside GSI1, every part typed.
  const newcomers = stored.filter(
    (i) =>
      (i.GSI1PK === undefined || i.GSI1SK === undefined) &&
      typed.every(([n, type]) => (type === 'S' ? i[n]?.S : i[n]?.N) !== undefined),
  );
  return {
    stored,
    inIndex,
    shaped,
    ready,
    missingRegion: shaped.filter((i) => !holds(i, 'reg.ion', 3)).length,
    newcomers,
    syntheticBytes: inIndex.reduce(
      (n, i) => n + bytes('GSI1PK') + bytes(i.GSI1PK?.S ?? '') + bytes('GSI1SK') + bytes(i.GSI1SK?.S ?? ''),
      0,
    ),
  };
}

describe('the advisor: synthetic GSI keys and the native multi-attribute index that replaces them', () => {
  let advice: KeyAdvice;

  it('finds GSI1PK/GSI1SK built from tenant, reg.ion, #day and seq, with counts a raw Scan confirms', async () => {
    const client = keepProtoNames(localClient(local.endpoint));
    const { report } = await analyzeSchema({
      client,
      table,
      mode: 'full',
      scanId: 'advisor-full-1',
      segments: 3,
      signal: new AbortController().signal,
    });
    client.destroy();
    const t = await tally();
    expect(report.keyAdvice).toHaveLength(1);
    advice = report.keyAdvice?.[0] as KeyAdvice;
    expect(advice.index).toBe('GSI1');
    expect(advice.partitionKeys).toEqual([
      { name: 'tenant', type: 'S' },
      { name: 'reg.ion', type: 'S' },
    ]);
    expect(advice.sortKeys).toEqual([
      { name: '#day', type: 'S' },
      { name: 'seq', type: 'N' },
    ]);
    expect(advice.replaces).toEqual([
      { attribute: 'GSI1PK', role: 'partition', template: 'TENANT#{tenant}#REGION#{reg.ion}' },
      { attribute: 'GSI1SK', role: 'sort', template: 'DAY#{#day}#SEQ#{seq}' },
    ]);
    expect(advice.indexItems).toBe(t.inIndex.length);
    expect(advice.shapeItems).toBe(t.shaped.length);
    expect(advice.readyItems).toBe(t.ready.length);
    expect(advice.backfill).toEqual([{ name: 'reg.ion', items: t.missingRegion }]);
    expect(advice.otherShapes).toBe(t.inIndex.length - t.shaped.length);
    expect(advice.newcomers).toBe(t.newcomers.length);
    expect(advice.newcomersAtMost).toBe(t.newcomers.length);
    expect(advice.bytesSaved).toBe(t.syntheticBytes);
    expect(advice.writeUnits.native).toBeLessThanOrEqual(advice.writeUnits.now);
    // The figures the test expects of the fixture, so a tally that drifted would show.
    expect([t.inIndex.length, t.shaped.length, t.ready.length, t.missingRegion, t.newcomers.length]).toEqual([
      40, 36, 30, 6, 7,
    ]);
  });

  it('creates the proposed index through table admin’s add-index path: DescribeTable lists every key in order', async () => {
    const added = await updateThrough(h, table, { kind: 'addIndex', index: adviceIndex(advice) });
    expect(added.result.summary.indexes.map((i) => i.name)).toContain(advice.proposedName);
    const described = await describeRaw(h, table);
    const created = described.GlobalSecondaryIndexes?.find((g) => g.IndexName === advice.proposedName);
    expect(created?.KeySchema).toEqual([
      { AttributeName: 'tenant', KeyType: 'HASH' },
      { AttributeName: 'reg.ion', KeyType: 'HASH' },
      { AttributeName: '#day', KeyType: 'RANGE' },
      { AttributeName: 'seq', KeyType: 'RANGE' },
    ]);
    // The native index answers what the synthetic key answered, for the items already backfilled.
    const native = await rawReadAll(local.endpoint, 'Query', {
      TableName: table,
      IndexName: advice.proposedName,
      KeyConditionExpression: '#t = :t AND #r = :r',
      ExpressionAttributeNames: { '#t': 'tenant', '#r': 'reg.ion' },
      ExpressionAttributeValues: { ':t': { S: 't1' }, ':r': { S: 'eu' } },
    });
    const synthetic = await rawReadAll(local.endpoint, 'Query', {
      TableName: table,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :p',
      ExpressionAttributeValues: { ':p': { S: 'TENANT#t1#REGION#eu' } },
    });
    const ids = (items: Record<string, unknown>[]) =>
      items
        .map((i) => text((i as Wire).PK))
        .filter((id) => !id?.includes('unindexed'))
        .sort();
    expect(ids(native)).toEqual(ids(synthetic.filter((i) => (i as Wire)['reg.ion'] !== undefined)));
    expect(ids(native).length).toBeGreaterThan(0);
  });
});
