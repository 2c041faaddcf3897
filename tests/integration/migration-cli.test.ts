import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ourLines, runCli } from '../support/cli-run';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems } from '../support/dynamo-tables';

const endpoint = inject('dynamoEndpoint');
const client = localClient(endpoint);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-cli-mig-'));
});
afterAll(async () => {
  client.destroy();
  await rm(dir, { recursive: true, force: true });
});

/** The migration commands run with the region in the environment, as a CI job sets it. */
const cli = (args: string[], overrides: NodeJS.ProcessEnv = {}) =>
  runCli(args, { AWS_REGION: 'us-east-1', ...overrides });

/** The table and DynamoDB Local, as every command here names them. */
const at = (name: string) => ['--table', name, '--endpoint', endpoint];

async function table(items: Record<string, AttributeValue>[]): Promise<string> {
  const name = await createTable(client, uniqueTableName('migcli'), { partitionKey: ['id', 'S'] });
  await putItems(client, name, items);
  return name;
}

describe('dynotable scan-migration / fix-migration', () => {
  it('exits 0 on a table with nothing to fix, and prints the JSON report', async () => {
    const name = await table([
      { id: { S: 'a' }, createdAt: { N: '1704448800000' } },
      { id: { S: 'b' }, createdAt: { N: '1704448800001' }, price: { N: '1700000000' } },
    ]);
    const run = await cli(['scan-migration', ...at(name), '--segments', '2', '--quiet']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      itemsScanned: number;
      verdict: { needsFix: boolean; line: string };
    };
    expect(report.itemsScanned).toBe(2);
    expect(report.verdict.needsFix).toBe(false);

    // A CI job against DynamoDB Local need not invent keys (and nothing dials out looking for some).
    const noKeys = await cli(['scan-migration', ...at(name), '--quiet'], {
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
    const scan = await cli(['scan-migration', ...at(name), '--format', 'csv', '--out', out]);
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
      ...at(name),
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
      ...at(name),
      '--policy',
      'shadow-wins',
      '--convert-dates',
      '--quiet',
    ]);
    expect(fix.code).toBe(0);
    expect(JSON.parse(fix.stdout)).toMatchObject({ result: { written: 3, skippedChanged: 0, failed: 0 } });

    const again = await cli(['scan-migration', ...at(name), '--format', 'md', '--quiet']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('# Migration pre-flight');
  });

  it('fails the gate on ISO Dates (one the sort key) until the team acknowledges the setting', async () => {
    const name = await createTable(client, uniqueTableName('migcliiso'), {
      partitionKey: ['id', 'S'],
      sortKey: ['occurredAt', 'S'],
    });
    await putItems(client, name, [
      { id: { S: 'a' }, occurredAt: { S: '2024-01-05T10:00:00.000Z' }, shippedAt: { S: '2024-01-06' } },
      { id: { S: 'b' }, occurredAt: { S: '2024-01-07T10:00:00.000Z' } },
    ]);
    type Report = {
      verdict: { needsFix: boolean; actionNeeded: boolean; acknowledged: unknown[]; line: string };
    };
    const before = await cli(['scan-migration', ...at(name)]);
    expect(before.code).toBe(1);
    expect((JSON.parse(before.stdout) as Report).verdict).toMatchObject({
      needsFix: false,
      actionNeeded: true,
    });
    expect(before.stderr).toContain(
      "No data fix needed, but the models need a setting: store Dates as ISO strings at occurredAt, shippedAt (new ORM: defaultDateStorage 'iso' on that model)",
    );

    // One of the two acknowledged: still something to do.
    const half = await cli(['scan-migration', ...at(name), '--expect', 'occurredAt=iso', '--quiet']);
    expect(half.code).toBe(1);

    const after = await cli([
      'scan-migration',
      ...at(name),
      '--expect',
      'occurredAt=iso',
      '--expect',
      'shippedAt=iso',
    ]);
    expect(after.code).toBe(0);
    expect((JSON.parse(after.stdout) as Report).verdict.acknowledged).toEqual([
      { path: 'occurredAt', storage: 'iso' },
      { path: 'shippedAt', storage: 'iso' },
    ]);
    expect(after.stderr).toContain(
      'Acknowledged model settings: occurredAt ISO strings, shippedAt ISO strings.',
    );

    // The same from a file kept with the models; a flag the data contradicts fails again.
    const file = path.join(dir, 'expectations.json');
    const settings = [
      { path: 'occurredAt', storage: 'iso' },
      { path: 'shippedAt', storage: 'iso' },
    ];
    await writeFile(file, JSON.stringify({ table: name, dateStorage: settings }));
    expect((await cli(['scan-migration', ...at(name), '--expectations', file, '--quiet'])).code).toBe(0);
    const contradicted = await cli([
      'scan-migration',
      ...at(name),
      '--expectations',
      file,
      '--expect',
      'shippedAt=millis',
    ]);
    expect(contradicted.code).toBe(1);
    expect(contradicted.stderr).toContain('shippedAt is acknowledged as epoch ms but holds ISO strings');

    const otherTable = path.join(dir, 'other-expectations.json');
    await writeFile(otherTable, JSON.stringify({ table: 'Orders', dateStorage: settings }));
    const refused = await cli(['scan-migration', ...at(name), '--expectations', otherTable]);
    expect(refused.code).toBe(2);
    expect(ourLines(refused.stderr)).toEqual([
      `dynotable scan-migration: The expectations file ${otherTable} is for the table Orders, not ${name}.`,
    ]);
  });

  it('takes the date storage from the dynotable-orm model `dynotable schema` generated for the table', async () => {
    const name = await table([
      {
        id: { S: 'a' },
        occurredAt: { S: '2024-01-05T10:00:00.000Z' },
        paidAt: { S: '2024-01-06T00:00:00Z' },
      },
      {
        id: { S: 'b' },
        occurredAt: { S: '2024-01-07T10:00:00.000Z' },
        paidAt: { S: '2024-01-08T00:00:00Z' },
      },
    ]);
    expect((await cli(['scan-migration', ...at(name), '--quiet'])).code).toBe(1);
    const model = path.join(dir, `${name}.model.ts`);
    const generated = await cli([
      'schema',
      ...at(name),
      '--full',
      '--format',
      'orm',
      '--out',
      model,
      '--quiet',
    ]);
    expect(generated.code).toBe(0);
    expect(await readFile(model, 'utf8')).toContain("defaultDateStorage: 'iso'");
    const after = await cli(['scan-migration', ...at(name), '--model', model]);
    expect(after.code).toBe(0);
    expect(
      (JSON.parse(after.stdout) as { verdict: { acknowledged: unknown[] } }).verdict.acknowledged,
    ).toEqual(
      expect.arrayContaining([
        { path: 'occurredAt', storage: 'iso' },
        { path: 'paidAt', storage: 'iso' },
      ]),
    );
    // A flag the data contradicts still fails the run: the model is an acknowledgement, not a pass.
    const contradicted = await cli([
      'scan-migration',
      ...at(name),
      '--model',
      model,
      '--expect',
      'paidAt=millis',
      '--quiet',
    ]);
    expect(contradicted.code).toBe(1);
    const notAModel = path.join(dir, 'not-a-model.ts');
    await writeFile(notAModel, 'export const x = 1;\n');
    const refused = await cli(['scan-migration', ...at(name), '--model', notAModel]);
    expect(refused.code).toBe(2);
    expect(ourLines(refused.stderr).join('\n')).toContain('has no dynotable-orm model(...) in it');
  });

  it('finds Dates in string and number sets, and passes once they are acknowledged', async () => {
    const name = await table([
      { id: { S: 'a' }, remindAt: { SS: ['2024-01-05T10:00:00.000Z', '2024-02-05T10:00:00.000Z'] } },
      { id: { S: 'b' }, seenAt: { NS: ['1704448800', '1704448801'] }, tags: { SS: ['red'] } },
    ]);
    const before = await cli(['scan-migration', ...at(name), '--quiet']);
    expect(before.code).toBe(1);
    const report = JSON.parse(before.stdout) as { dateAttributes: Record<string, unknown>[] };
    expect(report.dateAttributes).toEqual([
      expect.objectContaining({ path: 'remindAt', iso: 2, setMembers: 2, mixed: false }),
      expect.objectContaining({ path: 'seenAt', epochSeconds: 2, setMembers: 2, mixed: false }),
    ]);
    const after = await cli([
      'scan-migration',
      ...at(name),
      '--expect',
      'remindAt=iso',
      '--expect',
      'seenAt=seconds',
      '--quiet',
    ]);
    expect(after.code).toBe(0);
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
    const badExpect = await cli(['scan-migration', '--table', 'x_table', '--expect', 'occurredAt=date']);
    expect(badExpect.code).toBe(2);
    expect(ourLines(badExpect.stderr)).toEqual([
      'dynotable scan-migration: --expect wants PATH=STORAGE with STORAGE one of iso, seconds, millis (for example occurredAt=iso), not "occurredAt=date".',
    ]);
    const noTable = await cli(['fix-migration', '--dry-run']);
    expect(noTable.code).toBe(2);
  });
});
