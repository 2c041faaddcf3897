import {
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { copyHandlers } from '../../src/main/ipc/handlers/copy';
import { queryHandlers } from '../../src/main/ipc/handlers/query';
import type { CopyReport } from '../../src/shared/ipc/copy';
import type { OperationEvent } from '../../src/shared/ipc';
import { everyTypeItem } from '../fixtures/items-every-type';
import { canonicalItems, rawPutAll, rawScanAll, tableChecksum } from '../support/copy-oracle';
import { uniqueTableName } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';
import { itemsHarness, type ItemsHarness, runQuery } from '../support/items-context';
import { canonical, rawGetItem } from '../support/raw-dynamo';

let h: ItemsHarness;
let endpoint: string;
let dataDir: string;
let counter = 0;
const id = (prefix: string) => `${prefix}_${++counter}_${Date.now()}`;

/** Wire JSON parsed from text, so `__proto__` is an own attribute name, as DynamoDB sends it. */
const hostile = (n: number): Record<string, unknown> =>
  JSON.parse(
    `{"pk":{"S":"HOSTILE#${n}"},"sk":{"N":"${n}"},"__proto__":{"S":"proto ${n}"},"constructor":{"M":{"__proto__":{"N":"1"},"toString":{"BOOL":true}}},"toString":{"L":[{"S":"x"}]},"hasOwnProperty":{"NULL":true}}`,
  ) as Record<string, unknown>;

/** A source with every type, hostile names, a GSI and TTL, 240 ordinary items in two tenants. */
async function sourceTable(count = 240): Promise<{ table: string; items: Record<string, unknown>[] }> {
  const table = uniqueTableName('copysrc');
  await createTable(h.client, table, {
    partitionKey: ['pk', 'S'],
    sortKey: ['sk', 'N'],
    globalIndexes: [{ name: 'byG', partitionKey: ['gpk', 'S'], sortKey: ['gsk', 'S'] }],
  });
  await h.client.send(
    new UpdateTimeToLiveCommand({
      TableName: table,
      TimeToLiveSpecification: { Enabled: true, AttributeName: 'expiresAt' },
    }),
  );
  const items: Record<string, unknown>[] = [
    { ...everyTypeItem('EVERY#1'), sk: { N: '1' } },
    { ...everyTypeItem('EVERY#2'), sk: { N: '99999999999999999999999999999999999999' } },
    hostile(1),
    hostile(2),
  ];
  for (let i = 0; i < count; i++)
    items.push({
      pk: { S: `TENANT#${i % 2 === 0 ? 'a' : 'c'}#USER#${i}` },
      sk: { N: String(i) },
      gpk: { S: `G#${i % 7}` },
      gsk: { S: `TENANT#a#${i}` },
      version: { N: String(i) },
      expiresAt: { N: '4102444800' },
      secret: { S: `s${i}` },
      payload: { S: 'x'.repeat(200) },
    });
  await rawPutAll(endpoint, table, items);
  // As DynamoDB stores them (it normalises numbers: 1E+125 comes back in full).
  return { table, items: await rawScanAll(endpoint, table) };
}

async function operation(
  channel: string,
  payload: Record<string, unknown>,
  onEvent?: (event: OperationEvent) => void,
): Promise<{ last: OperationEvent; events: OperationEvent[]; copyId: string }> {
  const requestId = id('copy');
  const done = h.waitFor(requestId);
  const stop = onEvent ? h.ctx.events.subscribe((e) => e.requestId === requestId && onEvent(e)) : undefined;
  const started = await h.call<{ copyId: string }>(channel, { ...payload, requestId });
  if (!started.ok) {
    stop?.();
    throw Object.assign(new Error(started.error.message), { code: started.error.code });
  }
  const { last, events } = await done;
  stop?.();
  return { last, events, copyId: started.value.copyId };
}

async function copy(payload: Record<string, unknown>): Promise<CopyReport> {
  const { last } = await operation('copy:start', payload);
  if (last.type === 'error') throw Object.assign(new Error(last.error.message), { code: last.error.code });
  if (last.type !== 'done') throw new Error(`ended with ${last.type}: ${JSON.stringify(last)}`);
  return last.value as CopyReport;
}

beforeAll(() => {
  endpoint = inject('dynamoEndpoint');
  h = itemsHarness(endpoint, { ...copyHandlers, ...queryHandlers });
  dataDir = mkdtempSync(path.join(tmpdir(), 'dynotable-copy-'));
  (h.ctx as { dataDir: string }).dataDir = dataDir;
});

afterAll(async () => {
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('copy:start', () => {
  it('creates the target from the source definition and copies every item byte for byte', async () => {
    const { table } = await sourceTable();
    const target = uniqueTableName('copydst');
    const report = await copy({
      source: { connectionId: 'local', table },
      target: { connectionId: 'prod', table: target, create: true },
    });
    expect(report).toMatchObject({
      created: true,
      complete: true,
      itemsRead: 244,
      itemsWritten: 244,
      itemsFailed: 0,
    });
    expect(report.verified).toMatchObject({
      sourceCount: 244,
      targetCount: 244,
      checksumsMatch: true,
      differingKeys: [],
    });
    // The independent oracle: both tables' raw wire JSON, item by item.
    expect(await tableChecksum(endpoint, target)).toEqual(await tableChecksum(endpoint, table));
    const hostileStored = await rawGetItem(endpoint, target, { pk: { S: 'HOSTILE#1' }, sk: { N: '1' } });
    expect(canonical(hostileStored)).toBe(canonical(hostile(1)));
    expect(Object.prototype.hasOwnProperty.call(hostileStored, '__proto__')).toBe(true);

    const described = (await h.client.send(new DescribeTableCommand({ TableName: target }))).Table;
    expect(described?.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(described?.GlobalSecondaryIndexes?.map((g) => [g.IndexName, g.KeySchema])).toEqual([
      [
        'byG',
        [
          { AttributeName: 'gpk', KeyType: 'HASH' },
          { AttributeName: 'gsk', KeyType: 'RANGE' },
        ],
      ],
    ]);
    const ttl = await h.client.send(new DescribeTimeToLiveCommand({ TableName: target }));
    expect(ttl.TimeToLiveDescription).toMatchObject({
      TimeToLiveStatus: 'ENABLED',
      AttributeName: 'expiresAt',
    });
  });

  it('names the mismatch when the target keys differ, and writes nothing', async () => {
    const { table } = await sourceTable(4);
    const target = await createTable(h.client, uniqueTableName('copybad'), { partitionKey: ['id', 'S'] });
    const refused = (await copy({
      source: { connectionId: 'local', table },
      target: { connectionId: 'local', table: target },
    }).catch((error: unknown) => error)) as { code: string; message: string };
    expect(refused.code).toBe('IncompatibleKeys');
    expect(refused.message).toMatch(
      /partition key is "id" \(S\), the copied items' partition key is "pk" \(S\)/,
    );
    expect(await rawScanAll(endpoint, target)).toEqual([]);
  });

  it('refuses a read-only target in main before anything is created', async () => {
    const { table } = await sourceTable(2);
    const target = uniqueTableName('copyro');
    const refused = await operation('copy:start', {
      source: { connectionId: 'local', table },
      target: { connectionId: 'ro', table: target, create: true },
    }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'ReadOnlyConnection' });
    const tables = await h.client
      .send(new DescribeTableCommand({ TableName: target }))
      .catch((e: unknown) => (e as Error).name);
    expect(tables).toBe('ResourceNotFoundException');
  });

  it('skip leaves existing items alone and writes the rest with attribute_not_exists', async () => {
    const { table, items } = await sourceTable(20);
    const target = await createTable(h.client, uniqueTableName('copyskip'), {
      partitionKey: ['pk', 'S'],
      sortKey: ['sk', 'N'],
    });
    const existing = [
      { pk: { S: 'TENANT#a#USER#0' }, sk: { N: '0' }, mine: { S: 'keep me' } },
      { pk: { S: 'TENANT#c#USER#1' }, sk: { N: '1' }, mine: { S: 'keep me too' } },
    ];
    await rawPutAll(endpoint, target, existing);
    const report = await copy({
      source: { connectionId: 'local', table },
      target: { connectionId: 'local', table: target },
      conflict: { policy: 'skip' },
    });
    expect(report).toMatchObject({ itemsRead: 24, itemsWritten: 22, itemsSkipped: 2, itemsFailed: 0 });
    expect(report.verified?.checksumsMatch).toBe(false);
    expect(report.verified?.differingKeys).toHaveLength(2);
    const expected = canonicalItems([...items.filter((i) => !isKeyOf(i, existing)), ...existing]);
    expect(canonicalItems(await rawScanAll(endpoint, target))).toEqual(expected);
  });

  it('newer-wins replaces only items whose version is lower in the target', async () => {
    const { table, items } = await sourceTable(10);
    const target = await createTable(h.client, uniqueTableName('copynewer'), {
      partitionKey: ['pk', 'S'],
      sortKey: ['sk', 'N'],
    });
    const newerInTarget = { pk: { S: 'TENANT#a#USER#4' }, sk: { N: '4' }, version: { N: '1000' } };
    const olderInTarget = { pk: { S: 'TENANT#a#USER#6' }, sk: { N: '6' }, version: { N: '5' } };
    await rawPutAll(endpoint, target, [newerInTarget, olderInTarget]);
    const report = await copy({
      source: { connectionId: 'local', table },
      target: { connectionId: 'local', table: target },
      conflict: { policy: 'newer', attribute: 'version' },
      verify: false,
    });
    expect(report).toMatchObject({ itemsRead: 14, itemsWritten: 13, itemsSkipped: 1, itemsFailed: 0 });
    const expected = canonicalItems([...items.filter((i) => !isKeyOf(i, [newerInTarget])), newerInTarget]);
    expect(canonicalItems(await rawScanAll(endpoint, target))).toEqual(expected);
  });

  it('overwrite replaces existing items through BatchWriteItem', async () => {
    const { table } = await sourceTable(10);
    const target = await createTable(h.client, uniqueTableName('copyover'), {
      partitionKey: ['pk', 'S'],
      sortKey: ['sk', 'N'],
    });
    await rawPutAll(endpoint, target, [
      { pk: { S: 'TENANT#a#USER#0' }, sk: { N: '0' }, stale: { BOOL: true } },
    ]);
    const report = await copy({
      source: { connectionId: 'local', table },
      target: { connectionId: 'local', table: target },
      conflict: { policy: 'overwrite' },
    });
    expect(report).toMatchObject({ itemsWritten: 14, itemsSkipped: 0 });
    expect(report.verified).toMatchObject({ checksumsMatch: true });
    expect(await tableChecksum(endpoint, target)).toEqual(await tableChecksum(endpoint, table));
  });

  it('rewrites key prefixes, drops and renames attributes, from a query with a filter', async () => {
    const { table, items } = await sourceTable(40);
    const target = uniqueTableName('copymap');
    const report = await copy({
      source: {
        connectionId: 'local',
        table,
        spec: {
          mode: 'scan',
          filter: {
            kind: 'group',
            join: 'AND',
            items: [{ kind: 'condition', path: ['pk'], op: 'begins_with', value: { S: 'TENANT#a#' } }],
          },
        },
      },
      target: { connectionId: 'local', table: target, create: true },
      mapping: {
        prefixes: [{ from: 'TENANT#a', to: 'TENANT#b' }],
        drop: ['secret'],
        rename: [{ from: 'payload', to: 'body' }],
      },
    });
    const tenantA = items.filter((i) => (i.pk as { S: string }).S.startsWith('TENANT#a#'));
    expect(report).toMatchObject({ itemsWritten: tenantA.length, itemsFailed: 0 });
    expect(report.verified).toMatchObject({ checksumsMatch: true, sourceCount: tenantA.length });
    const expected = tenantA.map((i) => {
      const { secret: _secret, payload, pk, gsk, ...rest } = i as Record<string, { S: string }>;
      return {
        ...rest,
        pk: { S: (pk as { S: string }).S.replace('TENANT#a', 'TENANT#b') },
        gsk: { S: (gsk as { S: string }).S.replace('TENANT#a', 'TENANT#b') },
        body: payload,
      };
    });
    expect(canonicalItems(await rawScanAll(endpoint, target))).toEqual(canonicalItems(expected));
  });

  it('copies the current result set as it was fetched', async () => {
    const { table, items } = await sourceTable(30);
    const { resultSetId } = await runQuery(h, {
      table,
      spec: { mode: 'query', partitionKey: { S: 'HOSTILE#2' } },
    });
    const target = uniqueTableName('copyrs');
    const report = await copy({
      source: { connectionId: 'local', table, resultSetId },
      target: { connectionId: 'local', table: target, create: true },
    });
    expect(report).toMatchObject({ itemsRead: 1, itemsWritten: 1 });
    expect(report.verified?.checksumsMatch).toBe(true);
    const wanted = items.filter((i) => (i.pk as { S: string }).S === 'HOSTILE#2');
    expect(canonicalItems(await rawScanAll(endpoint, target))).toEqual(canonicalItems(wanted));
  });

  it('cancel, then resume from the checkpoint, ends with exactly the source items', async () => {
    const { table } = await sourceTable(600);
    const target = uniqueTableName('copyresume');
    let cancelled = false;
    const first = await operation(
      'copy:start',
      {
        source: { connectionId: 'local', table },
        target: { connectionId: 'local', table: target, create: true },
        segments: 3,
        // One second of burst (80 items), then 6.5 s for the rest: a cancel sent after the burst
        // lands mid-copy even when a loaded machine delivers progress late.
        writeRate: 80,
      },
      (event) => {
        if (!cancelled && event.type === 'progress' && (event.progress.copy?.written ?? 0) >= 80) {
          cancelled = true;
          h.ctx.operations.cancel(event.requestId);
        }
      },
    );
    expect(first.last.type).toBe('cancelled');
    const midway = (await rawScanAll(endpoint, target)).length;
    expect(midway).toBeGreaterThan(0);
    expect(midway).toBeLessThan(604);

    const listed = await h.call<{ copies: { copyId: string; state: string }[] }>('copy:list', {});
    expect(listed.ok && listed.value.copies.find((c) => c.copyId === first.copyId)?.state).toBe('stopped');

    const second = await operation('copy:resume', { copyId: first.copyId });
    expect(second.last.type).toBe('done');
    const report = (second.last as { value: CopyReport }).value;
    expect(report).toMatchObject({ complete: true, itemsRead: 604, itemsWritten: 604, itemsFailed: 0 });
    expect(report.verified?.checksumsMatch).toBe(true);
    expect(await tableChecksum(endpoint, target)).toEqual(await tableChecksum(endpoint, table));
    const again = await h.call('copy:resume', { requestId: id('copy'), copyId: first.copyId });
    expect(again).toMatchObject({ ok: false, error: { code: 'InvalidInput' } });
  });
});

function isKeyOf(item: Record<string, unknown>, keys: Record<string, unknown>[]): boolean {
  return keys.some((k) => canonical(k.pk) === canonical(item.pk) && canonical(k.sk) === canonical(item.sk));
}
