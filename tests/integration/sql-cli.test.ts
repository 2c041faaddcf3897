import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { allItems, BIG, get, orders, payments } from '../fixtures/sql-fixture';
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

describe('dynotable sql --file: a script of statements', () => {
  const scriptFile = async (text: string): Promise<string> => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'dynotable-sql-')), 'script.sql');
    await writeFile(file, text, 'utf8');
    return file;
  };
  const script = () =>
    [
      `-- orders; the first statement`,
      `SELECT orderId, amount FROM ${table}.orders WHERE orderId IN ('o1', 'o11', 'o7') ORDER BY orderId;`,
      `SELECT 'a;b' AS "x;y", userId FROM ${table}.users /* not the end; */ WHERE userId = 'u1';`,
      `SELECT orderId FROM ${table}.orders`,
      `  WHERE ORDER BY orderId;`,
      `SELECT COUNT(*) AS n FROM ${table}.orders;`,
      ``,
    ].join('\n');

  it('prints one JSON line per statement, runs past the one that fails, and exits 2', async () => {
    const { code, stdout, stderr } = await cli(['--file', await scriptFile(script()), ...local]);
    expect(code).toBe(2);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toContain(`"amount":${BIG}`);
    const first = JSON.parse(lines[0]!) as { orderId: string; amount: unknown }[];
    expect(first.map((r) => r.orderId)).toEqual(['o1', 'o11', 'o7']);
    expect(JSON.parse(lines[1]!)).toEqual([{ 'x;y': 'a;b', userId: 'u1' }]);
    expect(JSON.parse(lines[2]!)).toEqual({
      statement: 3,
      line: 4,
      error: {
        code: 'SqlSyntaxError',
        message: 'Expected a value or a name but found the keyword ORDER (line 5, column 9)',
      },
    });
    expect(JSON.parse(lines[3]!)).toEqual([{ n: orders.length }]);
    expect(ourLines(stderr)).toEqual([
      'dynotable sql: statement 3 (line 4): Expected a value or a name but found the keyword ORDER (line 5, column 9) (SqlSyntaxError)',
    ]);
  });

  it('prints each CSV result after a line naming its statement', async () => {
    const file = await scriptFile(
      `SELECT userId FROM ${table}.users WHERE userId IN ('u1', 'u2') ORDER BY userId;\nSELECT COUNT(*) AS n FROM ${table}.payments`,
    );
    const { code, stdout } = await cli(['--file', file, ...local, '--format', 'csv']);
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        `-- statement 1 (line 1): SELECT userId FROM ${table}.users WHERE userId IN ('u1', 'u2') ORDER BY userId\n`,
        'userId\r\nu1\r\nu2\r\n',
        `\n-- statement 2 (line 2): SELECT COUNT(*) AS n FROM ${table}.payments\n`,
        `n\r\n${payments.length}\r\n`,
      ].join(''),
    );
  });

  it('refuses a script whose string is never closed before reading anything', async () => {
    const file = await scriptFile(`SELECT 1 FROM ${table}.users;\nSELECT 'open FROM ${table}.users`);
    const { code, stdout, stderr } = await cli(['--file', file, ...local]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(ourLines(stderr)).toEqual([
      "dynotable sql: This string is never closed with a quote (') (line 2, column 8) (SqlSyntaxError)",
    ]);
  });
});
