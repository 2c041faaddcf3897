import os from 'node:os';
import type { AthenaPlan, RecentExport, ScanLimitsInput } from '../../shared/ipc/athena';
import type { SqlCatalogOutput } from '../../shared/ipc/sql';
import type { CoreContext } from '../core/context';
import { tableSummary } from '../dynamo/table-metadata';
import { type ExportState, listExports } from '../exports/export-control';
import { tableSchemas } from '../agent/sql-assist/context';
import { loadViews } from '../sql/files/view-store';
import { sqlServiceFor } from '../sql/service-registry';
import { type AttrNode, exportSchemaOf } from './export-schema';
import { defaultLimits, wholeScans } from '../sql/scan-limit';
import { choosePath } from './path-choice';
import { ATHENA_USD_PER_TB } from './pricing';
import { translateToAthena, type TranslationResult } from './translate/translate';
import type { S3Client } from '@aws-sdk/client-s3';
import { s3ClientFor } from '../aws/s3-client';
import { observeExport } from './export-observe';

/** docs/SCALE.md: the local Scan rate measured here (4 segments against DynamoDB Local). */
export const LOCAL_ITEMS_PER_SECOND = 3_800;
/** AWS documents no export rate; DynoTable assumes this one and says so (docs/SCALE.md). */
export const EXPORT_BYTES_PER_SECOND = 100e6;
/** An export older than this is not offered: the statement would read day-old data. */
const RECENT_MS = 24 * 3600_000;
export const DEFAULT_GLUE_DATABASE = 'dynotable';

export interface PreparedTable {
  name: string;
  arn?: string;
  recent?: ExportState;
  root?: AttrNode;
  /** `root` is from the export's own files: every attribute and number of every item. */
  complete?: boolean;
}

export interface PreparedAthena {
  plan: AthenaPlan;
  catalog: SqlCatalogOutput;
  tables: PreparedTable[];
  /** The binder's answer for the statement (GROUP BY or aggregates), once it is translated. */
  grouped?: boolean;
}

/** The statement over the Glue tables of these tables' exports, typed from what each export holds. */
export function translateForTables(
  sql: string,
  catalog: SqlCatalogOutput,
  database: string,
  tables: readonly PreparedTable[],
): TranslationResult {
  const target = {
    database,
    tables: new Map(
      tables.flatMap((t) =>
        t.root
          ? [
              [
                t.name,
                // A fresh export is started in DynamoDB JSON; a recent one is read in its own format.
                {
                  glueTable: glueTableName(t.name),
                  root: t.root,
                  format: t.recent?.format ?? 'DYNAMODB_JSON',
                  complete: t.complete ?? false,
                },
              ] as const,
            ]
          : [],
      ),
    ),
  };
  return translateToAthena(sql, catalog, target);
}

/** The Glue table of a DynamoDB table's export: Glue names are lowercase words. */
export function glueTableName(table: string): string {
  return `ddb_${table.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
}

function exportId(arn: string): string {
  return arn.slice(arn.lastIndexOf('/') + 1);
}

/** Where an export's data files are: s3://bucket/prefix/AWSDynamoDB/<export id>/data/. */
export function exportDataLocation(state: { exportArn: string; bucket?: string; prefix?: string }): string {
  const prefix = state.prefix ? `${state.prefix.replace(/\/+$/, '')}/` : '';
  return `s3://${state.bucket ?? ''}/${prefix}AWSDynamoDB/${exportId(state.exportArn)}/data/`;
}

function newestRecent(states: ExportState[], now: number): ExportState | undefined {
  return states
    .filter(
      (s) =>
        s.status === 'COMPLETED' &&
        s.type === 'FULL_EXPORT' &&
        s.bucket !== undefined &&
        now - Date.parse(s.startTime ?? '') < RECENT_MS,
    )
    .sort((a, b) => Date.parse(b.startTime ?? '') - Date.parse(a.startTime ?? ''))[0];
}

function recentExport(table: string, s: ExportState): RecentExport {
  return {
    table,
    exportArn: s.exportArn,
    exportTime: s.startTime ?? '',
    billedSizeBytes: s.billedSizeBytes ?? 0,
    itemCount: s.itemCount ?? 0,
    bucket: s.bucket ?? '',
    ...(s.prefix ? { prefix: s.prefix } : {}),
  };
}

/**
 * The plan's honest choice (issue 17): the local plan's whole-table Scans measured against the
 * user's limits; past them, the Athena path's figures (recent exports, price, export time) and
 * the statement translated for it. Reads nothing of a table's items unless the limit trips
 * (then a small Schema sample of a table without a saved Schema read, for the Glue types).
 */
