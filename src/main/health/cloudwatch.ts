import {
  CloudWatchClient,
  GetInsightRuleReportCommand,
  GetMetricDataCommand,
  type MetricDataQuery,
} from '@aws-sdk/client-cloudwatch';
import {
  DescribeContributorInsightsCommand,
  type DynamoDBClient,
  type DynamoDBClientConfig,
  UpdateContributorInsightsCommand,
} from '@aws-sdk/client-dynamodb';
import type { HealthReport, HealthWindow } from '../../shared/ipc/health';
import type { ConnectionClientConfig } from '../aws/client-config';
import { dynamoClient } from '../aws/dynamo-client';
import { toAppError } from '../core/to-app-error';

/**
 * Where CloudWatch (and DynamoDB's Contributor Insights calls) are sent when the connection's
 * own endpoint is a stand-in such as DynamoDB Local, which serves neither: the tests' local
 * CloudWatch, or LocalStack. Without it such a connection has no CloudWatch, and the report says so.
 */
export const CLOUDWATCH_ENDPOINT_ENV = 'DYNOTABLE_CLOUDWATCH_ENDPOINT';

export interface Monitoring {
  cloudWatch: CloudWatchClient;
  /** DynamoDB at the monitoring endpoint, for Describe/UpdateContributorInsights. */
  dynamo: DynamoDBClient;
  endpoint?: string;
}

export type MonitoringOrWhy = { monitoring: Monitoring } | { unreachable: string };

/** What a monitoring client needs: a connection's settings, or the CLI's client's region and keys. */
export type MonitoringConfig =
  ConnectionClientConfig | (Pick<DynamoDBClientConfig, 'region' | 'credentials'> & { endpoint?: string });

/** The connection's settings, pointed at AWS's own endpoints or at the configured stand-in. */
export function monitoringFor(config: MonitoringConfig, readOnly: boolean): MonitoringOrWhy {
  const configured = process.env[CLOUDWATCH_ENDPOINT_ENV];
  if (config.endpoint && !configured)
    return {
      unreachable: `This connection talks to ${config.endpoint}, which serves DynamoDB only (DynamoDB Local has no CloudWatch or Contributor Insights). Set ${CLOUDWATCH_ENDPOINT_ENV} to a CloudWatch endpoint to see capacity; the item analysis below is complete without it.`,
    };
  const endpoint = configured ?? config.endpoint;
  const settings = { ...config, ...(endpoint ? { endpoint } : {}) };
  const dynamo = dynamoClient({ ...settings, readOnly });
  return { monitoring: { cloudWatch: new CloudWatchClient(settings), dynamo, endpoint } };
}

const WINDOWS: Record<HealthWindow, { seconds: number; period: number }> = {
  '3h': { seconds: 3 * 3600, period: 300 },
  '24h': { seconds: 24 * 3600, period: 900 },
  '7d': { seconds: 7 * 86_400, period: 3600 },
  '30d': { seconds: 30 * 86_400, period: 6 * 3600 },
};

export function windowOf(window: HealthWindow, now = Date.now()): { start: Date; end: Date; period: number } {
  const { seconds, period } = WINDOWS[window];
  // Whole periods, so every point is a full one.
  const end = Math.floor(now / 1000 / period) * period * 1000;
  return { start: new Date(end - seconds * 1000), end: new Date(end), period };
}

const METRICS = [
  'ConsumedReadCapacityUnits',
  'ConsumedWriteCapacityUnits',
  'ReadThrottleEvents',
  'WriteThrottleEvents',
] as const;
/** GetMetricData pages (each up to 100,800 points): a bound, not a limit anyone meets here. */
const MAX_PAGES = 10;

