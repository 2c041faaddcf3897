import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createUnavailableSecretStore } from '../../src/main/aws/secret-store';
import type { CoreContext } from '../../src/main/core/context';
import { createCore, shutdownCore } from '../../src/main/create-core';
import { journalHandlers } from '../../src/main/ipc/handlers/journal';
import { migrationHandlers } from '../../src/main/ipc/handlers/migration';
import { sqlHandlers } from '../../src/main/ipc/handlers/sql';
import type { Connection } from '../../src/shared/ipc/connection';
import type { CopyReport } from '../../src/shared/ipc/copy';
import { ourLines, runCli } from '../support/cli-run';
import { rawPutAll, tableChecksum } from '../support/copy-oracle';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';
import { rawScanItems } from '../support/raw-dynamo';

/**
 * Every CLI command runs on a core of its own in the shared data folder: a write it makes is in
 * the app's journal, a saved read-only connection refuses it with the app's sentence, connections
 * named by flags are never saved, and the process ends by itself once the command has answered.
 */
let endpoint: string;
let dataDir: string;
let app: CoreContext;
let writable: Connection;
let readOnly: Connection;

const cli = (args: string[], naturalExit = false) =>
  runCli(args, { DYNOTABLE_DATA_DIR: dataDir }, { naturalExit });

/** `dynotable copy` from DynamoDB Local named by its endpoint into a saved connection. */
const copyInto = (from: string, to: string, connection: string, extra: string[] = []) =>
  cli([
    'copy',
    '--from-endpoint',
    endpoint,
    '--from-table',
    from,
    '--to-connection',
    connection,
    '--to-table',
    to,
    ...extra,
    '--quiet',
  ]);

async function filledTable(prefix: string, count: number): Promise<string> {
  const table = uniqueTableName(prefix);
  const c = localClient(endpoint);
  await createTable(c, table, { partitionKey: ['pk', 'S'] });
  c.destroy();
  await rawPutAll(
    endpoint,
    table,
    Array.from({ length: count }, (_, i) => ({ pk: { S: `K#${i}` }, n: { N: String(i) } })),
  );
  return table;
}

beforeAll(async () => {
  endpoint = inject('dynamoEndpoint');
  dataDir = mkdtempSync(path.join(tmpdir(), 'dynotable-cli-core-'));
  // The app, on the same data folder, with two saved connections to DynamoDB Local.
  app = createCore({
    mode: 'browser',
    version: 'test',
    dataDir,
    secrets: createUnavailableSecretStore(),
    openUrl: () => Promise.resolve(),
  });
  const saved = {
    color: '#1f6feb',
    kind: 'default-chain',
    region: 'us-east-1',
    endpoint,
    isProduction: false,
  } as const;
  writable = await app.connections.save({ ...saved, label: 'Local writable', readOnly: false });
  readOnly = await app.connections.save({ ...saved, label: 'Local read-only', readOnly: true });
});

