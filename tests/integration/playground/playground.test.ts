import {
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
  ScanCommand,
  type AttributeValue,
  type DynamoDBClient,
  type ScanCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { dynamoClient } from '../../../src/main/aws/dynamo-client';
import { PLAYGROUND_CREDENTIALS, PLAYGROUND_SDK_REGION } from '../../../src/main/aws/playground-credentials';
import type { Playground } from '../../../src/main/core/context';
import { fromSdkItem } from '../../../src/main/dynamo/marshal';
import { createPlayground } from '../../../src/main/playground/playground';
import { JAVA_HELP } from '../../../src/main/playground/java';
import { localClient } from '../../support/dynamo-local';

const started: Playground[] = [];

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return true;
  } catch {
    return false;
  }
}
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dynotable-playground-'));
  dirs.push(dir);
  return dir;
}

async function scanAll(client: DynamoDBClient, index?: string) {
  const items = [];
  let start: Record<string, AttributeValue> | undefined;
  for (let page = 0; page < 50; page++) {
    const out: ScanCommandOutput = await client.send(
      new ScanCommand({ TableName: 'DynoTableSample', IndexName: index, ExclusiveStartKey: start }),
    );
    items.push(...(out.Items ?? []).map(fromSdkItem));
    start = out.LastEvaluatedKey;
    if (!start) break;
  }
  return items;
}

