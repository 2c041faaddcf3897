import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ExportStateView, ImportStateView, OpenedExportView } from '../../../src/shared/ipc/exports';
import { everyTypeItem } from '../../fixtures/items-every-type';
import { startBrowserCore, type BrowserCore } from '../../support/browser-core';
import { canonicalItems, rawPutAll, rawScanAll } from '../../support/copy-oracle';
import { uniqueTableName } from '../../support/dynamo-local';
import { rawDynamo } from '../../support/raw-dynamo';
import {
  type ExportStack,
  runToDone,
  startExportStack,
  uniqueRequestId as requestId,
} from '../../support/exports/export-stack';

/**
 * The exports:* and imports:* channels through the real browser-mode core and HTTP API, against
 * s3rver and the tests' export server (real SDK clients on both sides). The connection's one
 * endpoint serves DynamoDB and S3, as LocalStack's edge port does.
 */
const dynamoEndpoint = inject('dynamoEndpoint');
const bucket = 'channel-exports';
let stack: ExportStack;
let app: BrowserCore;
let readOnlyId: string;
let localOnlyId: string;

beforeAll(async () => {
  stack = await startExportStack(dynamoEndpoint, { buckets: [bucket], holdMs: 400 });
  app = await startBrowserCore(stack.server.endpoint);
  const save = async (label: string, endpoint: string, readOnly: boolean) => {
    const saved = await app.call<{ id: string }>('connections:save', {
      connection: {
        label,
        color: '#1f6feb',
        kind: 'default-chain',
        region: 'us-east-1',
        endpoint,
        readOnly,
        isProduction: false,
      },
    });
    if (!saved.ok) throw new Error(saved.error.message);
    return saved.value.id;
  };
  readOnlyId = await save('Read only', stack.server.endpoint, true);
  localOnlyId = await save('DynamoDB Local itself', dynamoEndpoint, false);
});

afterAll(async () => {
  await app.close();
  await stack.stop();
});

/** Wire JSON from text, so `__proto__` is an own attribute name, as DynamoDB sends it. */
const hostile = (n: number) =>
  JSON.parse(
    `{"pk":{"S":"H#${n}"},"__proto__":{"S":"p${n}"},"constructor":{"M":{"toString":{"BOOL":true}}},"a.b":{"N":"${n}.50"},"[0]":{"SS":["x","y"]}}`,
  ) as Record<string, unknown>;

async function sourceTable(): Promise<string> {
  const table = uniqueTableName('expch');
  await rawDynamo(dynamoEndpoint, 'CreateTable', {
    TableName: table,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  });
  const items: Record<string, unknown>[] = [everyTypeItem('EVERY#1'), hostile(1), hostile(2)];
  for (let i = 0; i < 60; i++) items.push({ pk: { S: `k${i}` }, n: { N: `${i}1234567890123456789.25` } });
  await rawPutAll(dynamoEndpoint, table, items);
  return table;
}

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names what done.value holds
const run = <T>(channel: string, payload: Record<string, unknown>) => runToDone<T>(app, channel, payload);

async function allRows(resultSetId: string): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (;;) {
    const page = await app.call<{ total: number; rows: Record<string, unknown>[] }>('resultsets:window', {
      resultSetId,
      offset: rows.length,
      limit: 1000,
    });
    if (!page.ok) throw new Error(page.error.message);
    rows.push(...page.value.rows);
    if (rows.length >= page.value.total || page.value.rows.length === 0) return rows;
  }
}

