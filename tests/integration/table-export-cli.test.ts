import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TableExportReport } from '../../src/shared/ipc/transfer';
import { everyTypeItem } from '../fixtures/items-every-type';
import { ourLines, runCli } from '../support/cli-run';
import { rawPutAll } from '../support/copy-oracle';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';
import { canonical, rawScanItems } from '../support/raw-dynamo';

let endpoint: string;
let dataDir: string;
let table: string;

const exportTable = (args: string[]) =>
  runCli(['export', 'table', '--endpoint', endpoint, ...args], { DYNOTABLE_DATA_DIR: dataDir });

beforeAll(async () => {
  endpoint = inject('dynamoEndpoint');
  dataDir = mkdtempSync(path.join(tmpdir(), 'dynotable-export-cli-'));
  table = uniqueTableName('cliexport');
  const c = localClient(endpoint);
  await createTable(c, table, { partitionKey: ['pk', 'S'] });
  c.destroy();
  const hostile = JSON.parse(
    '{"pk":{"S":"H#1"},"__proto__":{"NS":["1","2.50"]},"constructor":{"B":"AAE="},"a.b":{"S":"#x"}}',
  ) as Record<string, unknown>;
  await rawPutAll(endpoint, table, [
    everyTypeItem('E#1'),
    hostile,
    ...Array.from({ length: 40 }, (_, i) => ({ pk: { S: `U#${i}` }, n: { N: String(i) } })),
  ]);
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('dynotable export table', () => {
  it('writes every stored item to the file, as DynamoDB holds it, and prints the report', async () => {
    const out = path.join(dataDir, 'cli.jsonl');
    const run = await exportTable(['--table', table, '--out', out]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as TableExportReport;
    expect(report).toMatchObject({ path: out, items: 42 });
    const written = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => canonical((JSON.parse(line) as { Item: unknown }).Item))
      .sort();
    expect(written).toEqual((await rawScanItems(endpoint, table)).map((item) => canonical(item)).sort());
  });

  it('refuses to replace a file unless told, and says which format it wants', async () => {
    const out = path.join(dataDir, 'cli.jsonl');
    const again = await exportTable(['--table', table, '--out', out]);
    expect(again.code).toBe(2);
    expect(ourLines(again.stderr).join('\n')).toContain(out);
    const wrong = await exportTable([
      '--table',
      table,
      '--out',
      path.join(dataDir, 'x.txt'),
      '--format',
      'xml',
    ]);
    expect(wrong.code).toBe(2);
    expect(ourLines(wrong.stderr).join('\n')).toContain(
      '--format wants jsonl, dynamodb-json or csv, not "xml".',
    );
  });

  it('--resume with nothing to resume is a usage error with a sentence, never InternalError', async () => {
    for (const id of ['texp-nothing-00000000', 'not-an-export']) {
      const run = await exportTable(['--resume', id]);
      expect(run.code).toBe(2);
      const said = ourLines(run.stderr).join('\n');
      expect(said).toContain(id);
      expect(said).toMatch(/There is no (stopped export|table export with the id)/);
      expect(said).not.toContain('InternalError');
    }
  });
});
