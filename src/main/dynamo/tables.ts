import {
  DescribeContinuousBackupsCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  ListTablesCommand,
  type ContinuousBackupsDescription,
  type DynamoDBClient,
  type KeySchemaElement,
  type AttributeDefinition,
  type TableDescription,
  type TimeToLiveDescription,
} from '@aws-sdk/client-dynamodb';
import type { IndexInfo, KeySchema, TableSummary } from '../../shared/ipc/tables';

/** ListTables is paginated by 100; an account with more tables than this is cut off, not looped on forever. */
export const MAX_TABLES = 2000;
/** DescribeTable calls in flight at once: fast for dozens of tables without tripping control-plane throttling. */
const DESCRIBE_CONCURRENCY = 4;

export interface TableDetails {
  summary: TableSummary;
  /** The DescribeTable, DescribeTimeToLive and DescribeContinuousBackups answers, dates as ISO strings. */
  raw: Record<string, unknown>;
}

export async function listTableNames(
  client: DynamoDBClient,
  signal: AbortSignal,
  max = MAX_TABLES,
): Promise<string[]> {
  const names: string[] = [];
  let start: string | undefined;
  do {
    const page = await client.send(new ListTablesCommand({ ExclusiveStartTableName: start, Limit: 100 }), {
      abortSignal: signal,
    });
    names.push(...(page.TableNames ?? []));
    start = page.LastEvaluatedTableName;
  } while (start && names.length < max);
  return names.slice(0, max);
}

/** Every table with its description; tables deleted while we list them are left out. */
export async function listTables(client: DynamoDBClient, signal: AbortSignal): Promise<TableSummary[]> {
  const names = await listTableNames(client, signal);
  const details = await mapLimit(names, DESCRIBE_CONCURRENCY, async (name) => {
    try {
      return await describeTable(client, name, signal);
    } catch (error) {
      if ((error as { name?: string }).name === 'ResourceNotFoundException' && !signal.aborted)
        return undefined;
      throw error;
    }
  });
  return details.flatMap((d) => (d ? [d.summary] : []));
}

export async function describeTable(
  client: DynamoDBClient,
  name: string,
  signal: AbortSignal,
): Promise<TableDetails> {
  const options = { abortSignal: signal };
  const [described, ttl, backups] = await Promise.all([
    client.send(new DescribeTableCommand({ TableName: name }), options),
    optional(signal, () => client.send(new DescribeTimeToLiveCommand({ TableName: name }), options)),
    optional(signal, () => client.send(new DescribeContinuousBackupsCommand({ TableName: name }), options)),
  ]);
  const table = described.Table ?? { TableName: name };
  const raw = {
    Table: table,
    TimeToLiveDescription: ttl?.TimeToLiveDescription,
    ContinuousBackupsDescription: backups?.ContinuousBackupsDescription,
  };
  return {
    summary: toSummary(table, ttl?.TimeToLiveDescription, backups?.ContinuousBackupsDescription),
    raw: JSON.parse(JSON.stringify(raw)) as Record<string, unknown>,
  };
}

/**
 * TTL and backup settings are extras: a role may lack the permission, or an emulator may not
 * implement the call. Either way the table still lists, with that field UNKNOWN.
 */
async function optional<T>(signal: AbortSignal, call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
}

