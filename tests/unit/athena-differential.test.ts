import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { runLocal } from '../../src/main/sql/executor/run-local';
import { translateToAthena, type GlueTarget } from '../../src/main/athena/translate/translate';
import { glueTableInput, itemType } from '../../src/main/athena/glue-table';
import { ExportObserver } from '../../src/main/athena/export-schema';
import { ionExportItems } from '../../src/main/athena/ion-export';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { fullLine, type WireItem } from '../support/exports/export-layout';
import { athenaOnDuck } from '../support/athena/duck-athena';
import { athenaExactRows, localExactRows } from '../support/athena/exact-rows';
import { GOLDEN_DIR } from '../support/athena/golden';
import { loadSltFiles, localTables } from '../support/sql-logic';

/**
 * Issue 30's differential suite: every query of the SQL test corpus (tests/sql-logic/*.slt) run
 * by the local engine and, translated, by the Athena stand-in (DuckDB over the same items as the
 * Glue table's `item` struct, typed from every item as the Athena path types it). Each statement
 * either gives the local rows digit for digit, or is refused before it would start with a
 * sentence, or is a known disagreement kept in tests/athena/differential.json with what differs;
 * a new disagreement, or a query that would start and fail, fails here. UPDATE_DIFFERENTIAL=1
 * rewrites the ledger, to be read in review. Ion exports get the same suite.
 */
const LEDGER = join(GOLDEN_DIR, 'differential.json');
/** A known disagreement: what differs, and why (kept across rewrites). */
interface LedgerEntry {
  kind: string;
  sql: string;
  detail: string;
  why: string;
}
type Outcome =
  { kind: 'same' } | { kind: 'refused'; message: string } | { kind: 'differs' | 'fails'; detail: string };
const known = existsSync(LEDGER)
  ? (JSON.parse(readFileSync(LEDGER, 'utf8')) as Record<string, LedgerEntry>)
  : {};
const found: Record<string, LedgerEntry> = {};
const connections: DuckDBConnection[] = [];

afterAll(() => {
  for (const c of connections) c.closeSync();
  if (process.env.UPDATE_DIFFERENTIAL) writeFileSync(LEDGER, `${JSON.stringify(found, null, 2)}\n`);
});

function glueName(table: string): string {
  return `ddb_${table.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
}

const line = (row: (string | null)[]): string => row.map((v) => v ?? 'NULL').join(' | ');

/**
 * Both export formats are typed from their own files, as the Athena path reads them. The Ion
 * suite writes each table's items as the lines of a real Ion export and reads them back with
 * main's Ion reader (src/main/athena/ion-export.ts), so the Glue table, the translation and the
 * stand-in's rows all come from what that reader makes of the export's text.
 */
const FORMATS = [
  { format: 'DYNAMODB_JSON', suffix: '', ion: false },
  { format: 'ION', suffix: ' (Ion export)', ion: true },
] as const;

function throughIon(items: readonly Item[]): Item[] {
  return ionExportItems(items.map((item) => `${fullLine(item as WireItem, 'ION')}\n`).join(''));
}

for (const file of loadSltFiles()) {
  for (const { format, suffix, ion } of FORMATS)
    describe(`athena differential ${file.name}${suffix}`, () => {
      const tables = localTables(file.tables);
      const exported = new Map(file.tables.map((t) => [t.name, ion ? throughIon(t.items) : t.items]));
      const roots = new Map(
        file.tables.map((t) => {
          const seen = new ExportObserver();
          for (const item of exported.get(t.name)!) seen.see(item);
          return [t.name, seen.root] as const;
        }),
      );
      const target: GlueTarget = {
        database: 'dynotable',
        tables: new Map(
          [...roots].map(([name, root]) => [
            name,
            { glueTable: glueName(name), root, complete: true, format },
          ]),
        ),
      };
      const catalog = { tables: tables.map((t) => t.info), views: [] };
      let duck: Promise<DuckDBConnection> | undefined;
      const connect = () =>
        (duck ??= athenaOnDuck(
          'dynotable',
          file.tables.map((t) => ({
            glueTable: glueName(t.name),
            itemType: ion
              ? glueTableInput({
                  name: glueName(t.name),
                  format,
                  location: '',
                  root: roots.get(t.name)!,
                  exportArn: '',
                }).table.StorageDescriptor.Columns[0]!.Type
              : itemType(roots.get(t.name)!, []),
            items: exported.get(t.name)!,
            ion,
          })),
        ).then((c) => (connections.push(c), c)));

      async function outcome(sql: string, ordered: boolean): Promise<Outcome> {
        const translated = translateToAthena(sql, catalog, target);
        if (!translated.ok) return { kind: 'refused', message: translated.message };
        const local = runLocal(sql, tables).rows;
        let athena: (string | null)[][];
        try {
          athena = (await athenaExactRows(await connect(), translated.translation.sql)).rows;
        } catch (error) {
          return { kind: 'fails', detail: (error as Error).message.split('\n')[0]! };
        }
        const mine = localExactRows(local).map(line);
        const theirs = athena.map(line);
        const [a, b] = ordered ? [theirs, mine] : [[...theirs].sort(), [...mine].sort()];
        if (JSON.stringify(a) === JSON.stringify(b)) return { kind: 'same' };
        const at = a.findIndex((r, i) => r !== b[i]);
        return {
          kind: 'differs',
          detail: `row ${at + 1}: Athena ${a[at] ?? '(none)'}, locally ${b[at] ?? '(none)'}`,
        };
      }

      for (const record of file.records) {
        if (record.kind !== 'query') continue;
        const key = `${file.name}${ion ? ' (Ion)' : ''}:${record.line}`;
        it(`line ${record.line}: ${record.sql.replace(/\s+/g, ' ').slice(0, 80)}`, async () => {
          const result = await outcome(record.sql, !record.rowsort);
          if (result.kind === 'same') {
            expect(known[key], `${key} agrees now: remove it from differential.json`).toBeUndefined();
            return;
          }
          if (result.kind === 'refused') {
            // A refusal is a sentence naming what and why, given before anything would start.
            expect(result.message).toMatch(/cannot run on Athena|both read as/);
            return;
          }
          found[key] = {
            kind: result.kind,
            sql: record.sql.replace(/\s+/g, ' '),
            detail: result.detail,
            why: known[key]?.why ?? 'not explained yet',
          };
          expect({ kind: result.kind, detail: result.detail }).toEqual(
            known[key] && { kind: known[key].kind, detail: known[key].detail },
          );
        });
      }
    });
}
