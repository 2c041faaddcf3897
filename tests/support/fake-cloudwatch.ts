import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * CloudWatch and DynamoDB's Contributor Insights calls on one local port, speaking the wire
 * protocol the installed SDK clients send: @aws-sdk/client-cloudwatch 3.1164 uses AWS JSON 1.0
 * (`X-Amz-Target: GraniteServiceVersion20100801.<Op>`, timestamps as epoch seconds) with
 * awsQuery-compatible errors (`x-amzn-query-error`); DynamoDB is JSON 1.0 (`DynamoDB_20120810.<Op>`).
 * The app's real clients are pointed here; nothing of the SDK is mocked.
 */
export interface MetricQuery {
  metric: string;
  table: string;
  index?: string;
}

export interface FakeCloudWatch {
  endpoint: string;
  /** Each request's operation and parsed JSON body, as the SDK sent it. */
  requests: { target: string; body: Record<string, unknown> }[];
  /** The value of a metric in the period starting at `t` (epoch seconds; default 0). */
  metricValue: (q: MetricQuery & { t: number }) => number;
  /** Contributor Insights per table: off unless set. */
  insights: Map<string, { status: 'ENABLED' | 'DISABLED'; rules: string[] }>;
  /** GetInsightRuleReport's contributors per rule name. */
  contributors: Map<string, { keys: string[]; value: number }[]>;
  /** Answer every CloudWatch call with this error instead. */
  failWith?: { status: number; code: string; message: string };
  close(): Promise<void>;
}

interface Query {
  Id: string;
  MetricStat: {
    Metric: { MetricName: string; Dimensions: { Name: string; Value: string }[] };
    Period: number;
  };
}

export async function startFakeCloudWatch(): Promise<FakeCloudWatch> {
  const fake: FakeCloudWatch = {
    endpoint: '',
    requests: [],
    metricValue: () => 0,
    insights: new Map(),
    contributors: new Map(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      fake.requests.push({ target, body });
      const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', ...headers });
        res.end(JSON.stringify(json));
      };
      const [service, operation] = target.split('.');
      if (service === 'GraniteServiceVersion20100801' && fake.failWith) {
        const { status, code, message } = fake.failWith;
        send(
          status,
          { __type: `com.amazonaws.cloudwatch#${code}`, message },
          {
            'x-amzn-query-error': `${code};Sender`,
          },
        );
        return;
      }
      if (target === 'GraniteServiceVersion20100801.GetMetricData') {
        const start = Number(body.StartTime);
        const end = Number(body.EndTime);
        const results = (body.MetricDataQueries as Query[]).map((q) => {
          const dims = new Map(q.MetricStat.Metric.Dimensions.map((d) => [d.Name, d.Value]));
          const query = {
            metric: q.MetricStat.Metric.MetricName,
            table: dims.get('TableName') ?? '',
            index: dims.get('GlobalSecondaryIndexName'),
          };
          const timestamps: number[] = [];
          for (let t = start; t < end; t += q.MetricStat.Period) timestamps.push(t);
          return {
            Id: q.Id,
            Label: q.MetricStat.Metric.MetricName,
            Timestamps: timestamps,
            Values: timestamps.map((t) => fake.metricValue({ ...query, t })),
            StatusCode: 'Complete',
          };
        });
        send(200, { MetricDataResults: results, Messages: [] });
        return;
      }
      if (target === 'GraniteServiceVersion20100801.GetInsightRuleReport') {
        const rows = fake.contributors.get(String(body.RuleName)) ?? [];
        send(200, {
          KeyLabels: ['PartitionKey'],
          AggregationStatistic: 'Sum',
          ApproximateUniqueCount: rows.length,
          Contributors: rows.map((r) => ({
            Keys: r.keys,
            ApproximateAggregateValue: r.value,
            Datapoints: [],
          })),
        });
        return;
      }
      if (service === 'DynamoDB_20120810' && operation === 'DescribeContributorInsights') {
        const table = String(body.TableName);
        const found = fake.insights.get(table) ?? { status: 'DISABLED', rules: [] };
        send(200, {
          TableName: table,
          ContributorInsightsStatus: found.status,
          ContributorInsightsRuleList: found.rules,
        });
        return;
      }
      if (service === 'DynamoDB_20120810' && operation === 'UpdateContributorInsights') {
        const table = String(body.TableName);
        fake.insights.set(table, {
          status: 'ENABLED',
          rules: [`DynamoDBContributorInsights-PKC-${table}-1`, `DynamoDBContributorInsights-PKT-${table}-1`],
        });
        send(200, { TableName: table, ContributorInsightsStatus: 'ENABLING' });
        return;
      }
      send(400, { __type: 'com.amazon.coral.service#UnknownOperationException', message: `No ${target}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
