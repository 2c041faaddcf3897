import type { HealthFinding, HealthReport, HealthWindow } from '../../shared/ipc/health';
import type { TableSummary } from '../../shared/ipc/tables';
import type { Item } from '../../shared/dynamo/attribute-value';
import { formatBytes } from '../../shared/dynamo/item-size';
import { entityGroupOfLabel, nameEntityGroups } from '../sql/catalog/entity-detect';
import { type HealthAccumulator, TTL_CLASSES } from './accumulator';
import { indexFindings } from './index-findings';
import type { TableReadEvidence } from './index-reads';
import {
  insightsCostNote,
  onDemandMonthly,
  perMonth,
  pricesFor,
  pricesText,
  provisionedMonthly,
  storageMonthly,
  usd,
} from './pricing';

export type Observed = Pick<HealthReport, 'cloudWatch' | 'capacity' | 'insights'>;

export interface ReportParts {
  reportId: string;
  connectionId: string;
  summary: TableSummary;
  raw: Record<string, unknown>;
  acc: HealthAccumulator;
  mode: 'sample' | 'full';
  description: string;
  consumed: number;
  window: HealthWindow;
  observed: Observed;
  /** What the app has recorded of the table's reads (SQL history, saved queries); none in the CLI. */
  evidence: TableReadEvidence | undefined;
  /** The connection's region, whose prices cost the table (none for a region DynoTable has no prices for). */
  region: string | undefined;
}

const TOP_KEYS = 10;
const LSI_LIMIT_BYTES = 10 * 1024 ** 3;
const pct = (share: number) => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
const num = (v: number) => v.toLocaleString('en-US');
/** `1 item`, `12 items`. */
const items = (n: number) => `${num(n)} item${n === 1 ? '' : 's'}`;

function entityNames(acc: HealthAccumulator, summary: TableSummary): Map<string, string> {
  const pk = summary.keys.partitionKey.name;
  const sk = summary.keys.sortKey?.name;
  const groups = [...acc.sizes.entries()]
    .filter(([label]) => label !== '')
    .map(([label, bands]) => ({ ...entityGroupOfLabel(label, pk, sk), count: bands.items }));
  const names = new Map<string, string>([['', '(no entity)']]);
  for (const { group, name } of nameEntityGroups(groups)) names.set(group.label, name);
  return names;
}

interface RawThroughput {
  ProvisionedThroughput?: { ReadCapacityUnits?: number; WriteCapacityUnits?: number };
}

/** Provisioned units per second of the table and its GSIs; on-demand has none (DescribeTable says 0). */
function provisionedOf(raw: Record<string, unknown>, summary: TableSummary): HealthReport['provisioned'] {
  if (summary.billingMode !== 'PROVISIONED') return [];
  const table = raw.Table as RawThroughput & {
    GlobalSecondaryIndexes?: (RawThroughput & { IndexName?: string })[];
  };
  const rows = [
    { resource: summary.name, ...table },
    ...(table.GlobalSecondaryIndexes ?? []).map((g) => ({ resource: g.IndexName ?? '', ...g })),
  ];
  return rows
    .map((r) => ({
      resource: r.resource,
      read: r.ProvisionedThroughput?.ReadCapacityUnits ?? 0,
      write: r.ProvisionedThroughput?.WriteCapacityUnits ?? 0,
    }))
    .filter((r) => r.resource !== '' && (r.read > 0 || r.write > 0));
}

function indexSizes(raw: Record<string, unknown>): Map<string, number> {
  const table = raw.Table as { GlobalSecondaryIndexes?: { IndexName?: string; IndexSizeBytes?: number }[] };
  const sizes = new Map<string, number>();
  for (const gsi of table.GlobalSecondaryIndexes ?? [])
    if (gsi.IndexName) sizes.set(gsi.IndexName, gsi.IndexSizeBytes ?? 0);
  return sizes;
}

