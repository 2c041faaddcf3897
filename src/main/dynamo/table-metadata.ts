import {
  DescribeContinuousBackupsCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type AttributeDefinition,
  type ContinuousBackupsDescription,
  type DynamoDBClient,
  type KeySchemaElement,
  type TableDescription,
  type TimeToLiveDescription,
} from '@aws-sdk/client-dynamodb';
import { keyAttributeNames, keyAttributes, keysFromElements } from '../../shared/dynamo/key-model';
import type { ReadTarget } from '../../shared/dynamo/read-request';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { IndexInfo, KeySchema, TableSummary } from '../../shared/ipc/tables';

/**
 * The one place DynoTable describes a table. Every read, write, copy, SQL statement and table
 * form asks here; the answer is cached per client (the factory keeps one client per connection,
 * and a connection edited gets a new client, hence an empty cache) and per table.
 *
 * Freshness: keys never change, indexes and settings only by an UpdateTable, which DynoTable's own
 * changes invalidate (control-calls.ts). Someone else's change in another tool is seen within
 * FRESH_MS. Item count and size are DynamoDB's own approximations, refreshed about every six
 * hours, so a short cache loses nothing there.
 */
export const FRESH_MS = 30_000;

interface Entry {
  at: number;
  value: Promise<TableDescription>;
}

const cache = new WeakMap<DynamoDBClient, Map<string, Entry>>();

function entriesOf(client: DynamoDBClient): Map<string, Entry> {
  let entries = cache.get(client);
  if (!entries) {
    entries = new Map<string, Entry>();
    cache.set(client, entries);
  }
  return entries;
}

/**
 * DescribeTable's answer, from the cache when younger than `maxAgeMs`. Calls in flight are
 * shared; a failed one is not cached. `maxAgeMs: 0` asks DynamoDB now (a change is about to be
 * checked against it, or a status is being followed) and refreshes the cache for everyone else.
 */
export function describeTableDescription(
  client: DynamoDBClient,
  table: string,
  signal?: AbortSignal,
  maxAgeMs = FRESH_MS,
): Promise<TableDescription> {
  const entries = entriesOf(client);
  const hit = entries.get(table);
  if (hit && maxAgeMs > 0 && Date.now() - hit.at < maxAgeMs) return untilAborted(hit.value, signal);
  // The call is shared, so no one caller's cancel may end it; its own deadline bounds it instead.
  const value = client
    .send(new DescribeTableCommand({ TableName: table }), { abortSignal: AbortSignal.timeout(DEADLINE_MS) })
    .then((out) => {
      if (!out.Table)
        throw new AppFailure(ErrorCodes.notFound, `DynamoDB did not describe the table ${table}.`);
      return out.Table;
    });
  const entry: Entry = { at: Date.now(), value };
  entries.set(table, entry);
  value.catch(() => {
    if (entries.get(table) === entry) entries.delete(table);
  });
  return untilAborted(value, signal);
}

const DEADLINE_MS = 30_000;

/** The shared answer for one caller, who may stop waiting for it without stopping it. */
function untilAborted<T>(value: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return value;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    value.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function abortError(signal: AbortSignal): Error {
  if (signal.reason instanceof Error) return signal.reason;
  const error = new Error('The request was aborted.');
  error.name = 'AbortError';
  return error;
}

/** The table as DynoTable shows and uses it (TTL and point-in-time recovery UNKNOWN: see tableDetails). */
export async function tableSummary(
  client: DynamoDBClient,
  table: string,
  signal?: AbortSignal,
  maxAgeMs = FRESH_MS,
): Promise<TableSummary> {
  return toSummary(await describeTableDescription(client, table, signal, maxAgeMs), undefined, undefined);
}

/**
 * Forgets a table after DynoTable changed, created, deleted or purged it, whether or not the
 * change was accepted: a request that timed out may still have been applied.
 */
export function forgetTable(client: DynamoDBClient, table: string): void {
  cache.get(client)?.delete(table);
}

export interface TableDetails {
  summary: TableSummary;
  /** The DescribeTable, DescribeTimeToLive and DescribeContinuousBackups answers, dates as ISO strings. */
  raw: Record<string, unknown>;
}

/** Everything the table pages show, TTL and backups included; the description is asked for now. */
export async function tableDetails(
  client: DynamoDBClient,
  name: string,
  signal: AbortSignal,
  maxAgeMs = 0,
): Promise<TableDetails> {
  const options = { abortSignal: signal };
  const [table, ttl, backups] = await Promise.all([
    describeTableDescription(client, name, signal, maxAgeMs),
    optional(signal, () => client.send(new DescribeTimeToLiveCommand({ TableName: name }), options)),
    optional(signal, () => client.send(new DescribeContinuousBackupsCommand({ TableName: name }), options)),
  ]);
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
  return keysFromElements(schema ?? [], typeOf) ?? { partitionKey: { name: '', type: 'S' } };
}

/** The key attribute names of a table and, for an index scan, of that index too (index keys first). */
export function keyAttributesOf(summary: TableSummary, index?: string): string[] {
  const indexKeys = index ? summary.indexes.find((i) => i.name === index)?.keys : undefined;
  return [
    ...new Set([...(indexKeys ? keyAttributeNames(indexKeys) : []), ...keyAttributeNames(summary.keys)]),
  ];
}

/** Every attribute that keys one of the table's indexes, with its type. */
export function indexKeyAttributes(summary: TableSummary): { name: string; type: 'S' | 'N' | 'B' }[] {
  const out = new Map<string, 'S' | 'N' | 'B'>();
  for (const index of summary.indexes) for (const a of keyAttributes(index.keys)) out.set(a.name, a.type);
  return [...out].map(([name, type]) => ({ name, type }));
}

/** What the read builder needs of a table (shared/dynamo/read-request.ts). */
export function readTargetOf(summary: TableSummary): ReadTarget {
  return { table: summary.name, keys: summary.keys, indexes: summary.indexes };
}
