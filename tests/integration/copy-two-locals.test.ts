import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CopyReport } from '../../src/shared/ipc/copy';
import { everyTypeItem } from '../fixtures/items-every-type';
import { runCli, ourLines, type CliRun } from '../support/cli-run';
import { rawPutAll, rawScanAll, tableChecksum } from '../support/copy-oracle';
import { startDynamoLocal, uniqueTableName, type LocalDynamo } from '../support/dynamo-local';
import { canonical, rawDynamo } from '../support/raw-dynamo';

// Two DynamoDB Local processes on two ports, each side signing with its own AWS profile's keys
// (Local keeps one database per access key, so a side with the wrong keys sees no table). The
// target keeps its tables in files, so the test can kill it mid-copy and start it again. The
// oracle is both processes' raw wire JSON, read with each side's own key.
const SOURCE_KEY = 'SourceAccountKey';
const TARGET_KEY = 'TargetAccountKey';

let source: string;
let target: LocalDynamo;
let targetPort: number;
let dbPath: string;
let home: string;

/** Wire JSON parsed from text, so `__proto__` is an own attribute name, as DynamoDB sends it. */
const hostile = (n: number): Record<string, unknown> =>
  JSON.parse(
    `{"pk":{"S":"HOSTILE#${n}"},"sk":{"N":"${n}"},"__proto__":{"SS":["a","b"]},"constructor":{"M":{"__proto__":{"N":"1.50"},"toString":{"BOOL":true}}},"toString":{"L":[{"B":"AAE="}]},"valueOf":{"NULL":true},"a.b":{"S":"dot"},"#x":{"S":"hash"},"[0]":{"NS":["1","2"]}}`,
  ) as Record<string, unknown>;