describe('exports and imports through the channels', () => {
  it('checks PITR, exports with progress until COMPLETED, lists it, and opens it as a result set equal to the table', async () => {
    const table = await sourceTable();
    const ref = { connectionId: app.connectionId, table };
    const before = await app.call<{ pitr: { status: string }; exports: unknown[] }>('exports:list', ref);
    expect(before).toMatchObject({ ok: true, value: { pitr: { status: 'DISABLED' }, exports: [] } });

    const refused = await app.call('exports:start', {
      ...ref,
      requestId: requestId('ex'),
      bucket,
      prefix: 'p1',
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'PointInTimeRecoveryUnavailableException' } });
    expect(await app.call('exports:enablePitr', ref)).toMatchObject({
      ok: true,
      value: { status: 'ENABLED' },
    });

    const exported = await run<ExportStateView>('exports:start', { ...ref, bucket, prefix: 'p1' });
    const progress = exported.events.filter((e) => e.type === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]?.type === 'progress' && progress[0].progress.message).toMatch(/in progress/i);
    expect(exported.value).toMatchObject({
      exportArn: exported.started.exportArn,
      status: 'COMPLETED',
      itemCount: 63,
      bucket,
      prefix: 'p1',
    });
    expect(exported.value.billedSizeBytes).toBeGreaterThan(0);
    expect(exported.events.map((e) => e.seq)).toEqual(exported.events.map((_, i) => i));

    const listed = await app.call<{ exports: ExportStateView[] }>('exports:list', ref);
    expect(listed.ok && listed.value.exports.map((e) => [e.exportArn, e.status])).toEqual([
      [exported.started.exportArn, 'COMPLETED'],
    ]);

    const opened = await run<OpenedExportView>('exports:open', {
      connectionId: app.connectionId,
      bucket,
      prefix: 'p1',
    });
    expect(opened.value).toMatchObject({ table, items: 63, keyAttributes: ['pk'], incrementals: [] });
    expect(opened.last).toMatchObject({ progress: { consumedCapacity: 0, fraction: 1 } });
    const rows = await allRows(opened.value.resultSetId);
    expect(canonicalItems(rows)).toEqual(canonicalItems(await rawScanAll(dynamoEndpoint, table)));

    const known = await app.call<OpenedExportView[]>('exports:opened', {});
    expect(known.ok && known.value.map((o) => o.resultSetId)).toContain(opened.value.resultSetId);
  });

  it('applies an incremental export on top of its full export when the prefix is opened', async () => {
    const table = await sourceTable();
    const ref = { connectionId: app.connectionId, table };
    expect(await app.call('exports:enablePitr', ref)).toMatchObject({ ok: true });
    const full = await run<ExportStateView>('exports:start', { ...ref, bucket, prefix: 'inc' });
    expect(full.value.status).toBe('COMPLETED');
    const from = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    await rawDynamo(dynamoEndpoint, 'PutItem', {
      TableName: table,
      Item: { pk: { S: 'k1' }, n: { N: '-1' } },
    });
    await rawDynamo(dynamoEndpoint, 'DeleteItem', { TableName: table, Key: { pk: { S: 'k2' } } });
    await rawDynamo(dynamoEndpoint, 'PutItem', {
      TableName: table,
      Item: { pk: { S: 'new' }, s: { S: 'x' } },
    });
    const incremental = await run<ExportStateView>('exports:start', {
      ...ref,
      bucket,
      prefix: 'inc',
      incremental: { from, view: 'NEW_AND_OLD_IMAGES' },
    });
    expect(incremental.value).toMatchObject({ status: 'COMPLETED', type: 'INCREMENTAL_EXPORT' });
    const opened = await run<OpenedExportView>('exports:open', {
      connectionId: app.connectionId,
      bucket,
      prefix: 'inc',
    });
    expect(opened.value.incrementals).toEqual([incremental.started.exportArn]);
    const rows = await allRows(opened.value.resultSetId);
    expect(canonicalItems(rows)).toEqual(canonicalItems(await rawScanAll(dynamoEndpoint, table)));
  });

  it('imports an export from S3 into a new table holding exactly the source items', async () => {
    const table = await sourceTable();
    const ref = { connectionId: app.connectionId, table };
    await app.call('exports:enablePitr', ref);
    const exported = await run<ExportStateView>('exports:start', { ...ref, bucket, prefix: 'imp' });
    const target = uniqueTableName('expimp');
    const imported = await run<ImportStateView>('imports:start', {
      connectionId: app.connectionId,
      bucket,
      prefix: exported.value.manifest!.replace(/manifest-summary\.json$/, 'data/'),
      format: 'DYNAMODB_JSON',
      compression: 'GZIP',
      table: target,
      partitionKey: { name: 'pk', type: 'S' },
    });
    expect(imported.value).toMatchObject({
      status: 'COMPLETED',
      table: target,
      importedItems: 63,
      errors: 0,
    });
    expect(canonicalItems(await rawScanAll(dynamoEndpoint, target))).toEqual(
      canonicalItems(await rawScanAll(dynamoEndpoint, table)),
    );
  });

  it('refuses to start exports, imports or PITR in main on a read-only connection, and still lists', async () => {
    const table = await sourceTable();
    await app.call('exports:enablePitr', { connectionId: app.connectionId, table });
    const ref = { connectionId: readOnlyId, table };
    const exportTry = await app.call('exports:start', {
      ...ref,
      requestId: requestId('ro'),
      bucket,
      prefix: 'ro',
    });
    expect(exportTry).toMatchObject({ ok: false, error: { code: 'ReadOnlyConnection' } });
    const importTry = await app.call('imports:start', {
      connectionId: readOnlyId,
      requestId: requestId('ro'),
      bucket,
      prefix: 'ro/',
      table: uniqueTableName('roimp'),
      partitionKey: { name: 'pk', type: 'S' },
    });
    expect(importTry).toMatchObject({ ok: false, error: { code: 'ReadOnlyConnection' } });
    expect(
      await app.call('exports:enablePitr', { connectionId: readOnlyId, table: uniqueTableName('x') }),
    ).toMatchObject({
      ok: false,
      error: { code: 'ReadOnlyConnection' },
    });
    // Nothing was sent: the table has no export.
    expect(await app.call('exports:list', ref)).toMatchObject({ ok: true, value: { exports: [] } });
  });

  it('says in a sentence that DynamoDB Local has no exports', async () => {
    const table = await sourceTable();
    const listed = await app.call('exports:list', { connectionId: localOnlyId, table });
    expect(listed).toMatchObject({ ok: false, error: { code: 'ExportsUnavailable' } });
    expect(!listed.ok && listed.error.message).toMatch(/DynamoDB Local.*Copy/);
    const started = await app.call('exports:start', {
      connectionId: localOnlyId,
      table,
      requestId: requestId('loc'),
      bucket,
    });
    expect(started).toMatchObject({ ok: false, error: { code: 'ExportsUnavailable' } });
  });
});