describe('local playground', () => {
  it('says Java is needed, and how to get it, when java is missing', async () => {
    const playground = createPlayground({ dataDir: await tempDir(), javaCommand: '/nonexistent/java' });
    const status = await playground.start();
    expect(status).toEqual({ state: 'unavailable', message: JAVA_HELP });
    expect(status.message).toContain('Java 17 or newer');
    expect(playground.status().state).toBe('unavailable');
  });

  it(
    'starts DynamoDB Local, seeds the sample once, keeps data across restarts and stops it',
    { timeout: 300_000 },
    async () => {
      const dataDir = await tempDir();
      const playground = createPlayground({ dataDir });
      started.push(playground);

      const first = await playground.start();
      expect(first).toMatchObject({ state: 'running', seeded: true });
      expect(first.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const client = localClient(first.endpoint!);

      const { Table } = await client.send(new DescribeTableCommand({ TableName: 'DynoTableSample' }));
      expect(Table?.KeySchema?.map((k) => k.AttributeName)).toEqual(['PK', 'SK']);
      expect(Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName).sort()).toEqual([
        'GSI1',
        'UnprocessedPayments',
      ]);
      const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: 'DynoTableSample' }));
      expect(ttl.TimeToLiveDescription).toMatchObject({
        TimeToLiveStatus: 'ENABLED',
        AttributeName: 'expiresAt',
      });

      const items = await scanAll(client);
      expect(items.length).toBeGreaterThan(200);
      const entities = new Set(items.map((i) => JSON.stringify(i.entity)));
      for (const entity of ['User', 'Balance', 'Order', 'Payment'])
        expect(entities).toContain(JSON.stringify({ S: entity }));
      expect(
        items.some(
          (i) => JSON.stringify(i.PK) === '{"S":"USER#u1"}' && JSON.stringify(i.SK) === '{"S":"ORDER#o1"}',
        ),
      ).toBe(true);

      // The sparse index holds exactly the unprocessed payments.
      const unprocessed = await scanAll(client, 'UnprocessedPayments');
      const payments = items.filter((i) => JSON.stringify(i.entity) === '{"S":"Payment"}');
      const unprocessedPayments = payments.filter((i) => JSON.stringify(i.status) === '{"S":"UNPROCESSED"}');
      expect(unprocessed.length).toBe(unprocessedPayments.length);
      expect(unprocessed.length).toBeGreaterThan(0);
      expect(unprocessed.length).toBeLessThan(payments.length);

      // dynamoose 4.x leftovers: a top-level "address.city" that agrees with the map, disagrees, or stands alone.
      const legacy = items.filter((i) => 'address.city' in i);
      const cityInMap = (i: (typeof items)[number]) =>
        JSON.stringify((i.address as { M?: Record<string, unknown> } | undefined)?.M?.city);
      expect(legacy.some((i) => cityInMap(i) === JSON.stringify(i['address.city']))).toBe(true);
      expect(legacy.some((i) => i.address && cityInMap(i) !== JSON.stringify(i['address.city']))).toBe(true);
      expect(legacy.some((i) => !i.address)).toBe(true);
      // Dates written by two generations of code: ISO strings and epoch milliseconds.
      expect(items.some((i) => i.createdAt && 'S' in i.createdAt)).toBe(true);
      expect(items.some((i) => i.createdAt && 'N' in i.createdAt && /^\d{13}$/.test(i.createdAt.N))).toBe(
        true,
      );
      // Every type shows up somewhere, including 38-digit numbers and binary.
      const all = JSON.stringify(items);
      expect(all).toContain('{"N":"12345678901234567890123456789012345678"}');
      for (const tag of ['"B":', '"SS":', '"NS":', '"BS":', '"BOOL":', '"NULL":', '"L":', '"M":'])
        expect(all).toContain(tag);

      // Edit one sample item; a restart must keep the edit (no reseed) and the data (kept in dataDir).
      const key = { PK: { S: 'USER#u1' }, SK: { S: 'PROFILE' } };
      await client.send(
        new PutItemCommand({
          TableName: 'DynoTableSample',
          Item: { ...key, name: { S: 'Edited by the test' } },
        }),
      );
      const pid = playground.pid();
      expect(pid).toBeGreaterThan(0);
      await playground.stop();
      expect(playground.status()).toEqual({ state: 'stopped' });
      expect(isAlive(pid!)).toBe(false);
      await expect(client.send(new ListTablesCommand({}))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      client.destroy();

      const second = await playground.start();
      expect(second).toMatchObject({ state: 'running', seeded: true });
      const again = localClient(second.endpoint!);
      const edited = await again.send(new GetItemCommand({ TableName: 'DynoTableSample', Key: key }));
      expect(edited.Item).toEqual({ ...key, name: { S: 'Edited by the test' } });
      expect((await scanAll(again)).length).toBe(items.length);
      again.destroy();

      // If DynamoDB Local dies on its own, the status says so in a sentence.
      process.kill(playground.pid()!, 'SIGKILL');
      await vi.waitFor(() => expect(playground.status().state).toBe('failed'), {
        timeout: 30_000,
        interval: 100,
      });
      expect(playground.status().message).toMatch(
        /^DynamoDB Local stopped unexpectedly \(signal SIGKILL\)\. Choose Local playground again/,
      );
      await playground.stop();
    },
  );

  it('uses a DynamoDB Local that already runs when attached to it: no Java, the sample seeded, left running when stopped', async () => {
    // The run's DynamoDB Local keeps a database per access key, so the playground's own key sees
    // only what the playground wrote there.
    const endpoint = inject('dynamoEndpoint');
    const playground = createPlayground({
      dataDir: await tempDir(),
      attachTo: endpoint,
      javaCommand: '/nonexistent/java',
    });
    started.push(playground);
    const status = await playground.start();
    expect(status).toMatchObject({ state: 'running', endpoint, seeded: true });
    expect(playground.pid()).toBeUndefined();
    const client = dynamoClient({
      endpoint,
      region: PLAYGROUND_SDK_REGION,
      credentials: PLAYGROUND_CREDENTIALS,
    });
    try {
      expect((await scanAll(client)).length).toBeGreaterThan(200);
      await playground.stop();
      expect(playground.status()).toEqual({ state: 'stopped' });
      const tables = await client.send(new ListTablesCommand({}));
      expect(tables.TableNames).toContain('DynoTableSample');
    } finally {
      client.destroy();
    }
  });
});
