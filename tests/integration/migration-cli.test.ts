import { BatchWriteItemCommand, CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { localClient, uniqueTableName } from '../support/dynamo-local';

const endpoint = inject('dynamoEndpoint');
const client = localClient(endpoint);
const root = path.resolve(__dirname, '../..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-cli-mig-'));
});
afterAll(async () => {
  client.destroy();
  await rm(dir, { recursive: true, force: true });
});

/** The real CLI entry in a child process, with credentials the way a CI job passes them. */
function cli(
  args: string[],
  overrides: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // An override of undefined removes the variable from the child's environment.
    const merged: NodeJS.ProcessEnv = {
      ...process.env,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_REGION: 'us-east-1',
      AWS_PROFILE: undefined,
      ...overrides,
    };
    const env = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
    const child = spawn(
      process.execPath,
      [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'src/cli/index.ts'), ...args],
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

/** stderr minus the SDK's Node version notice, which is not ours to silence. */
const ourLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('dynotable '));

async function table(items: Record<string, unknown>[]): Promise<string> {
  const name = uniqueTableName('migcli');
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    }),
  );
  await client.send(
    new BatchWriteItemCommand({
      RequestItems: { [name]: items.map((Item) => ({ PutRequest: { Item: Item as never } })) },
    }),
  );
  return name;
}

describe('dynotable scan-migration / fix-migration', () => {
  it('exits 0 on a table with nothing to fix, and prints the JSON report', async () => {
    const name = await table([
      { id: { S: 'a' }, createdAt: { N: '1704448800000' } },
      { id: { S: 'b' }, createdAt: { N: '1704448800001' }, price: { N: '1700000000' } },
    ]);
    const run = await cli([
      'scan-migration',
      '--table',
      name,
      '--endpoint',
      endpoint,
      '--segments',
      '2',
      '--quiet',
    ]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      itemsScanned: number;
      verdict: { needsFix: boolean; line: string };
    };
    expect(report.itemsScanned).toBe(2);
    expect(report.verdict.needsFix).toBe(false);

    // A CI job against DynamoDB Local need not invent keys (and nothing dials out looking for some).
    const noKeys = await cli(['scan-migration', '--table', name, '--endpoint', endpoint, '--quiet'], {
      AWS_ACCESS_KEY_ID: undefined,
      AWS_SECRET_ACCESS_KEY: undefined,
      AWS_CONFIG_FILE: path.join(dir, 'no-config'),
      AWS_SHARED_CREDENTIALS_FILE: path.join(dir, 'no-credentials'),
    });
    expect(noKeys.code).toBe(0);
  });

  it('exits 1 with findings, writes CSV to --out; the fix dry run, the fix, then 0', async () => {
    const name = await table([
      { id: { S: 'a' }, 'address.city': { S: 'Valencia' } },
      { id: { S: 'b' }, 'address.city': { S: 'Valencia' }, address: { M: { city: { S: 'Madrid' } } } },
      { id: { S: 'c' }, createdAt: { S: '2024-01-05T10:00:00.000Z' } },
      { id: { S: 'd' }, createdAt: { N: '1704448800000' } },
    ]);
    const out = path.join(dir, 'report.csv');
    const scan = await cli([
      'scan-migration',
      '--table',
      name,
      '--endpoint',
      endpoint,
      '--format',
      'csv',
      '--out',
      out,
    ]);
    expect(scan.code).toBe(1);
    const csv = await readFile(out, 'utf8');
    expect(csv.split('\r\n')[0]).toMatch(
      /^finding,name,items,parentMissing,sameAsNested,differsFromNested,iso,epochMillis/,
    );
    expect(csv).toContain('dotted,address.city,2,1,0,1,');
    expect(csv).toContain('date,createdAt,2,,,,1,1,0,true,');
    expect(scan.stderr).toContain('Fix before the new ORM writes');

    const dry = await cli([
      'fix-migration',
      '--table',
      name,
      '--endpoint',
      endpoint,
      '--dry-run',
      '--policy',
      'shadow-wins',
      '--convert-dates',
      '--quiet',
    ]);
    expect(dry.code).toBe(1);
    const plan = JSON.parse(dry.stdout) as {
      updates: number;
      moves: number;
      dateConversions: number;
      sampleRequests: unknown[];
    };
    expect(plan).toMatchObject({ updates: 3, moves: 2, dateConversions: 1 });
    expect(plan.sampleRequests).toHaveLength(3);

    const fix = await cli([
      'fix-migration',
      '--table',
      name,
      '--endpoint',
      endpoint,
      '--policy',
      'shadow-wins',
      '--convert-dates',
      '--quiet',
    ]);
    expect(fix.code).toBe(0);
    expect(JSON.parse(fix.stdout)).toMatchObject({ result: { written: 3, skippedChanged: 0, failed: 0 } });

    const again = await cli([
      'scan-migration',
      '--table',
      name,
      '--endpoint',
      endpoint,
      '--format',
      'md',
      '--quiet',
    ]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('# Migration pre-flight');
  });

  it('exits 2 with one line on errors', async () => {
    const missing = await cli(['scan-migration', '--table', 'no_such_table_here', '--endpoint', endpoint]);
    expect(missing.code).toBe(2);
    expect(ourLines(missing.stderr)).toEqual([
      expect.stringMatching(/^dynotable scan-migration: .*\(ResourceNotFoundException\)$/),
    ]);
    const usage = await cli(['scan-migration', '--table', 'x_table', '--segments', '0']);
    expect(usage.code).toBe(2);
    expect(ourLines(usage.stderr)).toEqual([
      'dynotable scan-migration: --segments wants a positive number up to 64, not "0".',
    ]);
    const noTable = await cli(['fix-migration', '--dry-run']);
    expect(noTable.code).toBe(2);
  });
});
