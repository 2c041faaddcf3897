import { keyAttributeNames } from '../../shared/dynamo/key-model';
import type { HealthFinding, HealthReport } from '../../shared/ipc/health';
import type { IndexInfo, TableSummary } from '../../shared/ipc/tables';
import type { ProjectionPlan, ProjectionTally } from './accumulator';
import type { TableReadEvidence } from './index-reads';
import { onDemandMonthly, perMonth, pricesText, type RegionPrices, storageMonthly, usd } from './pricing';

/** DynamoDB stores 100 bytes of overhead per index item besides its attributes. */
const INDEX_ITEM_OVERHEAD = 100;

const list = (names: Iterable<string>) => [...names].join(', ');

/** What an index projects besides keys: every attribute, or these. */
function projected(index: IndexInfo): 'ALL' | ReadonlySet<string> | undefined {
  if (index.projection === 'ALL') return 'ALL';
  if (index.projection === 'INCLUDE') return new Set(index.projectedAttributes ?? []);
  return undefined;
}

/**
 * The projection each GSI's recorded reads need: the attributes of the statements that filter on
 * the index's partition key, less the keys. Nothing is proposed when one of them reads every
 * attribute, or when the proposal keeps all the index projects now. With no evidence (no record,
 * or the CLI's ad hoc connection) the proposal is KEYS_ONLY, and the finding says it rests on none.
 */
export function projectionPlans(
  summary: TableSummary,
  evidence: TableReadEvidence | undefined,
): ProjectionPlan[] {
  const plans: ProjectionPlan[] = [];
  const tableKeys = new Set(keyAttributeNames(summary.keys));
  for (const index of summary.indexes) {
    const current = projected(index);
    if (index.kind !== 'GSI' || current === undefined) continue;
    const indexKeys = keyAttributeNames(index.keys);
    const reads = (evidence?.reads ?? []).filter((r) => r.filtered.has(index.keys.partitionKey.name));
    if (reads.some((r) => r.readsAll)) continue;
    const keys = new Set([...tableKeys, ...indexKeys]);
    const proposed = new Set(reads.flatMap((r) => [...r.attributes]).filter((name) => !keys.has(name)));
    if (current !== 'ALL' && [...current].every((name) => proposed.has(name))) continue;
    plans.push({ index: index.name, indexKeys, current, proposed });
  }
  return plans;
}

export interface IndexFindingParts {
  summary: TableSummary;
  indexes: HealthReport['indexes'];
  /** IndexSizeBytes from DescribeTable, by index name. */
  sizes: Map<string, number>;
  projections: readonly ProjectionTally[];
  evidence: TableReadEvidence | undefined;
  prices: RegionPrices | undefined;
  region: string | undefined;
  windowText: string;
  windowSeconds: number;
  /** `in a sample of 1,000 items` / `in all 52 items`. */
  drawText: string;
}

/** Per GSI: written but never read (remove it), or projecting more than its recorded reads use (narrow it). */
export function indexFindings(parts: IndexFindingParts): HealthFinding[] {
  const { summary, prices } = parts;
  const findings: HealthFinding[] = [];
  const unread = new Set<string>();
  for (const index of parts.indexes) {
    if (index.kind !== 'GSI' || index.reads !== 0 || !index.writes) continue;
    unread.add(index.name);
    const storage = prices ? storageMonthly(prices, parts.sizes.get(index.name) ?? 0) : undefined;
    const writeCost = prices
      ? onDemandMonthly(prices, 0, perMonth(index.writes, parts.windowSeconds))
      : undefined;
    const cost =
      storage !== undefined && writeCost !== undefined
        ? `It costs about ${usd(writeCost)} a month in writes and ${usd(storage)} in storage at ${prices!.region} prices.`
        : `Its cost is not estimated: ${pricesText(parts.region, prices)}`;
    findings.push({
      id: `indexes.unread.${index.name}`,
      area: 'indexes',
      severity: 'warning',
      title: `Index ${index.name} is written but never read`,
      evidence: `CloudWatch ConsumedReadCapacityUnits = 0 and ConsumedWriteCapacityUnits = ${index.writes.toLocaleString('en-US')} for ${index.name}, ${parts.windowText}. ${cost}`,
      ...(storage !== undefined && writeCost !== undefined ? { monthlySavings: writeCost + storage } : {}),
      action: {
        kind: 'show-change',
        cloudFormation: `# In the AWS::DynamoDB::Table resource of ${summary.name}, remove this entry of GlobalSecondaryIndexes:\n- IndexName: ${index.name}\n  # …its KeySchema and Projection`,
        cdk: `// In the stack that defines ${summary.name}, delete:\ntable.addGlobalSecondaryIndex({ indexName: '${index.name}', /* … */ });`,
      },
    });
  }
  for (const tally of parts.projections) {
    if (unread.has(tally.plan.index) || tally.items === 0) continue;
    const finding = projectionFinding(parts, tally);
    if (finding) findings.push(finding);
  }
  return findings;
}