afterAll(async () => {
  await shutdownCore(app);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the CLI on the app core', () => {
  it("a copy into a saved connection is in that connection's History, journaled as the app's copies are", async () => {
    const from = await filledTable('clicoresrc', 25);
    const to = await filledTable('clicoredst', 0);
    const run = await copyInto(from, to, 'Local writable', ['--if-exists', 'overwrite']);
    expect(ourLines(run.stderr)).toEqual([]);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as CopyReport).itemsWritten).toBe(25);
    expect(await tableChecksum(endpoint, to)).toEqual(await tableChecksum(endpoint, from));

    // The app's own journal:list, in the same data folder, lists the CLI's copy with its items.
    const listing = await journalHandlers['journal:list']({ connectionId: writable.id, table: to }, app);
    expect(listing.entries).toHaveLength(1);
    expect(listing.entries[0]).toMatchObject({ table: to, source: 'copy', count: 25 });

    // The connection named by --from-endpoint lived in the CLI's memory only: nothing was saved.
    const file = JSON.parse(readFileSync(path.join(dataDir, 'connections.json'), 'utf8')) as {
      connections: { label: string }[];
    };
    expect(file.connections.map((c) => c.label).sort()).toEqual(['Local read-only', 'Local writable']);
  }, 120_000);

  it("a saved read-only connection refuses a CLI write with the app's sentence, and nothing is written", async () => {
    const from = await filledTable('clicorerosrc', 5);
    const to = await filledTable('clicorerodst', 0);
    const run = await copyInto(from, to, readOnly.id);
    expect(run.code).toBe(2);
    expect(ourLines(run.stderr)).toEqual([
      'dynotable copy: The connection "Local read-only" is read-only, so DynoTable writes nothing through it. Edit the connection to allow writes. (ReadOnlyConnection)',
    ]);
    expect(run.stdout).toBe('');
    expect(await rawScanItems(endpoint, to)).toEqual([]);

    const fix = await cli(['fix-migration', '--connection', 'Local read-only', '--table', to, '--quiet']);
    expect(fix.code).toBe(2);
    expect(ourLines(fix.stderr)).toEqual([
      'dynotable fix-migration: The connection "Local read-only" is read-only, so DynoTable writes nothing through it. Edit the connection to allow writes. (ReadOnlyConnection)',
    ]);
  }, 120_000);

  it("a saved connection's CLI scan, fix plan and SQL statements are the app's: its channels list them", async () => {
    const table = await filledTable('clicorejobs', 6);
    await rawPutAll(endpoint, table, [{ pk: { S: 'K#dotted' }, 'a.b': { S: 'moved' } }]);
    const at = ['--connection', 'Local writable', '--table', table, '--quiet'];

    const scan = await cli(['scan-migration', ...at]);
    expect(scan.code, scan.stderr).toBe(1);
    const scanId = (JSON.parse(scan.stdout) as { scanId: string }).scanId;
    const scans = await migrationHandlers['migration:scans']({ connectionId: writable.id, table }, app);
    expect(scans.map((s) => [s.scanId, s.state])).toEqual([[scanId, 'done']]);

    const dry = await cli(['fix-migration', ...at, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(1);
    const planId = (JSON.parse(dry.stdout) as { planId: string }).planId;
    // The plan is the app's, in its data folder: the Pre-flight view could run it from here.
    const status = await migrationHandlers['migration:fixStatus']({ planId }, app);
    expect(status.plan).toMatchObject({ planId, table, connectionId: writable.id, updates: 1, moves: 1 });
    expect(status.result).toBeNull();

    const statement = `SELECT COUNT(*) AS n FROM "${table}"`;
    const sql = await cli(['sql', statement, '--connection', 'Local writable', '--quiet']);
    expect(sql.code, sql.stderr).toBe(0);
    const history = await sqlHandlers['sql:history']({ connectionId: writable.id }, app);
    expect(history[0]).toMatchObject({ sql: statement, source: 'cli' });
  }, 180_000);

  it('naming a connection both ways, or one that is not saved, is a usage error', async () => {
    const both = await cli([
      'sql',
      'SELECT * FROM t',
      '--connection',
      'Local writable',
      '--endpoint',
      endpoint,
    ]);
    expect(both.code).toBe(2);
    expect(ourLines(both.stderr)).toEqual([
      'dynotable sql: Give either --connection or --profile/--region/--endpoint, not both.',
    ]);
    const none = await cli(['schema', '--table', 'whatever', '--connection', 'Nobody']);
    expect(none.code).toBe(2);
    expect(ourLines(none.stderr)).toEqual([
      `dynotable schema: --connection: no saved connection is named "Nobody"; DynoTable's connections list shows them.`,
    ]);
  }, 60_000);

  it('each command ends its process by itself once it has answered: its core is shut down', async () => {
    const table = await filledTable('clicoreexit', 12);
    const out = path.join(dataDir, 'exit.jsonl');
    // Without bin/dynotable's forced exit, a worker, client or timer left open would keep the
    // process alive and this test would time out.
    const runs = await Promise.all([
      cli(['sql', `SELECT COUNT(*) AS n FROM "${table}"`, '--endpoint', endpoint, '--quiet'], true),
      cli(['schema', '--table', table, '--endpoint', endpoint, '--quiet'], true),
      cli(['export', 'table', '--table', table, '--out', out, '--endpoint', endpoint, '--quiet'], true),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(JSON.parse(runs[0].stdout)).toEqual([{ n: 12 }]);
  }, 180_000);
});