export function toSummary(
  table: TableDescription,
  ttl: TimeToLiveDescription | undefined,
  backups: ContinuousBackupsDescription | undefined,
): TableSummary {
  const definitions = table.AttributeDefinitions ?? [];
  const isOnDemand = table.BillingModeSummary?.BillingMode === 'PAY_PER_REQUEST';
  const indexes: IndexInfo[] = [
    ...(table.GlobalSecondaryIndexes ?? []).map((gsi) => ({
      name: gsi.IndexName ?? '',
      kind: 'GSI' as const,
      keys: keysOf(gsi.KeySchema, definitions),
      projection: gsi.Projection?.ProjectionType ?? 'ALL',
      projectedAttributes: gsi.Projection?.NonKeyAttributes,
      status: gsi.IndexStatus,
      itemCount: gsi.ItemCount,
    })),
    ...(table.LocalSecondaryIndexes ?? []).map((lsi) => ({
      name: lsi.IndexName ?? '',
      kind: 'LSI' as const,
      keys: keysOf(lsi.KeySchema, definitions),
      projection: lsi.Projection?.ProjectionType ?? 'ALL',
      projectedAttributes: lsi.Projection?.NonKeyAttributes,
      itemCount: lsi.ItemCount,
    })),
  ];
  const pitr = backups?.PointInTimeRecoveryDescription?.PointInTimeRecoveryStatus;
  return {
    name: table.TableName ?? '',
    status: table.TableStatus ?? 'UNKNOWN',
    keys: keysOf(table.KeySchema, definitions),
    indexes,
    // Tables created before on-demand existed carry no BillingModeSummary: they are provisioned.
    billingMode: isOnDemand ? 'PAY_PER_REQUEST' : 'PROVISIONED',
    readCapacity: isOnDemand ? undefined : table.ProvisionedThroughput?.ReadCapacityUnits,
    writeCapacity: isOnDemand ? undefined : table.ProvisionedThroughput?.WriteCapacityUnits,
    itemCount: table.ItemCount ?? 0,
    sizeBytes: table.TableSizeBytes ?? 0,
    ttl: ttl
      ? { status: ttl.TimeToLiveStatus ?? 'DISABLED', attribute: ttl.AttributeName }
      : { status: 'UNKNOWN' },
    stream: {
      enabled: table.StreamSpecification?.StreamEnabled ?? false,
      viewType: table.StreamSpecification?.StreamViewType,
      arn: table.StreamSpecification?.StreamEnabled ? table.LatestStreamArn : undefined,
    },
    pointInTimeRecovery: pitr === 'ENABLED' || pitr === 'DISABLED' ? pitr : 'UNKNOWN',
    deletionProtection: table.DeletionProtectionEnabled ?? false,
    createdAt: table.CreationDateTime?.toISOString(),
    arn: table.TableArn,
    tableClass: table.TableClassSummary?.TableClass,
  };
}

function keysOf(schema: KeySchemaElement[] | undefined, definitions: AttributeDefinition[]): KeySchema {
  const typeOf = (name: string): 'S' | 'N' | 'B' => {
    const type = definitions.find((d) => d.AttributeName === name)?.AttributeType;
    return type === 'N' || type === 'B' ? type : 'S';
  };
  const hash = schema?.find((k) => k.KeyType === 'HASH')?.AttributeName ?? '';
  const range = schema?.find((k) => k.KeyType === 'RANGE')?.AttributeName;
  return {
    partitionKey: { name: hash, type: typeOf(hash) },
    sortKey: range === undefined ? undefined : { name: range, type: typeOf(range) },
  };
}

/** The key attribute names of a table and, for an index scan, of that index too (index keys first). */
export function keyAttributesOf(summary: TableSummary, index?: string): string[] {
  const names = (keys: KeySchema): string[] => [
    keys.partitionKey.name,
    ...(keys.sortKey ? [keys.sortKey.name] : []),
  ];
  const indexKeys = index ? summary.indexes.find((i) => i.name === index)?.keys : undefined;
  return [...new Set([...(indexKeys ? names(indexKeys) : []), ...names(summary.keys)])];
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  const queue = items.entries(); // shared by the lanes: each takes the next unclaimed item
  let hasFailed = false;
  const lane = async (): Promise<void> => {
    for (const [index, item] of queue) {
      // After one failure the whole list fails, so the other lanes stop asking.
      if (hasFailed) return;
      try {
        results[index] = await fn(item);
      } catch (error) {
        hasFailed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
