import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { ChannelInput, ChannelOutput } from '../../shared/ipc/contract';
import type { HealthReport } from '../../shared/ipc/health';
import { clientConfigFor } from '../aws/client-config';
import type { CoreContext } from '../core/context';
import { assertNotRunning } from '../migration/service';
import { newMigrationId } from '../migration/store';
import { analyzeHealth } from './analyze';
import { recordedTableReads } from './index-reads';
import { lastHealthReport, saveLastHealthReport } from './report-store';
import { enableContributorInsights, monitoringFor, type MonitoringOrWhy } from './cloudwatch';

/** Reports kept while DynoTable runs (a report is a few hundred KB at most): the newest 20. */
const KEPT = 20;
const reports = new WeakMap<CoreContext, Map<string, HealthReport>>();

function reportsOf(ctx: CoreContext): Map<string, HealthReport> {
  let map = reports.get(ctx);
  if (!map) reports.set(ctx, (map = new Map<string, HealthReport>()));
  return map;
}

async function monitoringOf(ctx: CoreContext, connectionId: string): Promise<MonitoringOrWhy> {
  const connection = await ctx.connections.get(connectionId);
  const config = clientConfigFor(connection, {
    secrets: ctx.secrets,
    playground: ctx.playground,
    profileCredentials: ctx.profileCredentials,
  });
  // The credentials the connection's DynamoDB reads use: for a CLI connection named by flags,
  // those come from its flags (and its terminal's MFA prompt), not from a saved connection's.
  const { credentials } = (await ctx.clients.dynamo(connectionId)).config;
  return monitoringFor({ ...config, credentials }, connection.readOnly);
}

export async function startHealthAnalysis(
  input: ChannelInput<'health:analyze'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'health:analyze'>> {
  assertNotRunning(ctx, input.requestId);
  const client = await ctx.clients.dynamo(input.connectionId);
  const monitoring = await monitoringOf(ctx, input.connectionId);
  const reportId = newMigrationId('health');
  ctx.operations.start(input.requestId, async ({ signal, emit }) => {
    const report = await analyzeHealth({
      client,
      monitoring,
      connectionId: input.connectionId,
      reportId,
      table: input.table,
      mode: input.mode,
      sampleSize: input.sampleSize,
      window: input.window ?? '24h',
      signal,
      onProgress: (progress) => emit({ type: 'progress', progress }),
      recordedReads: (table) => recordedTableReads(ctx.dataDir, input.connectionId, table),
    });
    const kept = reportsOf(ctx);
    kept.set(reportId, report);
    await saveLastHealthReport(ctx.dataDir, report);
    for (const old of [...kept.keys()].slice(0, Math.max(0, kept.size - KEPT))) kept.delete(old);
    return {
      progress: {
        items: report.draw.itemsRead,
        pages: 0,
        consumedCapacity: report.draw.consumedReadCapacity,
      },
      value: { reportId },
    };
  });
  return { reportId };
}

export function loadHealthReport(reportId: string, ctx: CoreContext): HealthReport {
  const report = reportsOf(ctx).get(reportId);
  if (!report)
    throw new AppFailure(
      ErrorCodes.notFound,
      `There is no health report ${reportId}: reports are kept while DynoTable runs; check the table again.`,
    );
  return report;
}

export async function enableInsights(
  input: ChannelInput<'health:enableInsights'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'health:enableInsights'>> {
  const monitoring = await monitoringOf(ctx, input.connectionId);
  if ('unreachable' in monitoring) throw new AppFailure(ErrorCodes.notSupported, monitoring.unreachable);
  return { status: await enableContributorInsights(monitoring.monitoring, input.table) };
}

/** The table's last report, kept on disk across restarts; null when it was never checked. */
export async function latestHealthReport(
  input: ChannelInput<'health:latest'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'health:latest'>> {
  return (await lastHealthReport(ctx.dataDir, input.connectionId, input.table)) ?? null;
}
