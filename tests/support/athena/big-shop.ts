import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Item } from '../../../src/shared/dynamo/attribute-value';
import type { AthenaSettings } from '../../../src/shared/ipc/athena';
import type { SqlResultSummary, SqlWindow } from '../../../src/shared/ipc/sql';
import { createShopTable } from '../../integration/sql-support';
import { startBrowserCore, type BrowserCore } from '../browser-core';
import { localClient } from '../dynamo-local';
import { startBigTableAws, type BigTableAws } from './big-table-aws';
import { SHOP_ITEMS } from './shop';

/**
 * The setup every Athena integration test shares: shop tables in DynamoDB Local that
 * DescribeTable reports as 200 GB each behind the local "AWS" endpoint (export server, S3, Glue
 * and Athena), and the real core in browser mode connected to it.
 */
export const GB = 1e9;

/** Settings a run on the local Athena/Glue server accepts (buckets of `BIG_SHOP_BUCKETS`). */
export const ATHENA_SETTINGS: AthenaSettings = {
  workGroup: 'primary',
  outputLocation: 's3://results/dynotable/',
  database: 'dynotable',
  exportBucket: 'exports',
  exportPrefix: 'dynotable',
};

export interface BigShop {
  dynamo: DynamoDBClient;
  /** The created tables' names, one per prefix, in order. */
  tables: string[];
  /** The first of `tables`. */
  table: string;
  aws: BigTableAws;
  app: BrowserCore;
}

export interface BigShopOptions {
  /** One shop table per prefix (the prefix shows in its unique name). */
  prefixes: string[];
  items?: Item[];
  /** Buckets made in the local S3; default the export and results buckets of ATHENA_SETTINGS. */
  buckets?: string[];
  runMs?: number;
  /** Runs once everything is up, before the first test. */
  ready?(shop: BigShop): Promise<void>;
}

/** Registers beforeAll/afterAll; the returned object is filled in before the first test runs. */
export function useBigShop(options: BigShopOptions): BigShop {
  const shop = {} as BigShop;
  // A failed beforeAll leaves some of these unset; afterAll closes what was started.
  const started: Partial<BigShop> = shop;
  beforeAll(async () => {
    shop.dynamo = localClient(inject('dynamoEndpoint'));
    shop.tables = [];
    for (const prefix of options.prefixes)
      shop.tables.push(await createShopTable(shop.dynamo, options.items ?? SHOP_ITEMS, prefix));
    shop.table = shop.tables[0]!;
    const big = { sizeBytes: 200 * GB, itemCount: 400_000_000 };
    shop.aws = await startBigTableAws({
      dynamoEndpoint: inject('dynamoEndpoint'),
      sizes: new Map(shop.tables.map((t) => [t, big])),
      buckets: options.buckets ?? ['exports', 'results'],
      ...(options.runMs === undefined ? {} : { runMs: options.runMs }),
    });
    shop.app = await startBrowserCore(shop.aws.endpoint);
    await options.ready?.(shop);
  }, 90_000);
  afterAll(async () => {
    await started.app?.close();
    await started.aws?.close();
    started.dynamo?.destroy();
  });
  return shop;
}

/** An envelope's value, or the test fails with its sentence. */
export function ok<T>(envelope: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!envelope.ok) throw new Error(envelope.error.message);
  return envelope.value;
}

/** A result's rows (NULL as null), sorted, to compare the Athena path's with the local engine's. */
export async function rowsOf(app: BrowserCore, resultId: string): Promise<string[]> {
  const window = ok(await app.call<SqlWindow>('sql:window', { resultId, offset: 0, limit: 1000 }));
  return window.rows.map((row) => JSON.stringify(row.map((v) => (v && !('NULL' in v) ? v : null)))).sort();
}

/** Runs a statement on Athena (athena:run) or locally past the limit, and waits for its result. */
export async function runStatement(
  app: BrowserCore,
  requestId: string,
  sql: string,
  how: { local: true } | { settings: AthenaSettings; startExport?: boolean; freshExport?: boolean },
): Promise<SqlResultSummary> {
  const done = app.waitFor(requestId);
  ok(
    await app.call('local' in how ? 'sql:run' : 'athena:run', {
      connectionId: app.connectionId,
      sql,
      requestId,
      ...how,
    }),
  );
  const { last } = await done;
  if (last.type !== 'done') throw new Error(JSON.stringify(last));
  return last.value as SqlResultSummary;
}
