import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { allItems, BIG, get, orders } from '../fixtures/sql-fixture';
import { ourLines, runCli } from '../support/cli-run';
import { localClient } from '../support/dynamo-local';
import { createShopTable } from './sql-support';

const endpoint = inject('dynamoEndpoint');
const client = localClient(endpoint);
let table: string;

beforeAll(async () => {
  table = await createShopTable(client, allItems, 'sqlcli');
});
afterAll(() => client.destroy());

/** `dynotable sql` with no region in the environment: every call here names it with --region. */
const cli = (args: string[]) => runCli(['sql', ...args], { AWS_REGION: undefined });

const local = ['--endpoint', endpoint, '--region', 'us-east-1'];

describe('dynotable sql', () => {
  it('prints a JSON array of row objects with exact numbers', async () => {
    const { code, stdout, stderr } = await cli([
      `SELECT orderId, amount FROM ${table}.orders WHERE orderId IN ('o1', 'o11', 'o7') ORDER BY orderId`,
      ...local,
    ]);
    expect(code).toBe(0);
    // Nothing but the rows: no six-line notice from the AWS SDK about Node versions (Node 20).
    expect(stderr).not.toContain('NodeVersionSupportWarning');
    expect(stdout).toContain(`"amount":${BIG}`);
    const rows = JSON.parse(stdout) as { orderId: string; amount: unknown }[];
    expect(rows.map((r) => r.orderId)).toEqual(['o1', 'o11', 'o7']);
    expect(rows[2]!.amount).toBe('n/a');
  });

  it('runs a JOIN + GROUP BY as CSV and as a table', async () => {
    const sql = `SELECT o.status, COUNT(*) AS n FROM ${table}.orders o JOIN ${table}.users u ON o.userId = u.userId GROUP BY o.status ORDER BY o.status`;
    const counts = new Map<string, number>();
    for (const o of orders) {
      const userNo = Number((get(o, 'userId') as string).slice(1));
      if (userNo > 12) continue;
      const status = (get(o, 'status') as string | undefined) ?? '';
      counts.set(status, (counts.get(status) ?? 0) + 1);
    }
    const csv = await cli([sql, ...local, '--format', 'csv']);
    expect(csv.code).toBe(0);
    const expected = [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([s, n]) => `${s},${n}`);
    expect(csv.stdout).toBe(['status,n', ...expected, ''].join('\r\n'));
    const tableOut = await cli([sql, ...local, '--format', 'table']);
    expect(tableOut.stdout.split('\n')[0]).toMatch(/^status\s+n$/);
    expect(tableOut.stdout).toMatch(/\(\d+ rows\)/);
  });

  it('exits 2 with one line and the position on bad SQL', async () => {
    const { code, stderr, stdout } = await cli(['SELECT * FROM WHERE', ...local]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const lines = ourLines(stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^dynotable sql: Expected a table name but found "WHERE" \(line 1, column 15\) \(SqlSyntaxError\)$/,
    );
    const write = await cli([`DELETE FROM ${table}`, ...local]);
    expect(write.code).toBe(2);
    expect(ourLines(write.stderr)[0]).toMatch(/only reads \(SELECT\).*SqlReadOnly/);
  });

  it('exits 2 with one line when DynamoDB cannot be reached', async () => {
    const { code, stderr } = await cli([
      `SELECT * FROM ${table}`,
      '--endpoint',
      'http://127.0.0.1:9',
      '--region',
      'us-east-1',
    ]);
    expect(code).toBe(2);
    expect(ourLines(stderr)).toHaveLength(1);
  });

  it('--plan shows the calls without reading items', async () => {
    const { code, stdout } = await cli([`SELECT * FROM ${table} WHERE PK = 'USER#u1'`, ...local, '--plan']);
    expect(code).toBe(0);
    const plan = JSON.parse(stdout) as { fetches: { call: { operation: string } }[] };
    expect(plan.fetches[0]!.call.operation).toBe('Query');
  });
});
