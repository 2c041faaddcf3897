import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CopyReport } from '../../src/shared/ipc/copy';
import { everyTypeItem } from '../fixtures/items-every-type';
import { ourLines, runCli } from '../support/cli-run';
import { rawPutAll, tableChecksum } from '../support/copy-oracle';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';

let endpoint: string;
let dataDir: string;
const client = () => localClient(endpoint);

async function source(): Promise<string> {
  const table = uniqueTableName('clisrc');
  const c = client();
  await createTable(c, table, { partitionKey: ['pk', 'S'] });
  c.destroy();
  const hostile = JSON.parse(
    '{"pk":{"S":"H#1"},"__proto__":{"NS":["1","2.50"]},"constructor":{"B":"AAE="}}',
  ) as Record<string, unknown>;
  const items = [
    everyTypeItem('E#1'),
    hostile,
    ...Array.from({ length: 60 }, (_, i) => ({ pk: { S: `U#${i}` }, n: { N: String(i) } })),
  ];
  await rawPutAll(endpoint, table, items);
  return table;
}

/** What the command itself said on stderr (Node's own warnings about its version left out). */
const said = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('dynotable'))
    .join('\n');

const copy = (args: string[]) => runCli(['copy', ...args], { DYNOTABLE_DATA_DIR: dataDir });

beforeAll(() => {
  endpoint = inject('dynamoEndpoint');
  dataDir = mkdtempSync(path.join(tmpdir(), 'dynotable-copy-cli-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('dynotable copy', () => {
  it('creates the target, copies every item exactly and exits 0', async () => {
    const from = await source();
    const to = uniqueTableName('clidst');
    const run = await copy([
      '--from-table',
      from,
      '--from-endpoint',
      endpoint,
      '--to-table',
      to,
      '--to-endpoint',
      endpoint,
      '--create-table',
      '--quiet',
    ]);
    expect(said(run.stderr)).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as CopyReport;
    expect(report).toMatchObject({
      itemsRead: 62,
      itemsWritten: 62,
      itemsSkipped: 0,
      itemsFailed: 0,
      created: true,
    });
    expect(report.verified).toMatchObject({ sourceCount: 62, targetCount: 62, checksumsMatch: true });
    expect(await tableChecksum(endpoint, to)).toEqual(await tableChecksum(endpoint, from));
  }, 120_000);

  it('exits 1 when skip leaves the target holding other items', async () => {
    const from = await source();
    const to = uniqueTableName('cliskip');
    const c = client();
    await createTable(c, to, { partitionKey: ['pk', 'S'] });
    c.destroy();
    await rawPutAll(endpoint, to, [{ pk: { S: 'U#3' }, n: { N: '300' } }]);
    const run = await copy([
      '--from-table',
      from,
      '--from-endpoint',
      endpoint,
      '--to-table',
      to,
      '--to-endpoint',
      endpoint,
      '--if-exists',
      'skip',
      '--format',
      'table',
      '--quiet',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^skipped\s+1$/m);
    expect(run.stdout).toMatch(/^checksums\s+differ/m);
  }, 120_000);

  it('exits 2 with one line naming an incompatible target, and 2 on a bad flag', async () => {
    const from = await source();
    const to = uniqueTableName('clibad');
    const c = client();
    await createTable(c, to, { partitionKey: ['id', 'N'] });
    c.destroy();
    const run = await copy([
      '--from-table',
      from,
      '--from-endpoint',
      endpoint,
      '--to-table',
      to,
      '--to-endpoint',
      endpoint,
      '--quiet',
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(said(run.stderr)).toBe(
      `dynotable copy: The table ${to} cannot take these items: its partition key is "id" (N), the copied items' partition key is "pk" (S). (IncompatibleKeys)`,
    );
    const bad = await copy(['--from-table', from, '--to-table', to, '--if-exists', 'sometimes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--if-exists wants skip, overwrite or newer:ATTRIBUTE/);
  }, 120_000);
  it('--resume with nothing to resume is a usage error: exit 2 and a sentence naming the tables', async () => {
    const flags = ['--from-endpoint', 'http://127.0.0.1:9', '--to-endpoint', 'http://127.0.0.1:9'];
    const run = await copy([...flags, '--from-table', 'Orders', '--to-table', 'OrdersCopy', '--resume']);
    expect(run.code).toBe(2);
    expect(ourLines(run.stderr)).toEqual([
      'dynotable copy: There is no stopped copy from Orders to OrdersCopy with these flags to resume.',
    ]);
    expect(run.stderr).not.toContain('InternalError');
  }, 60_000);
});
