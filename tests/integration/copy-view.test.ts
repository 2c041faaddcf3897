import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { copyHandlers } from '../../src/main/ipc/handlers/copy';
import { sqlHandlers } from '../../src/main/ipc/handlers/sql';
import type { SqlPlan } from '../../src/shared/sql/plan';
import { everyTypeItem } from '../fixtures/items-every-type';
import { canonicalItems, rawPutAll, rawScanAll } from '../support/copy-oracle';
import { uniqueTableName } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';
import { runCopyOperation } from '../support/copy-harness';
import { itemsHarness, type ItemsHarness } from '../support/items-context';

let h: ItemsHarness;
let endpoint: string;
let dataDir: string;

/** Wire JSON parsed from text, so `__proto__` is an own attribute name, as DynamoDB sends it. */
const hostile = (sk: string): Record<string, unknown> =>
  JSON.parse(
    `{"pk":{"S":"TENANT#a"},"sk":{"S":"${sk}"},"__proto__":{"S":"proto"},"constructor":{"M":{"__proto__":{"N":"1"},"toString":{"BOOL":true}}},"toString":{"L":[{"S":"x"}]},"hasOwnProperty":{"NULL":true}}`,
  ) as Record<string, unknown>;

const copy = (payload: Record<string, unknown>) => runCopyOperation(h, payload);

beforeAll(() => {
  endpoint = inject('dynamoEndpoint');
  h = itemsHarness(endpoint, { ...copyHandlers, ...sqlHandlers });
  dataDir = mkdtempSync(path.join(tmpdir(), 'dynotable-copyview-'));
  (h.ctx as { dataDir: string }).dataDir = dataDir;
});

afterAll(async () => {
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('copy:start from a saved SQL view', () => {
  it("copies exactly the view's items, planned as a Query, byte for byte", async () => {
    const table = uniqueTableName('copyview');
    await createTable(h.client, table, { partitionKey: ['pk', 'S'], sortKey: ['sk', 'S'] });
    const items: Record<string, unknown>[] = [
      { ...everyTypeItem('TENANT#a'), sk: { S: 'ORDER#every' } },
      hostile('ORDER#hostile'),
      hostile('PROFILE#hostile'),
    ];
    for (let i = 0; i < 120; i++)
      items.push({
        pk: { S: `TENANT#${i % 3 === 0 ? 'a' : 'b'}` },
        sk: { S: `${i % 2 === 0 ? 'ORDER' : 'INVOICE'}#${String(i).padStart(4, '0')}` },
        total: { N: `${i}.50` },
      });
    await rawPutAll(endpoint, table, items);
    const saved = await h.call('sql:saveView', {
      connectionId: 'local',
      view: {
        name: 'a_orders',
        table,
        conditions: [
          { attribute: 'pk', op: '=', values: [{ S: 'TENANT#a' }] },
          { attribute: 'sk', op: 'begins_with', values: [{ S: 'ORDER#' }] },
        ],
      },
    });
    expect(saved.ok).toBe(true);
    // The workbench's own planner reads the view with one Query, not a Scan.
    const plan = await h.call<SqlPlan>('sql:plan', {
      connectionId: 'local',
      sql: `SELECT * FROM "${table}".a_orders`,
    });
    expect(plan.ok && plan.value.fetches.map((f) => f.call.operation)).toEqual(['Query']);

    const target = uniqueTableName('copyviewdst');
    const report = await copy({
      source: { connectionId: 'local', table, view: 'a_orders' },
      target: { connectionId: 'local', table: target, create: true },
    });
    // The oracle: DynamoDB Local's raw wire JSON, filtered by the view's key condition by hand.
    const wanted = (await rawScanAll(endpoint, table)).filter((i) => {
      const pk = (i.pk as { S: string }).S;
      const sk = (i.sk as { S: string }).S;
      return pk === 'TENANT#a' && sk.startsWith('ORDER#');
    });
    expect(wanted.length).toBe(22);
    expect(report).toMatchObject({ itemsRead: 22, itemsWritten: 22, itemsFailed: 0 });
    expect(canonicalItems(await rawScanAll(endpoint, target))).toEqual(canonicalItems(wanted));
    expect(report.verified).toMatchObject({ checksumsMatch: true, sourceCount: 22, targetCount: 22 });

    // A view with no partition key value (a sort-key prefix only) is a Scan with that filter.
    await h.call('sql:saveView', {
      connectionId: 'local',
      view: {
        name: 'all_orders',
        table,
        conditions: [{ attribute: 'sk', op: 'begins_with', values: [{ S: 'ORDER#' }] }],
      },
    });
    const scanTarget = uniqueTableName('copyviewscan');
    const scanned = await copy({
      source: { connectionId: 'local', table, view: 'all_orders' },
      target: { connectionId: 'local', table: scanTarget, create: true },
    });
    const orders = (await rawScanAll(endpoint, table)).filter((i) =>
      (i.sk as { S: string }).S.startsWith('ORDER#'),
    );
    expect(orders.length).toBe(62);
    expect(scanned.notes.join(' ')).toContain('filtered Scan');
    expect(canonicalItems(await rawScanAll(endpoint, scanTarget))).toEqual(canonicalItems(orders));
  });

  it('names an unknown view in a sentence and writes nothing', async () => {
    const table = uniqueTableName('copyview');
    await createTable(h.client, table, { partitionKey: ['pk', 'S'] });
    await rawPutAll(endpoint, table, [{ pk: { S: 'x' } }]);
    const target = uniqueTableName('copyviewnone');
    await expect(
      copy({
        source: { connectionId: 'local', table, view: 'no_such_view' },
        target: { connectionId: 'local', table: target, create: true },
      }),
    ).rejects.toThrow(/no_such_view/);
    expect(await rawScanAll(endpoint, target).catch(() => [])).toEqual([]);
  });
});
