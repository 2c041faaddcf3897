import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { allItems, BIG, get, orders } from '../fixtures/sql-fixture';
import { localClient } from '../support/dynamo-local';
import { createShopTable } from './sql-support';

const endpoint = inject('dynamoEndpoint');
const client = localClient(endpoint);
const root = path.resolve(__dirname, '../..');
let table: string;

beforeAll(async () => {
  table = await createShopTable(client, allItems, 'sqlcli');
});
afterAll(() => client.destroy());

/** The real CLI entry in a child process, with credentials the way a CI job passes them. */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    };
    delete env.AWS_PROFILE;
    delete env.AWS_REGION;
    const child = spawn(
      process.execPath,
      [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'src/cli/index.ts'), 'sql', ...args],
      {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const ourLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('dynotable '));
const local = ['--endpoint', endpoint, '--region', 'us-east-1'];

describe('dynotable sql', () => {
  it('prints a JSON array of row objects with exact numbers', async () => {
    const { code, stdout } = await cli([
      `SELECT orderId, amount FROM ${table}.orders WHERE orderId IN ('o1', 'o11', 'o7') ORDER BY orderId`,
      ...local,
    ]);
    expect(code).toBe(0);
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