export function buildHealthReport(parts: ReportParts): HealthReport {
  const { acc, summary, observed } = parts;
  const prices = pricesFor(parts.region);
  const names = entityNames(acc, summary);
  const findings: HealthFinding[] = [];
  const windowText = `${observed.cloudWatch.start} → ${observed.cloudWatch.end}`;
  const drawText =
    parts.mode === 'sample' ? `in a sample of ${num(acc.items)} items` : `in all ${num(acc.items)} items`;
  // A sample's bytes scaled to the table: DescribeTable's count, or what was read.
  const scale = parts.mode === 'sample' && acc.items > 0 ? Math.max(1, summary.itemCount / acc.items) : 1;

  // Keys
  const ranked = [...acc.keys.entries()].sort((a, b) => b[1].items - a[1].items || b[1].bytes - a[1].bytes);
  const top = ranked.slice(0, TOP_KEYS).map(([key, t]) => ({
    key,
    items: t.items,
    bytes: t.bytes,
    itemShare: acc.items ? t.items / acc.items : 0,
    byteShare: acc.bytes ? t.bytes / acc.bytes : 0,
  }));
  const distinct = acc.isKeyCapped ? Math.round(acc.keySketch.estimate()) : acc.keys.size;
  const hottest = top[0];
  if (hottest && distinct > 1 && hottest.itemShare >= 0.2)
    findings.push({
      id: 'keys.hot',
      area: 'keys',
      severity: hottest.itemShare >= 0.5 ? 'critical' : 'warning',
      title: `One partition key holds ${pct(hottest.itemShare)} of the items`,
      evidence: `${summary.keys.partitionKey.name} = "${hottest.key}": ${num(hottest.items)} of ${num(acc.items)} items and ${pct(hottest.byteShare)} of the bytes ${drawText}; ${num(distinct)} distinct partition keys. One partition serves at most 3,000 reads and 1,000 writes per second.`,
      // Only the partition key: the Items tab opens it as a Query of that item collection.
      action: { kind: 'open-items', keys: [partitionOnly(hottest.key, summary)] },
    });
  const hasLocalIndexes = summary.indexes.some((i) => i.kind === 'LSI');
  // A full read measures each item collection; a sample's bytes are scaled to the table's count.
  const isExact = parts.mode === 'full';
  const largeCollections = hasLocalIndexes
    ? ranked
        .map(([key, t]) => ({ key, estimatedBytes: Math.round(t.bytes * scale), isExact }))
        .filter((c) => c.estimatedBytes >= LSI_LIMIT_BYTES * 0.8)
        .slice(0, TOP_KEYS)
    : [];
  const gb = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  for (const c of largeCollections.slice(0, 3))
    findings.push({
      id: `keys.collection.${c.key}`,
      area: 'keys',
      severity: 'critical',
      title: isExact
        ? `An item collection is near the 10 GB limit of a table with a local index`
        : `An item collection may be near the 10 GB limit of a table with a local index (estimated from a sample)`,
      evidence: isExact
        ? `${summary.keys.partitionKey.name} = "${c.key}" holds ${gb(c.estimatedBytes)} (${num(acc.keys.get(c.key)?.items ?? 0)} items), measured ${drawText}; past 10 GB DynamoDB refuses writes to it.`
        : `${summary.keys.partitionKey.name} = "${c.key}" holds about ${gb(c.estimatedBytes)}: an estimate from ${num(acc.items)} of ${num(summary.itemCount)} items (DescribeTable's count), whose ${formatBytes(acc.keys.get(c.key)?.bytes ?? 0)} under this key were scaled by ${num(Math.round(scale))}. A full scan measures it exactly. Past 10 GB DynamoDB refuses writes to it.`,
      action: { kind: 'open-items', keys: [partitionOnly(c.key, summary)] },
    });

  // Sizes
  const entities = [...acc.sizes.entries()]
    .map(([label, bands]) => ({
      entity: names.get(label) ?? label,
      items: bands.items,
      p50: bands.percentile(0.5),
      p95: bands.percentile(0.95),
      max: bands.max,
    }))
    .sort((a, b) => b.items - a.items);
  const nearLimit = acc.big
    .sort((a, b) => b.bytes - a.bytes)
    .map((b) => ({
      key: b.key,
      bytes: b.bytes,
      entity: names.get(b.label ?? '') ?? '(no entity)',
      largest: b.largest,
    }));
  if (acc.nearLimitCount > 0) {
    const biggest = nearLimit[0]!;
    findings.push({
      id: 'sizes.near-limit',
      area: 'sizes',
      severity: biggest.bytes > 390 * 1024 ? 'critical' : 'warning',
      title: `${items(acc.nearLimitCount)} ${acc.nearLimitCount === 1 ? 'is' : 'are'} within 12.5% of the 400 KB item limit`,
      evidence: `${drawText}; the largest is ${(biggest.bytes / 1024).toFixed(1)} KB, mostly ${biggest.largest
        .filter((l, i) => i === 0 || l.bytes >= 1024)
        .map((l) => `${l.attribute} (${(l.bytes / 1024).toFixed(1)} KB)`)
        .join(', ')}. A write that grows them past 400 KB is refused.`,
      action: { kind: 'open-items', keys: nearLimit.slice(0, 100).map((b) => b.key) },
    });
  }

  // TTL
  const ttlAttribute = summary.ttl.attribute;
  const counts = Object.fromEntries(
    TTL_CLASSES.map((c) => [c, acc.ttl.get(c) ?? 0]),
  ) as HealthReport['ttl']['counts'];
  const samples = Object.fromEntries(
    TTL_CLASSES.map((c) => [c, acc.ttlSamples.get(c) ?? []]),
  ) as HealthReport['ttl']['samples'];
  const ttlOn = summary.ttl.status === 'ENABLED' || summary.ttl.status === 'ENABLING';
  if (ttlOn && ttlAttribute) {
    if (counts.milliseconds > 0)
      findings.push({
        id: 'ttl.milliseconds',
        area: 'ttl',
        severity: 'critical',
        title: `${items(counts.milliseconds)} ${counts.milliseconds === 1 ? 'has its' : 'have their'} TTL in milliseconds: ${counts.milliseconds === 1 ? 'it never expires' : 'they never expire'}`,
        evidence: `${ttlAttribute} is a number of 11–13 digits (epoch milliseconds) ${drawText}; DynamoDB reads it as seconds thousands of years ahead. The fix rewrites each as seconds, conditioned on the value it read, journaled for undo.`,
        action: { kind: 'stage-ttl-fix', attribute: ttlAttribute },
      });
    if (counts.string + counts.otherType > 0)
      findings.push({
        id: 'ttl.wrong-type',
        area: 'ttl',
        severity: 'warning',
        title: `${num(counts.string + counts.otherType)} items have a TTL that is not a number: they never expire`,
        evidence: `${ttlAttribute} is a string in ${num(counts.string)} and another type in ${num(counts.otherType)} items ${drawText}; TTL only reads numbers (epoch seconds). Fix the writer; these items must be rewritten by hand.`,
        action: { kind: 'open-items', keys: [...samples.string, ...samples.otherType] },
      });
    if (acc.expiredPresent > 0)
      findings.push({
        id: 'ttl.expired-present',
        area: 'ttl',
        severity: 'info',
        title: `${items(acc.expiredPresent)} past ${acc.expiredPresent === 1 ? 'its' : 'their'} TTL still present`,
        evidence: `${ttlAttribute} is before now ${drawText}. DynamoDB deletes expired items within a few days; until then reads return them unless filtered.`,
        action: { kind: 'open-items', keys: acc.expiredSamples },
      });
  } else if (summary.ttl.status !== 'UNKNOWN')
    findings.push({
      id: 'ttl.off',
      area: 'ttl',
      severity: 'info',
      title: 'TTL is off for this table',
      evidence: `DescribeTimeToLive says ${summary.ttl.status}.`,
    });

  // Indexes and cost
  const windowSeconds = (Date.parse(observed.cloudWatch.end) - Date.parse(observed.cloudWatch.start)) / 1000;
  const totalOf = (resource: string, metric: string) =>
    observed.capacity.find((s) => s.resource === resource && s.metric === metric)?.total;
  const sizes = indexSizes(parts.raw);
  const indexes = summary.indexes.map((i) => {
    const reads = i.kind === 'GSI' ? totalOf(i.name, 'ConsumedReadCapacityUnits') : undefined;
    const writes = i.kind === 'GSI' ? totalOf(i.name, 'ConsumedWriteCapacityUnits') : undefined;
    return {
      name: i.name,
      kind: i.kind,
      projection: i.projection,
      ...(i.itemCount !== undefined ? { itemCount: i.itemCount } : {}),
      ...(reads !== undefined ? { reads } : {}),
      ...(writes !== undefined ? { writes } : {}),
    };
  });
  findings.push(
    ...indexFindings({
      summary,
      indexes,
      sizes,
      projections: acc.projections,
      evidence: parts.evidence,
      prices,
      region: parts.region,
      windowText,
      windowSeconds,
      drawText,
    }),
  );
  const storedBytes = summary.sizeBytes + [...sizes.values()].reduce((a, b) => a + b, 0);
  const storage = prices ? storageMonthly(prices, storedBytes) : undefined;
  const tableReads = totalOf(summary.name, 'ConsumedReadCapacityUnits');
  const tableWrites = totalOf(summary.name, 'ConsumedWriteCapacityUnits');
  let onDemand: number | undefined;
  let provisioned: number | undefined;
  if (tableReads !== undefined && tableWrites !== undefined) {
    const gsiWrites = indexes.reduce((s, i) => s + (i.writes ?? 0), 0);
    const gsiReads = indexes.reduce((s, i) => s + (i.reads ?? 0), 0);
    const reads = perMonth(tableReads + gsiReads, windowSeconds);
    const writes = perMonth(tableWrites + gsiWrites, windowSeconds);
    if (prices && storage !== undefined) {
      onDemand = onDemandMonthly(prices, reads, writes) + storage;
      provisioned = provisionedMonthly(prices, reads, writes) + storage;
      const [cheaper, dearer] =
        summary.billingMode === 'PAY_PER_REQUEST' ? [provisioned, onDemand] : [onDemand, provisioned];
      if (cheaper < dearer * 0.8)
        findings.push({
          id: 'cost.billing-mode',
          area: 'cost',
          severity: 'info',
          title: `${summary.billingMode === 'PAY_PER_REQUEST' ? 'Provisioned' : 'On-demand'} capacity would cost less at this traffic`,
          evidence: `From CloudWatch's consumed capacity ${windowText}, at ${prices.region} prices: on-demand ${usd(onDemand)} a month, provisioned (average over 70% utilisation) ${usd(provisioned)}.`,
          monthlySavings: dearer - cheaper,
          action: {
            kind: 'show-change',
            cloudFormation: `BillingMode: ${summary.billingMode === 'PAY_PER_REQUEST' ? 'PROVISIONED' : 'PAY_PER_REQUEST'}`,
            cdk: `billingMode: dynamodb.BillingMode.${summary.billingMode === 'PAY_PER_REQUEST' ? 'PROVISIONED' : 'PAY_PER_REQUEST'},`,
          },
        });
    }
    if (observed.insights.state === 'disabled')
      findings.push({
        id: 'keys.insights-off',
        area: 'keys',
        severity: 'info',
        title: 'Contributor Insights is off: the most accessed and throttled keys are unknown',
        evidence: `DescribeContributorInsights says DISABLED for ${summary.name}.`,
        action: {
          kind: 'enable-insights',
          monthlyCostNote: insightsCostNote(prices, perMonth(tableReads + tableWrites, windowSeconds)),
        },
      });
  }
  const throttled = observed.capacity
    .filter((s) => s.metric.endsWith('ThrottleEvents') && s.total > 0)
    .map((s) => `${s.resource} ${s.metric} ${num(s.total)}`);
  if (throttled.length > 0)
    findings.push({
      id: 'keys.throttled',
      area: 'keys',
      severity: 'warning',
      title: 'Requests were throttled in this window',
      evidence: `CloudWatch ${throttled.join(', ')}, ${windowText}.${observed.insights.mostThrottled[0] ? ` Most throttled key: ${observed.insights.mostThrottled[0].key}.` : ''}`,
    });

  const order = { critical: 0, warning: 1, info: 2 } as const;
  findings.sort((a, b) => order[a.severity] - order[b.severity]);

  return {
    reportId: parts.reportId,
    connectionId: parts.connectionId,
    table: summary.name,
    createdAt: new Date().toISOString(),
    draw: {
      mode: parts.mode,
      itemsRead: acc.items,
      tableItemCount: summary.itemCount,
      tableSizeBytes: summary.sizeBytes,
      consumedReadCapacity: Math.round(parts.consumed * 10) / 10,
      description: parts.description,
    },
    keys: {
      partitionKey: summary.keys.partitionKey.name,
      distinctPartitionKeys: distinct,
      isCapped: acc.isKeyCapped,
      top,
      largeCollections,
      hasLocalIndexes,
    },
    sizes: { entities, histogram: acc.histogram(), nearLimit, nearLimitCount: acc.nearLimitCount },
    ttl: {
      status: summary.ttl.status,
      ...(ttlAttribute ? { attribute: ttlAttribute } : {}),
      counts,
      expiredPresent: acc.expiredPresent,
      samples,
    },
    indexes,
    cloudWatch: observed.cloudWatch,
    capacity: observed.capacity,
    provisioned: provisionedOf(parts.raw, summary),
    insights: observed.insights,
    cost: {
      billingMode: summary.billingMode,
      ...(parts.region !== undefined ? { region: parts.region } : {}),
      ...(storage !== undefined ? { storageMonthly: storage } : {}),
      ...(onDemand !== undefined ? { onDemandMonthly: onDemand } : {}),
      ...(provisioned !== undefined ? { provisionedMonthly: provisioned } : {}),
      prices: pricesText(parts.region, prices),
    },
    findings,
  };
}

/** A partition key value (as keyText wrote it) as a one-attribute key, in a null-prototype object. */
function partitionOnly(text: string, summary: TableSummary): Item {
  const { name, type } = summary.keys.partitionKey;
  const key = Object.create(null) as Item;
  key[name] = type === 'N' ? { N: text } : type === 'B' ? { B: text.replace(/^base64:/, '') } : { S: text };
  return key;
}
