import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { allItems, get, orders, users } from '../fixtures/sql-fixture';
import { localClient } from '../support/dynamo-local';
import { exportText } from '../../src/main/export-rows/export-chunks';
import { sqlResultRows } from '../../src/main/export-rows/rows-source';
import { SqlService } from '../../src/main/sql/service';
import type { Progress } from '../../src/shared/ipc/operations';
import { createShopTable } from './sql-support';

let client: DynamoDBClient;
let table: string;
let service: SqlService;
let credentialCalls = 0;

beforeAll(async () => {
  client = localClient(inject('dynamoEndpoint'));
  table = await createShopTable(client, allItems, 'sqlw');
  // The worker builds its own client from region + endpoint and asks main for credentials.
  const original = client.config.credentials;
  client.config.credentials = async (...args: Parameters<typeof original>) => {
    credentialCalls += 1;
    return original(...args);
  };
  service = new SqlService({ clients: { dynamo: () => Promise.resolve(client) } });
});
afterAll(async () => {
  await service.close();
  client.destroy();
});

describe('SQL in the worker thread', () => {
  it('runs a JOIN + GROUP BY next to the data and hands back windows', async () => {
    const progress: Progress[] = [];
    const summary = await service.run(
      'local',
      `SELECT u.name, COUNT(*) AS orders FROM ${table}.orders o JOIN ${table}.users u ON o.userId = u.userId GROUP BY u.name ORDER BY orders DESC, u.name`,
      [],
      { onProgress: (p) => progress.push(p) },
    );
    expect(summary.columns).toEqual(['name', 'orders']);
    expect(summary.grouped).toBe(true);
    expect(progress.length).toBeGreaterThan(0);
    expect(credentialCalls).toBeGreaterThan(0);

    const counts = new Map<string, number>();
    for (const o of orders) {
      const u = users.find((x) => get(x, 'userId') === get(o, 'userId'));
      if (!u) continue;
      const key = JSON.stringify(u.name ?? null);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const window = await service.window(summary.resultId, 0, 100);
    expect(window.total).toBe(counts.size);
    const total = window.rows.reduce((sum, row) => sum + Number((row[1] as { N: string }).N), 0);
    expect(total).toBe([...counts.values()].reduce((a, b) => a + b, 0));
  });

  it('plans, exports and reports bad SQL with a position, through the worker', async () => {
    const plan = await service.plan('local', `SELECT * FROM ${table} WHERE PK = 'USER#u1'`, []);
    expect(plan.fetches[0]!.call.operation).toBe('Query');
    const summary = await service.run(
      'local',
      `SELECT orderId, amount FROM ${table}.orders WHERE orderId IN ('o1', 'o11') ORDER BY orderId`,
      [],
      {},
    );
    const rows = await sqlResultRows(service, summary.resultId);
    expect(await exportText(rows, 'csv')).toBe(
      'orderId,amount\r\no1,79.19\r\no11,12345678901234567890123456789012345678\r\n',
    );
    expect(await exportText(rows, 'json')).toContain('"amount":12345678901234567890123456789012345678');
    await expect(service.plan('local', 'SELECT FROM WHERE', [])).rejects.toMatchObject({
      code: 'SqlSyntaxError',
      details: { line: 1, column: 8 },
    });
  });

  it('cancels a running statement', async () => {
    const controller = new AbortController();
    const running = service.run('local', `SELECT * FROM ${table}`, [], {
      refresh: true,
      signal: controller.signal,
    });
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'Cancelled' });
  });
});