/** A source table on A under the source account: every type, hostile names, a GSI, TTL. */
async function sourceTable(count: number): Promise<string> {
  const table = uniqueTableName('twosrc');
  await rawDynamo(
    source,
    'CreateTable',
    {
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'N' },
        { AttributeName: 'gpk', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byG',
          KeySchema: [{ AttributeName: 'gpk', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    },
    SOURCE_KEY,
  );
  await rawDynamo(
    source,
    'UpdateTimeToLive',
    { TableName: table, TimeToLiveSpecification: { Enabled: true, AttributeName: 'expiresAt' } },
    SOURCE_KEY,
  );
  const items: Record<string, unknown>[] = [
    { ...everyTypeItem('EVERY#1'), sk: { N: '1' } },
    { ...everyTypeItem('EVERY#2'), sk: { N: '-1E-130' } },
    hostile(1),
    hostile(2),
  ];
  for (let i = 0; i < count; i++)
    items.push({
      pk: { S: `USER#${i}` },
      sk: { N: String(i) },
      gpk: { S: `G#${i % 5}` },
      expiresAt: { N: '4102444800' },
      payload: { S: 'x'.repeat(300) },
    });
  await rawPutAll(source, table, items, SOURCE_KEY);
  return table;
}

/** The flags naming both sides: A under profile src, B under profile dst. */
const between = (from: string, to: string): string[] => [
  '--from-table',
  from,
  '--from-endpoint',
  source,
  '--to-table',
  to,
  '--to-endpoint',
  target.endpoint,
  '--create-table',
];

const copy = (args: string[]): Promise<CliRun> =>
  runCli(['copy', '--from-profile', 'src', '--to-profile', 'dst', '--quiet', ...args], {
    DYNOTABLE_DATA_DIR: path.join(home, 'data'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'credentials'),
    AWS_CONFIG_FILE: path.join(home, 'config'),
    AWS_ACCESS_KEY_ID: undefined,
    AWS_SECRET_ACCESS_KEY: undefined,
  });

beforeAll(async () => {
  source = inject('dynamoEndpoint');
  home = mkdtempSync(path.join(tmpdir(), 'dynotable-two-locals-'));
  dbPath = path.join(home, 'target-db');
  mkdirSync(dbPath);
  writeFileSync(
    path.join(home, 'credentials'),
    `[src]\naws_access_key_id = ${SOURCE_KEY}\naws_secret_access_key = SourceSecret\n[dst]\naws_access_key_id = ${TARGET_KEY}\naws_secret_access_key = TargetSecret\n`,
  );
  writeFileSync(
    path.join(home, 'config'),
    '[profile src]\nregion = us-east-1\n[profile dst]\nregion = us-east-1\n',
  );
  target = await startDynamoLocal({ dbPath });
  targetPort = Number(new URL(target.endpoint).port);
}, 90_000);

afterAll(async () => {
  await target.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('copy between two DynamoDB Local instances with different credentials', () => {
  it('creates the target with its GSI and TTL and holds exactly the source items, byte for byte', async () => {
    const from = await sourceTable(200);
    const to = uniqueTableName('twodst');
    const run = await copy([...between(from, to), '--segments', '3']);
    expect(ourLines(run.stderr)).toEqual([]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as CopyReport;
    expect(report).toMatchObject({ itemsRead: 204, itemsWritten: 204, itemsFailed: 0, created: true });
    expect(report.verified).toMatchObject({ sourceCount: 204, targetCount: 204, checksumsMatch: true });

    // The oracle: each process's raw wire JSON under its own account's key.
    const wanted = await tableChecksum(source, from, SOURCE_KEY);
    expect(wanted.count).toBe(204);
    expect(await tableChecksum(target.endpoint, to, TARGET_KEY)).toEqual(wanted);
    const stored = (await rawScanAll(target.endpoint, to, TARGET_KEY)).find(
      (item) => canonical(item.pk) === canonical({ S: 'HOSTILE#1' }),
    );
    expect(stored && Object.prototype.hasOwnProperty.call(stored, '__proto__')).toBe(true);
    expect(canonical(stored)).toBe(canonical(hostile(1)));

    // Written under the target account only: the source's key sees no such table on B.
    await expect(rawScanAll(target.endpoint, to, SOURCE_KEY)).rejects.toThrow(/ResourceNotFoundException/);
    const described = await rawDynamo<{
      Table: { GlobalSecondaryIndexes?: { IndexName: string }[] };
    }>(target.endpoint, 'DescribeTable', { TableName: to }, TARGET_KEY);
    expect(described.Table.GlobalSecondaryIndexes?.map((g) => g.IndexName)).toEqual(['byG']);
    const ttl = await rawDynamo<{ TimeToLiveDescription: unknown }>(
      target.endpoint,
      'DescribeTimeToLive',
      { TableName: to },
      TARGET_KEY,
    );
    expect(ttl.TimeToLiveDescription).toMatchObject({
      TimeToLiveStatus: 'ENABLED',
      AttributeName: 'expiresAt',
    });
  }, 180_000);

  it('the target killed mid-copy: exit 2 with one line; started again, --resume ends with exactly the source items', async () => {
    const from = await sourceTable(1500);
    const to = uniqueTableName('twokill');
    const args = [...between(from, to), '--segments', '2'];
    // 150 items/s: ten seconds of copying, so the kill lands in the middle on a loaded machine.
    const running = copy([...args, '--write-rate', '150']);
    const written = async () =>
      (
        await rawDynamo<{ Count?: number }>(
          target.endpoint,
          'Scan',
          { TableName: to, Select: 'COUNT' },
          TARGET_KEY,
        ).catch(() => ({ Count: 0 }))
      ).Count ?? 0;
    await expect.poll(written, { timeout: 60_000, interval: 200 }).toBeGreaterThan(200);
    target.process.kill('SIGKILL');
    const first = await running;
    expect(first.code).toBe(2);
    expect(ourLines(first.stderr)).toHaveLength(1);
    expect(ourLines(first.stderr)[0]).toMatch(
      /^dynotable copy: .*\((ECONNREFUSED|ECONNRESET|TimeoutError)\)$/,
    );

    target = await startDynamoLocal({ dbPath, port: targetPort });
    const midway = await written();
    expect(midway).toBeGreaterThan(0);
    expect(midway).toBeLessThan(1504);

    const listed = await copy(['--list']);
    const stopped = (JSON.parse(listed.stdout) as { source: { table: string }; state: string }[]).filter(
      (c) => c.source.table === from,
    );
    expect(stopped.map((c) => c.state)).toEqual(['stopped']);

    const resumed = await copy([...args, '--resume']);
    expect(ourLines(resumed.stderr)).toEqual([]);
    expect(resumed.code).toBe(0);
    const report = JSON.parse(resumed.stdout) as CopyReport;
    expect(report).toMatchObject({ itemsRead: 1504, itemsFailed: 0 });
    expect(report.verified).toMatchObject({ sourceCount: 1504, targetCount: 1504, checksumsMatch: true });
    expect(await tableChecksum(target.endpoint, to, TARGET_KEY)).toEqual(
      await tableChecksum(source, from, SOURCE_KEY),
    );
  }, 240_000);
});
