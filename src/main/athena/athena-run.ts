import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { AthenaSettings } from '../../shared/ipc/athena';
import type { Progress } from '../../shared/ipc/operations';
import type { SqlResultSummary } from '../../shared/ipc/sql';
import type { CoreContext } from '../core/context';
import type { OperationOutcome, OperationRun } from '../core/operations';
import {
  type ExportState,
  describeExport,
  enablePitr,
  follow,
  pitrState,
  startExport,
} from '../exports/export-control';
import { sqlServiceFor } from '../sql/service-registry';
import { athenaClientsFor } from './athena-clients';
import {
  exportDataLocation,
  glueTableName,
  type PreparedAthena,
  prepareAthena,
  translateForTables,
} from './athena-plan';
import type { S3Client } from '@aws-sdk/client-s3';
import { s3ClientFor } from '../aws/s3-client';
import { observeExport } from './export-observe';
import { ensureGlueTable } from './glue-catalog';
import { glueTableInput } from './glue-table';
import { runAthenaQuery } from './run-query';

export const ATHENA_UNSUPPORTED = 'AthenaUnsupported';
export const EXPORT_NEEDED = 'ExportNeeded';
export const ATHENA_QUERY_FAILED = 'AthenaQueryFailed';

export interface AthenaRunRequest {
  connectionId: string;
  sql: string;
  settings: AthenaSettings;
  startExport?: boolean;
  freshExport?: boolean;
}

