import type { ChannelExample } from './examples';
import type { HealthReport, healthChannels } from './health';

type HealthExamples = { [C in keyof typeof healthChannels]: ChannelExample<C> };

const report: HealthReport = {
  reportId: 'health-m1x2y3-1a2b3c4d',
  connectionId: 'playground',
  table: 'DynoTableSample',
  createdAt: '2026-11-06T09:00:01.200Z',
  draw: {
    mode: 'sample',
    itemsRead: 996,
    tableItemCount: 2_000_000,
    tableSizeBytes: 1_900_000_000,
    consumedReadCapacity: 20.5,
    description:
      'Sample: the first page (up to 25 items) of 40 random segments of 80,000: 996 items, 20.5 RCU.',
  },
  keys: {
    partitionKey: 'PK',
    distinctPartitionKeys: 412,
    isCapped: false,
    top: [{ key: 'TENANT#big', items: 380, bytes: 410_000, itemShare: 0.38, byteShare: 0.41 }],
    largeCollections: [],
    hasLocalIndexes: false,
  },
  sizes: {
    entities: [{ entity: 'orders', items: 610, p50: 820, p95: 1_640, max: 1_840 }],
    histogram: [{ from: 0, to: 1023, items: 996 }],
    nearLimit: [],
    nearLimitCount: 0,
  },
  ttl: {
    status: 'ENABLED',
    attribute: 'expiresAt',
    counts: { seconds: 900, milliseconds: 60, string: 6, otherType: 0, missing: 30 },
    expiredPresent: 12,
    samples: {
      seconds: [],
      milliseconds: [{ PK: { S: 'USER#u1' }, SK: { S: 'SESSION#s1' } }],
      string: [],
      otherType: [],
      missing: [],
    },
  },
  indexes: [{ name: 'GSI1', kind: 'GSI', projection: 'ALL', itemCount: 1_200_000, reads: 0, writes: 86_000 }],
  cloudWatch: {
    state: 'ok',
    window: '24h',
    start: '2026-11-05T09:00:00.000Z',
    end: '2026-11-06T09:00:00.000Z',
    periodSeconds: 900,
  },
  capacity: [
    {
      resource: 'DynoTableSample',
      metric: 'ConsumedReadCapacityUnits',
      points: [{ t: 1_762_333_200_000, v: 1_200 }],
      total: 1_200,
    },
  ],
  provisioned: [],
  insights: { state: 'disabled', mostAccessed: [], mostThrottled: [] },
  cost: {
    billingMode: 'PAY_PER_REQUEST',
    region: 'us-east-1',
    storageMonthly: 0.44,
    onDemandMonthly: 2.1,
    provisionedMonthly: 1.3,
    prices: 'US East (N. Virginia) list prices, Standard table class; free tier not subtracted.',
  },
  findings: [
    {
      id: 'ttl.milliseconds',
      area: 'ttl',
      severity: 'critical',
      title: '60 items have their TTL in milliseconds: they never expire',
      evidence: 'expiresAt is a number of 11–13 digits (epoch milliseconds) in a sample of 996 items.',
      action: { kind: 'stage-ttl-fix', attribute: 'expiresAt' },
    },
  ],
};

export const healthExamples: HealthExamples = {
  'health:analyze': {
    summary:
      "Checks a table's health: partition keys, item sizes, TTL values, indexes and cost, from a sample or a full scan plus CloudWatch over a window.",
    input: {
      connectionId: 'playground',
      table: 'DynoTableSample',
      requestId: 'health_7Hq2LmX9',
      mode: 'sample',
      window: '24h',
    },
    output: { reportId: 'health-m1x2y3-1a2b3c4d' },
    notes:
      'An operation: progress events, then done (value { reportId }), cancelled or error. CloudWatch not answering (DynamoDB Local, no permission) is not an error: the report says so in cloudWatch.message and the item analysis is complete. A connection with its own endpoint reaches CloudWatch only through DYNOTABLE_CLOUDWATCH_ENDPOINT.',
  },
  'health:report': {
    summary:
      'A finished health report: the findings, each with its evidence and one action, and the data behind the charts.',
    input: { reportId: 'health-m1x2y3-1a2b3c4d' },
    output: report,
    notes:
      'Reports are kept in memory while DynoTable runs (the newest 20); the last one of each table is also kept on disk (health:latest).',
  },
  'health:latest': {
    summary:
      "A table's last health report, kept in the data folder, so the Health tab shows it (with its time) after a restart.",
    input: { connectionId: 'playground', table: 'DynoTableSample' },
    output: report,
    notes: 'null when the table was never checked on this connection.',
  },
  'health:enableInsights': {
    summary:
      'Turns on Contributor Insights for a table, so the next check shows its most accessed and most throttled keys. It is billed per request it sees.',
    input: { connectionId: 'playground', table: 'DynoTableSample' },
    output: { status: 'ENABLING' },
    notes: 'Refused on read-only connections.',
  },
};