export async function prepareAthena(
  ctx: CoreContext,
  input: {
    connectionId: string;
    sql: string;
    limits?: ScanLimitsInput;
    database?: string;
    /** The user picked Athena: look up exports and translate whatever the limits say. */
    force?: boolean;
    /**
     * The user wants a new export even where a recent one exists (today's data): the recent
     * ones are still listed, so the choice can say what is passed over, but none is read and
     * the estimate includes the export's time.
     */
    freshExport?: boolean;
  },
  signal: AbortSignal,
): Promise<PreparedAthena> {
  const { connectionId, sql } = input;
  const service = sqlServiceFor(ctx);
  const views = await loadViews(ctx.dataDir, connectionId);
  const local = await service.plan(connectionId, sql, views);
  const catalog = await service.catalog(connectionId, views);
  const scans = wholeScans(local, catalog.tables);
  const scanned = scans.tables;
  const referenced = [...new Set(local.fetches.map((f) => f.call.table))];
  const limits = input.limits ?? defaultLimits(os.totalmem());
  const base = { tableSizeBytes: scans.bytes, itemCount: scans.items, limits };
  const rates = {
    localItemsPerSecond: LOCAL_ITEMS_PER_SECOND,
    exportBytesPerSecond: EXPORT_BYTES_PER_SECOND,
  };
  const first = choosePath({ ...base, ...rates });
  const tables: PreparedTable[] = referenced.map((name) => ({ name }));
  const plan: AthenaPlan = {
    over: first.over,
    limits,
    scannedTables: scanned,
    local: first.local,
    athena: { ...first.athena, usdPerTb: ATHENA_USD_PER_TB, exports: [] },
  };
  if (first.over.length === 0 && !input.force) return { plan, catalog, tables };

  const dynamo = await ctx.clients.dynamo(connectionId);
  const now = Date.now();
  const recents: RecentExport[] = [];
  for (const table of tables) {
    table.arn = (await tableSummary(dynamo, table.name, signal)).arn;
    if (!table.arn || plan.athena.exportsNote) continue;
    try {
      const recent = newestRecent(await listExports(dynamo, table.arn), now);
      if (recent) recents.push(recentExport(table.name, recent));
      if (!input.freshExport) table.recent = recent;
    } catch (error) {
      plan.athena.exportsNote = `Past exports could not be listed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  const allRecent = !input.freshExport && tables.every((t) => t.recent !== undefined);
  const chosen = choosePath({
    ...base,
    ...rates,
    ...(allRecent ? { exportBilledBytes: recents.reduce((sum, r) => sum + r.billedSizeBytes, 0) } : {}),
  });
  plan.athena = {
    ...plan.athena,
    ...chosen.athena,
    exports: recents,
    ...(input.freshExport ? { freshExport: true } : {}),
  };

  // A recent export (DynamoDB JSON or Ion) is read itself (S3, no read capacity): a sample can
  // miss the one item holding an attribute, and only every number tells which DECIMAL holds them.
  let s3: S3Client | undefined;
  const unread: string[] = [];
  for (const table of tables) {
    if (!table.recent) continue;
    try {
      s3 ??= await s3ClientFor(ctx, connectionId);
      table.root = (await observeExport(s3, exportDataLocation(table.recent), signal)).root;
      table.complete = true;
    } catch (error) {
      // The plan still shows a translation; the run reads the files again and stops if it cannot.
      if (signal.aborted) throw error;
      unread.push(
        `The export of ${table.name} could not be read to type its columns (${error instanceof Error ? error.message : String(error)}); this translation is from the items DynoTable has read, and the run reads the export's files before the query starts.`,
      );
    }
  }
  const reports = await tableSchemas(
    ctx,
    connectionId,
    tables.filter((t) => !t.root).map((t) => t.name),
    signal,
  );
  for (const table of tables) {
    const report = reports.get(table.name);
    if (report && !table.root) table.root = exportSchemaOf(report.attributes);
  }
  const translated = translateForTables(sql, catalog, input.database ?? DEFAULT_GLUE_DATABASE, tables);
  plan.translation = translated.ok
    ? { ok: true, sql: translated.translation.sql, notes: [...unread, ...translated.translation.notes] }
    : { ok: false, construct: translated.construct, message: translated.message };
  return { plan, catalog, tables, ...(translated.ok ? { grouped: translated.translation.grouped } : {}) };
}