const megabytes = (bytes: number): string =>
  `${(bytes / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;

function progress(message: string): Progress {
  return { items: 0, pages: 0, consumedCapacity: 0, message };
}

/**
 * Checks everything the Athena path needs before it starts, so a statement Athena cannot run
 * as translated, or one that needs an export the user did not agree to, starts nothing.
 */
export async function prepareAthenaRun(
  ctx: CoreContext,
  request: AthenaRunRequest,
  signal: AbortSignal,
): Promise<PreparedAthena> {
  const prepared = await prepareAthena(
    ctx,
    {
      connectionId: request.connectionId,
      sql: request.sql,
      database: request.settings.database,
      force: true,
      ...(request.freshExport ? { freshExport: true } : {}),
    },
    signal,
  );
  const translation = prepared.plan.translation;
  if (!translation?.ok)
    throw new AppFailure(
      ATHENA_UNSUPPORTED,
      translation?.message ?? 'This statement reads no table, so there is nothing to run on Athena.',
    );
  const missing = prepared.tables.filter((t) => !t.recent).map((t) => t.name);
  if (missing.length > 0 && !request.startExport && !request.freshExport)
    throw new AppFailure(
      EXPORT_NEEDED,
      `${missing.join(', ')} has no export from the last 24 hours. Agree to start one (it uses no read capacity) or pick the local scan.`,
    );
  if (missing.length > 0 && !request.settings.exportBucket)
    throw new AppFailure(ErrorCodes.invalidInput, 'Name the S3 bucket the new export is written to.');
  return prepared;
}

/** The Athena path, under one requestId: export (if agreed), Glue table, query, result store. */
export async function runOnAthena(
  ctx: CoreContext,
  request: AthenaRunRequest,
  prepared: PreparedAthena,
  run: OperationRun,
): Promise<OperationOutcome<'athena:run'>> {
  const started = Date.now();
  const { settings } = request;
  const dynamo = await ctx.clients.dynamo(request.connectionId);
  const { athena, glue } = await athenaClientsFor(dynamo);
  const warnings: string[] = [];
  const exportsUsed: string[] = [];
  const states: ExportState[] = [];
  let s3: S3Client | undefined;
  for (const table of prepared.tables) {
    let state: ExportState | undefined = table.recent;
    if (!state) {
      // An export needs point-in-time recovery; the user agreed to the export knowing this.
      if ((await pitrState(dynamo, table.name, run.signal)).status !== 'ENABLED') {
        await enablePitr(dynamo, table.name);
        warnings.push(
          `Point-in-time recovery was turned on for ${table.name} to export it; it is billed per GB-month until turned off.`,
        );
      }
      const begun = await startExport(dynamo, {
        tableArn: table.arn ?? table.name,
        bucket: settings.exportBucket ?? '',
        ...(settings.exportPrefix ? { prefix: settings.exportPrefix } : {}),
        format: 'DYNAMODB_JSON',
      });
      state = await follow(
        (signal) => describeExport(dynamo, begun.exportArn, signal),
        (s) => run.emit({ type: 'progress', progress: progress(`Exporting ${table.name}: ${s.status}`) }),
        run.signal,
        { firstMs: 500, maxDelayMs: 30_000 },
      );
      if (state.status !== 'COMPLETED')
        throw new AppFailure(
          'ExportFailed',
          `The export of ${table.name} failed: ${state.failure ?? state.status}.`,
        );
    }
    exportsUsed.push(state.exportArn);
    states.push(state);
  }
  // The Glue table and the statement are written from the export's own files, which the query
  // reads: every attribute any item holds, every number's digits. A sample could miss either.
  const tables = await Promise.all(
    prepared.tables.map(async (table, i) => {
      const state = states[i]!;
      s3 ??= await s3ClientFor(ctx, request.connectionId);
      const seen = await observeExport(s3, exportDataLocation(state), run.signal);
      return { ...table, recent: state, root: seen.root, complete: true };
    }),
  );
  const translated = translateForTables(request.sql, prepared.catalog, settings.database, tables);
  if (!translated.ok) throw new AppFailure(ATHENA_UNSUPPORTED, translated.message);
  const translation = translated.translation;
  for (const [i, table] of tables.entries()) {
    const state = states[i]!;
    const { table: input, notes } = glueTableInput({
      name: glueTableName(table.name),
      format: state.format,
      location: exportDataLocation(state),
      root: table.root,
      exportArn: state.exportArn,
    });
    run.emit({ type: 'progress', progress: progress(`Glue table ${settings.database}.${input.Name}`) });
    await ensureGlueTable(glue, settings.database, input, run.signal);
    warnings.push(...notes);
  }
  warnings.push(...translation.notes);
  const outcome = await runAthenaQuery(athena, {
    sql: translation.sql,
    database: settings.database,
    workGroup: settings.workGroup,
    outputLocation: settings.outputLocation,
    numberText: translation.numberText,
    signal: run.signal,
    pollMs: 500,
    onProgress: (p) =>
      run.emit({
        type: 'progress',
        progress: progress(
          `Athena: ${p.state} · ${megabytes(p.dataScannedBytes)} scanned · $${p.costUsd.toFixed(4)}`,
        ),
      }),
  });
  if (outcome.status === 'failed')
    throw new AppFailure(ATHENA_QUERY_FAILED, `Athena could not run the statement: ${outcome.reason}`);
  if (outcome.status === 'cancelled')
    throw new AppFailure(
      'Cancelled',
      `Stopped on Athena after ${megabytes(outcome.dataScannedBytes)} scanned.`,
    );
  if (outcome.truncated)
    warnings.push(
      `Athena returned more rows than DynoTable keeps (${outcome.rows.length.toLocaleString('en-US')}).`,
    );
  const summary: SqlResultSummary = await sqlServiceFor(ctx).addRows({
    connectionId: request.connectionId,
    columns: outcome.columns,
    rows: outcome.rows,
    grouped: translation.grouped,
    warnings: [...new Set(warnings)],
    elapsedMs: Date.now() - started,
  });
  const value: SqlResultSummary = {
    ...summary,
    athena: {
      queryExecutionId: outcome.queryExecutionId,
      sql: translation.sql,
      dataScannedBytes: outcome.dataScannedBytes,
      costUsd: outcome.costUsd,
      exports: exportsUsed,
    },
  };
  return {
    progress: { ...progress('Done'), items: summary.total },
    value,
  };
}