/** Sums per period of each capacity metric for the table and each GSI (LSIs consume the table's). */
export async function capacitySeries(
  cloudWatch: CloudWatchClient,
  table: string,
  gsis: readonly string[],
  window: HealthWindow,
  signal: AbortSignal,
): Promise<HealthReport['capacity']> {
  const { start, end, period } = windowOf(window);
  const wanted: { id: string; resource: string; metric: string; query: MetricDataQuery }[] = [];
  for (const gsi of [undefined, ...gsis])
    for (const metric of METRICS) {
      const id = `m${wanted.length}`;
      const resource = gsi ?? table;
      const dimensions = [{ Name: 'TableName', Value: table }];
      if (gsi !== undefined) dimensions.push({ Name: 'GlobalSecondaryIndexName', Value: gsi });
      wanted.push({
        id,
        resource,
        metric,
        query: {
          Id: id,
          MetricStat: {
            Metric: { Namespace: 'AWS/DynamoDB', MetricName: metric, Dimensions: dimensions },
            Period: period,
            Stat: 'Sum',
          },
          ReturnData: true,
        },
      });
    }
  const points = new Map<string, Map<number, number>>(wanted.map((w) => [w.id, new Map()]));
  let token: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const out = await cloudWatch.send(
      new GetMetricDataCommand({
        MetricDataQueries: wanted.map((w) => w.query),
        StartTime: start,
        EndTime: end,
        ScanBy: 'TimestampAscending',
        NextToken: token,
      }),
      { abortSignal: signal },
    );
    for (const result of out.MetricDataResults ?? []) {
      const into = points.get(result.Id ?? '');
      if (!into) continue;
      (result.Timestamps ?? []).forEach((t, i) => into.set(t.getTime(), result.Values?.[i] ?? 0));
    }
    token = out.NextToken;
    if (!token) break;
  }
  return wanted.map((w) => {
    const series = [...(points.get(w.id) ?? new Map<number, number>())]
      .sort((a, b) => a[0] - b[0])
      .map(([t, v]) => ({ t, v }));
    return {
      resource: w.resource,
      metric: w.metric,
      points: series,
      total: series.reduce((s, p) => s + p.v, 0),
    };
  });
}

/**
 * Contributor Insights' most accessed and most throttled partition keys, when it is on for the
 * table: DescribeContributorInsights names the rules, GetInsightRuleReport reads them.
 */
export async function contributorInsights(
  monitoring: Monitoring,
  table: string,
  window: HealthWindow,
  signal: AbortSignal,
): Promise<HealthReport['insights']> {
  const described = await monitoring.dynamo.send(
    new DescribeContributorInsightsCommand({ TableName: table }),
    {
      abortSignal: signal,
    },
  );
  if (described.ContributorInsightsStatus !== 'ENABLED')
    return { state: 'disabled', mostAccessed: [], mostThrottled: [] };
  const rules = described.ContributorInsightsRuleList ?? [];
  const { start, end, period } = windowOf(window);
  const report = async (marker: string) => {
    const rule = rules.find((r) => r.includes(marker));
    if (!rule) return [];
    const out = await monitoring.cloudWatch.send(
      new GetInsightRuleReportCommand({
        RuleName: rule,
        StartTime: start,
        EndTime: end,
        Period: period,
        MaxContributorCount: 10,
        OrderBy: 'Sum',
      }),
      { abortSignal: signal },
    );
    return (out.Contributors ?? []).map((c) => ({
      key: (c.Keys ?? []).join(' · '),
      count: c.ApproximateAggregateValue ?? 0,
    }));
  };
  // The rules DynamoDB makes: PKC most accessed partition keys, PKT most throttled ones.
  const [mostAccessed, mostThrottled] = await Promise.all([report('-PKC-'), report('-PKT-')]);
  return { state: 'enabled', mostAccessed, mostThrottled };
}

export async function enableContributorInsights(monitoring: Monitoring, table: string): Promise<string> {
  const out = await monitoring.dynamo.send(
    new UpdateContributorInsightsCommand({ TableName: table, ContributorInsightsAction: 'ENABLE' }),
  );
  return out.ContributorInsightsStatus ?? 'ENABLING';
}

/** One sentence for the report when CloudWatch did not answer: the data part goes on without it. */
export function unreachableSentence(error: unknown, endpoint: string | undefined): string {
  const app = toAppError(error);
  return `CloudWatch did not answer${endpoint ? ` at ${endpoint}` : ''} (${app.code}: ${app.message}); capacity, index traffic and cost from traffic are missing below, the item analysis is complete.`;
}
