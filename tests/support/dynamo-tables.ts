import {
  type AttributeDefinition,
  type AttributeValue,
  BatchWriteItemCommand,
  CreateTableCommand,
  type CreateTableCommandInput,
  type DynamoDBClient,
  type KeySchemaElement,
  type Projection,
  type ScalarAttributeType,
  type StreamViewType,
} from '@aws-sdk/client-dynamodb';
import { mapLimit } from '../../src/main/core/map-limit';

/** A key attribute: its name and DynamoDB type, e.g. `['PK', 'S']`. */
export type KeyAttribute = readonly [name: string, type: ScalarAttributeType];

export interface GlobalIndexSpec {
  name: string;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  /** ALL unless said otherwise. */
  projection?: Projection;
}

/** A local index shares the table's partition key, so only its sort key is named. */
export type LocalIndexSpec = Omit<GlobalIndexSpec, 'partitionKey'> & { sortKey: KeyAttribute };

export interface TableSpec {
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  globalIndexes?: GlobalIndexSpec[];
  localIndexes?: LocalIndexSpec[];
  /** The rest of CreateTable (streams, provisioned capacity, ...); on-demand billing unless said. */
  options?: Partial<CreateTableCommandInput>;
}

function keySchema(partitionKey: KeyAttribute, sortKey?: KeyAttribute): KeySchemaElement[] {
  return [
    { AttributeName: partitionKey[0], KeyType: 'HASH' },
    ...(sortKey ? [{ AttributeName: sortKey[0], KeyType: 'RANGE' as const }] : []),
  ];
}

function toIndex(index: GlobalIndexSpec) {
  return {
    IndexName: index.name,
    KeySchema: keySchema(index.partitionKey, index.sortKey),
    Projection: index.projection ?? { ProjectionType: 'ALL' },
  };
}

/**
 * The CreateTable input for a spec. Attribute definitions are derived from the keys of the
 * table and its indexes, once each, because DynamoDB rejects a definition no key uses.
 */
export function tableDefinition(name: string, spec: TableSpec): CreateTableCommandInput {
  const globals = spec.globalIndexes ?? [];
  const locals = (spec.localIndexes ?? []).map((index) => ({ ...index, partitionKey: spec.partitionKey }));
  const keys = [spec, ...globals, ...locals]
    .flatMap((keyed) => [keyed.partitionKey, keyed.sortKey])
    .filter((key): key is KeyAttribute => key !== undefined);
  const definitions = new Map<string, AttributeDefinition>();
  for (const [AttributeName, AttributeType] of keys)
    if (!definitions.has(AttributeName)) definitions.set(AttributeName, { AttributeName, AttributeType });
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...definitions.values()],
    KeySchema: keySchema(spec.partitionKey, spec.sortKey),
    GlobalSecondaryIndexes: globals.length ? globals.map(toIndex) : undefined,
    LocalSecondaryIndexes: locals.length ? locals.map(toIndex) : undefined,
    ...spec.options,
  };
}

/** Creates the table (DynamoDB Local makes it ACTIVE at once) and returns its name. */
export async function createTable(client: DynamoDBClient, name: string, spec: TableSpec): Promise<string> {
  await client.send(new CreateTableCommand(tableDefinition(name, spec)));
  return name;
}

type SdkItem = Record<string, AttributeValue>;

/**
 * Writes `items` in BatchWriteItem's batches of 25, sending again whatever comes back
 * unprocessed. `concurrency` batches go at once (1 unless said: a later batch may repeat an
 * earlier one's key and must then land after it). With distinct keys, 8 at once filled 10,000
 * items into DynamoDB Local 3.5–4.8× faster than 1 (docs/PERFORMANCE.md, the suite's wall time).
 */
export async function putItems(
  client: DynamoDBClient,
  table: string,
  items: readonly SdkItem[],
  options: { concurrency?: number } = {},
): Promise<void> {
  const batches: SdkItem[][] = [];
  for (let start = 0; start < items.length; start += 25) batches.push(items.slice(start, start + 25));
  await mapLimit(batches, options.concurrency ?? 1, async (batch) => {
    let pending = batch.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > 10)
        throw new Error(`DynamoDB Local left ${pending.length} items of ${table} unprocessed 10 times.`);
      const result = await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: pending } }));
      pending = (result.UnprocessedItems?.[table] ?? []) as typeof pending;
    }
  });
}

export interface KeyedTableOptions {
  /** The partition key's name (a string attribute); `id` unless said. */
  key?: string;
  /** A stream of this view type, for the stream tail. */
  stream?: StreamViewType;
  /** The items to write, or how many `{ <key>: "item-<i>" }` items. */
  items?: number | readonly SdkItem[];
}

/**
 * The table most table tests start from: on-demand, a string partition key and nothing else,
 * optionally with a stream and items (written by "another client", not through DynoTable).
 */
export async function createKeyedTable(
  client: DynamoDBClient,
  name: string,
  options: KeyedTableOptions = {},
): Promise<string> {
  const key = options.key ?? 'id';
  const stream = options.stream;
  await createTable(client, name, {
    partitionKey: [key, 'S'],
    ...(stream ? { options: { StreamSpecification: { StreamEnabled: true, StreamViewType: stream } } } : {}),
  });
  const items =
    typeof options.items === 'number'
      ? Array.from({ length: options.items }, (_, i) => ({ [key]: { S: `item-${i}` } }))
      : (options.items ?? []);
  if (items.length > 0) await putItems(client, name, items);
  return name;
}
