import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { localClient } from '../support/dynamo-local';
import { createSltTables, renameSltTables } from '../support/sql-logic-tables';
import { startBrowserCore, type BrowserCore } from '../support/browser-core';
import { startBigTableAws, type BigTableAws } from '../support/athena/big-table-aws';
import { ATHENA_SETTINGS as settings, rowsOf } from '../support/athena/big-shop';
import { exportNow } from '../support/athena/export-now';
import { GOLDEN_DIR } from '../support/athena/golden';
import { loadSltFiles } from '../support/sql-logic';

/**
 * Issue 30's differential suite end to end: every query of tests/sql-logic/*.slt run by the
 * local engine over DynamoDB Local (sql:run, local) and on the Athena path (athena:run) over
 * the same tables exported by the export server into a local S3, read by the app to type the
 * Glue table, and queried on the local Athena stand-in; each through the real core and SDK
 * clients. A statement gives the same rows, or is refused before it starts, or is a known
 * disagreement kept in tests/athena/differential-export.json; UPDATE_DIFFERENTIAL=1 rewrites it.
 * Ion exports get the same suite: a second copy of every table is exported in Amazon Ion
 * beforehand (the export server writes DynamoDB's Ion layout), so athena:run reads that recent
 * export's Ion files to type the Glue table and Athena reads it through the Ion SerDe.
 */
const FORMATS = [
  { format: 'DYNAMODB_JSON', prefix: 'adiff', suffix: '' },
  { format: 'ION', prefix: 'adiffion', suffix: ' (Ion)' },
] as const;
interface LedgerEntry {
  kind: string;
  sql: string;
  detail: string;
  why: string;
}
const LEDGER = join(GOLDEN_DIR, 'differential-export.json');
const known = existsSync(LEDGER)
  ? (JSON.parse(readFileSync(LEDGER, 'utf8')) as Record<string, LedgerEntry>)
  : {};
const found: Record<string, LedgerEntry> = {};
const files = loadSltFiles();
/** Each format's and file's table names → this run's DynamoDB tables. */
const names = new Map<string, Map<string, string>>();
const env = {} as { client: DynamoDBClient; aws: BigTableAws; app: BrowserCore };
// A failed beforeAll leaves some of these unset; afterAll closes what was started.
const started: Partial<typeof env> = env;

beforeAll(async () => {
  const client = (env.client = localClient(inject('dynamoEndpoint')));
  for (const { prefix, suffix } of FORMATS)
    for (const file of files)
      names.set(`${file.name}${suffix}`, await createSltTables(client, file.tables, prefix));
  // Every table reads as 200 GB, so the plan offers Athena; the items are the file's.
  env.aws = await startBigTableAws({
    dynamoEndpoint: inject('dynamoEndpoint'),
    sizes: new Map(
      [...names.values()]
        .flatMap((m) => [...m.values()])
        .map((n) => [n, { sizeBytes: 200e9, itemCount: 400_000_000 }]),
    ),
    buckets: ['exports', 'results'],
    runMs: 0,
  });
  env.app = await startBrowserCore(env.aws.endpoint);
  for (const file of files)
    for (const table of names.get(`${file.name} (Ion)`)!.values())
      await exportNow(env.aws.endpoint, table, { bucket: 'exports', prefix: 'dynotable', format: 'ION' });
}, 240_000);

afterAll(async () => {
  await started.app?.close();
  await started.aws?.close();
  started.client?.destroy();
  if (process.env.UPDATE_DIFFERENTIAL) writeFileSync(LEDGER, `${JSON.stringify(found, null, 2)}\n`);
});

async function run(
  requestId: string,
  sql: string,
  how: 'athena' | 'local',
): Promise<{ rows: string[] } | { refused: string }> {
  const { app } = env;
  const done = app.waitFor(requestId);
  const started = await app.call(how === 'athena' ? 'athena:run' : 'sql:run', {
    connectionId: app.connectionId,
    sql,
    requestId,
    ...(how === 'athena' ? { settings, startExport: true } : { local: true }),
  });
  if (!started.ok) return { refused: `${started.error.code}: ${started.error.message}` };
  const { last } = await done;
  if (last.type !== 'done') return { refused: JSON.stringify(last) };
  const rows = await rowsOf(app, (last.value as { resultId: string }).resultId);
  ok(await app.call('sql:clearCache', { connectionId: app.connectionId }));
  return { rows };
}

function ok(envelope: { ok: boolean }): void {
  expect(envelope.ok).toBe(true);
}

let serial = 0;
for (const { format, suffix } of FORMATS)
  for (const file of files) {
    describe(`athena differential over ${format === 'ION' ? 'an Ion' : 'a DynamoDB JSON'} export: ${file.name}`, () => {
      for (const record of file.records) {
        if (record.kind !== 'query') continue;
        const key = `${file.name}${suffix}:${record.line}`;
        it(`line ${record.line}: ${record.sql.replace(/\s+/g, ' ').slice(0, 80)}`, async () => {
          const sql = renameSltTables(record.sql, names.get(`${file.name}${suffix}`)!);
          serial += 1;
          const local = await run(`adiff-local-${serial}`, sql, 'local');
          if ('refused' in local) throw new Error(`the local engine refused it: ${local.refused}`);
          const athena = await run(`adiff-athena-${serial}`, sql, 'athena');
          if ('refused' in athena) {
            // Refused before anything started, with a sentence saying why.
            expect(athena.refused).toMatch(/^AthenaUnsupported: .*cannot run on Athena/);
            return;
          }
          if (JSON.stringify(athena.rows) === JSON.stringify(local.rows)) {
            expect(known[key], `${key} agrees now: remove it from differential-export.json`).toBeUndefined();
            return;
          }
          const at = athena.rows.findIndex((r, i) => r !== local.rows[i]);
          const detail = `row ${at + 1}: Athena ${athena.rows[at] ?? '(none)'}, locally ${local.rows[at] ?? '(none)'}`;
          found[key] = {
            kind: 'differs',
            sql: record.sql.replace(/\s+/g, ' '),
            detail,
            why: known[key]?.why ?? 'not explained yet',
          };
          expect({ kind: 'differs', detail }).toEqual(
            known[key] && { kind: known[key].kind, detail: known[key].detail },
          );
        });
      }
    });
  }
