import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createTable, putItems } from './dynamo-tables';

/**
 * A table keyed pk (S) / sk (N) of `count` items of about `bytes` each, over `partitions` pk
 * values: big enough that a Scan comes in several of DynamoDB's 1 MB pages. `more` adds
 * attributes to item `i`.
 */
export async function createPaddedTable(
  client: DynamoDBClient,
  table: string,
  options: {
    count: number;
    bytes: number;
    partitions: number;
    more?: (i: number) => Record<string, { S: string }>;
  },
): Promise<void> {
  await createTable(client, table, { partitionKey: ['pk', 'S'], sortKey: ['sk', 'N'] });
  await putItems(
    client,
    table,
    Array.from({ length: options.count }, (_, i) => ({
      pk: { S: `P#${i % options.partitions}` },
      sk: { N: String(i) },
      ...options.more?.(i),
      pad: { S: `${i}:`.padEnd(options.bytes, 'x') },
    })),
  );
}
