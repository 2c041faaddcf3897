import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { HealthReport, HealthWindow } from '../../shared/ipc/health';
import type { Progress } from '../../shared/ipc/operations';
import type { TableSummary } from '../../shared/ipc/tables';
import { tableDetails } from '../dynamo/table-metadata';
import { initialCursors, segmentedScan } from '../dynamo/read/segmented-read';
import { planSample } from '../schema/sample-plan';
import { HealthAccumulator } from './accumulator';
import {
  capacitySeries,
  contributorInsights,
  type MonitoringOrWhy,
  unreachableSentence,
  windowOf,
} from './cloudwatch';
import { projectionPlans } from './index-findings';
import type { TableReadEvidence } from './index-reads';
import { buildHealthReport, type Observed } from './report';

export interface HealthOptions {
  client: DynamoDBClient;
  monitoring: MonitoringOrWhy;
  connectionId: string;
  reportId: string;
  table: string;
  mode: 'sample' | 'full';
  sampleSize?: number;
  window: HealthWindow;
  signal: AbortSignal;
  onProgress?(progress: Progress): void;
  random?: () => number;
  /** What the app has recorded of the table's reads, for the projection findings (the CLI has none). */
  recordedReads?: (table: string) => Promise<TableReadEvidence>;
}

const num = (v: number) => v.toLocaleString('en-US');

/**
 * Reads the table the way the Schema view does (a sample spread over random Scan segments, or a
 * full parallel scan), in the same pass counting keys, sizes and TTL values, then asks CloudWatch
 * for the window's capacity. CloudWatch failing leaves the item analysis whole.
 */
export async function analyzeHealth(options: HealthOptions): Promise<HealthReport> {
  const { client, table, signal } = options;
  const details = await tableDetails(client, table, signal);
  const summary = details.summary;
  const ttlOn = summary.ttl.status === 'ENABLED' || summary.ttl.status === 'ENABLING';
  const evidence = await options.recordedReads?.(table);
  const acc = new HealthAccumulator(
    summary.keys.partitionKey.name,
    summary.keys.sortKey?.name,
    ttlOn ? summary.ttl.attribute : undefined,
    Date.now() / 1000,
    projectionPlans(summary, evidence),
  );
  let consumed = 0;
  let pages = 0;
  let lastProgress = 0;
  const scan = async (totalSegments: number, segments: number[], pageLimit?: number) =>
    segmentedScan({
      client,
      table,
      cursors: segments.map((segment) => ({ segment, done: false })),
      totalSegments,
      signal,
      items: 'wire',
      ...(pageLimit ? { pageLimit, pagesPerSegment: 1 } : {}),
      onPage(page) {
        for (const item of page.items) acc.add(item);
        pages += 1;
        consumed += page.consumed;
        const now = performance.now();
        if (now - lastProgress < 250) return;
        lastProgress = now;
        options.onProgress?.({
          items: acc.items,
          pages,
          consumedCapacity: Math.round(consumed * 10) / 10,
          ...(summary.itemCount > 0 && options.mode === 'full'
            ? { fraction: Math.min(1, acc.items / summary.itemCount) }
            : {}),
          message: `${num(acc.items)} items read`,
        });
      },
    });
  let description: string;
  if (options.mode === 'sample') {
    const plan = planSample(summary.itemCount, options.sampleSize, undefined, options.random);
    await scan(plan.totalSegments, plan.segments, plan.pageLimit);
    description = `Sample: the first page (up to ${num(plan.pageLimit)} items) of ${num(plan.segments.length)} random segments of ${num(plan.totalSegments)}`;
    if (acc.items === 0 && plan.segments.length < plan.totalSegments) {
      // Items in few partitions fill few segments: then the table's first page is the sample.
      const limit = Math.min(1000, plan.pageLimit * plan.segments.length);
      await scan(1, [0], limit);
      description = `Sample: the table's first page (up to ${num(limit)} items); random segments were empty`;
    }
  } else {
    await scan(
      4,
      initialCursors(4).map((c) => c.segment),
    );
    description = 'Full scan in 4 parallel segments';
  }
  description += `: ${num(acc.items)} items, ${Math.round(consumed * 10) / 10} RCU.`;
  const observed: Observed = await observe(options, summary);
  return buildHealthReport({
    reportId: options.reportId,
    connectionId: options.connectionId,
    summary,
    raw: details.raw,
    acc,
    mode: options.mode,
    description,
    consumed,
    window: options.window,
    observed,
    evidence,
    region: await client.config.region(),
  });
}

async function observe(options: HealthOptions, summary: TableSummary): Promise<Observed> {
  const { start, end, period } = windowOf(options.window);
  const base = {
    window: options.window,
    start: start.toISOString(),
    end: end.toISOString(),
    periodSeconds: period,
  };
  const unreachable = (message: string): Observed => ({
    cloudWatch: { state: 'unreachable', message, ...base },
    capacity: [],
    insights: { state: 'unreachable', message, mostAccessed: [], mostThrottled: [] },
  });
  if ('unreachable' in options.monitoring) return unreachable(options.monitoring.unreachable);
  const { monitoring } = options.monitoring;
  const gsis = summary.indexes.filter((i) => i.kind === 'GSI').map((i) => i.name);
  let capacity: HealthReport['capacity'];
  try {
    capacity = await capacitySeries(
      monitoring.cloudWatch,
      summary.name,
      gsis,
      options.window,
      options.signal,
    );
  } catch (error) {
    if (options.signal.aborted) throw error;
    return unreachable(unreachableSentence(error, monitoring.endpoint));
  }
  let insights: HealthReport['insights'];
  try {
    insights = await contributorInsights(monitoring, summary.name, options.window, options.signal);
  } catch (error) {
    if (options.signal.aborted) throw error;
    insights = {
      state: 'unreachable',
      message: `Contributor Insights could not be read: ${unreachableSentence(error, monitoring.endpoint)}`,
      mostAccessed: [],
      mostThrottled: [],
    };
  }
  return { cloudWatch: { state: 'ok', ...base }, capacity, insights };
}