function projectionFinding(parts: IndexFindingParts, tally: ProjectionTally): HealthFinding | undefined {
  const { plan } = tally;
  const index = parts.summary.indexes.find((i) => i.name === plan.index)!;
  const partitionKey = index.keys.partitionKey.name;
  const reads = (parts.evidence?.reads ?? []).filter((r) => r.filtered.has(partitionKey));
  const type = plan.proposed.size === 0 ? 'KEYS_ONLY' : 'INCLUDE';
  const now = plan.current === 'ALL' ? 'ALL' : `INCLUDE ${list(plan.current)}`;
  const storedShare =
    (tally.proposedBytes + INDEX_ITEM_OVERHEAD * tally.items) /
    (tally.currentBytes + INDEX_ITEM_OVERHEAD * tally.items);
  const writeShare = tally.proposedWriteUnits / tally.currentWriteUnits;
  if (storedShare > 0.9 && writeShare > 0.9) return undefined;
  const measured = `Measured on the ${tally.items.toLocaleString('en-US')} items of the index ${parts.drawText}: an index item averages ${Math.round(tally.currentBytes / tally.items)} bytes as projected now and ${Math.round(tally.proposedBytes / tally.items)} with ${type}, ${Math.round((1 - storedShare) * 100)}% less storage and ${Math.round((1 - writeShare) * 100)}% fewer write units per write.`;
  const info = parts.indexes.find((i) => i.name === plan.index);
  let savings: number | undefined;
  let cost = '';
  if (parts.prices) {
    const storage = storageMonthly(parts.prices, parts.sizes.get(plan.index) ?? 0) * (1 - storedShare);
    const writes =
      info?.writes !== undefined
        ? onDemandMonthly(parts.prices, 0, perMonth(info.writes, parts.windowSeconds)) * (1 - writeShare)
        : undefined;
    savings = storage + (writes ?? 0);
    cost = ` It saves ${usd(storage)} a month of storage${writes !== undefined ? ` and ${usd(writes)} of writes (CloudWatch, ${parts.windowText}; updates that touch no projected attribute then skip the index, saving more)` : ' (writes not priced without CloudWatch)'} at ${parts.prices.region} on-demand prices.`;
  } else cost = ` Not priced: ${pricesText(parts.region, parts.prices)}`;
  const why =
    reads.length > 0
      ? `${reads.length} SELECT${reads.length === 1 ? '' : 's'} in ${parts.evidence!.source} filter on ${partitionKey}, the index's key, and use ${plan.proposed.size ? list(plan.proposed) : 'no attribute'} besides the keys; none reads every attribute.`
      : parts.evidence
        ? `No SELECT in ${parts.evidence.source} filters on ${partitionKey}, the index's key: DynoTable has no record of what reads this index, and your applications' reads are not visible to it. Check them first: KEYS_ONLY suits readers that fetch the full item by its key afterwards.`
        : `The CLI has no record of what reads this index (the app keeps each connection's SQL history); check your applications' reads first: KEYS_ONLY suits readers that fetch the full item by its key afterwards.`;
  const projection =
    type === 'KEYS_ONLY'
      ? {
          cf: `Projection:\n  ProjectionType: KEYS_ONLY`,
          cdk: `projectionType: dynamodb.ProjectionType.KEYS_ONLY,`,
        }
      : {
          cf: `Projection:\n  ProjectionType: INCLUDE\n  NonKeyAttributes: [${[...plan.proposed].map((n) => JSON.stringify(n)).join(', ')}]`,
          cdk: `projectionType: dynamodb.ProjectionType.INCLUDE,\nnonKeyAttributes: [${[...plan.proposed].map((n) => JSON.stringify(n)).join(', ')}],`,
        };
  const replace = `A GSI's projection cannot be changed in place: add a new index (a new name, the same keys) with this projection, move the readers to it, then remove ${plan.index}.`;
  return {
    id: `indexes.projection.${plan.index}`,
    area: 'indexes',
    severity: 'info',
    title: `Index ${plan.index} projects more than ${reads.length > 0 ? 'its recorded reads use' : 'keys, with no recorded read of it'}: ${type} would do`,
    evidence: `Projection now ${now}. ${why} ${measured}${cost}`,
    ...(savings !== undefined ? { monthlySavings: savings } : {}),
    action: {
      kind: 'show-change',
      cloudFormation: `# ${replace}\n- IndexName: ${plan.index}V2\n  KeySchema: # as ${plan.index}'s\n  ${projection.cf.replace(/\n/g, '\n  ')}`,
      cdk: `// ${replace}\ntable.addGlobalSecondaryIndex({\n  indexName: '${plan.index}V2',\n  partitionKey: /* as ${plan.index}'s */,\n  ${projection.cdk.replace(/\n/g, '\n  ')}\n});`,
    },
  };
}
