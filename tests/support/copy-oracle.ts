import { createHash } from 'node:crypto';
import { canonical, rawDynamo } from './raw-dynamo';

type RawItem = Record<string, unknown>;

/** Every item of a table as DynamoDB Local's wire JSON, past the SDK and past DynoTable. */
export async function rawScanAll(endpoint: string, table: string, accessKey?: string): Promise<RawItem[]> {
  const items: RawItem[] = [];
  let start: unknown;
  for (let page = 0; page < 10_000; page++) {
    const answer = await rawDynamo<{ Items?: RawItem[]; LastEvaluatedKey?: unknown }>(
      endpoint,
      'Scan',
      { TableName: table, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) },
      accessKey,
    );
    items.push(...(answer.Items ?? []));
    start = answer.LastEvaluatedKey;
    if (!start) return items;
  }
  throw new Error(`${table} did not end within 10,000 pages`);
}

/** Each item's canonical wire text, sorted: two tables hold the same items exactly when these are equal. */
export function canonicalItems(items: RawItem[]): string[] {
  return items.map((item) => canonical(item)).sort();
}

/** An order-independent checksum of a table's raw items: the independent oracle for a copy. */
export async function tableChecksum(
  endpoint: string,
  table: string,
  accessKey?: string,
): Promise<{ count: number; sha256: string }> {
  const texts = canonicalItems(await rawScanAll(endpoint, table, accessKey));
  return { count: texts.length, sha256: createHash('sha256').update(texts.join('\n')).digest('hex') };
}

/** Writes raw wire items with BatchWriteItem, sending unprocessed ones again. */
export async function rawPutAll(
  endpoint: string,
  table: string,
  items: RawItem[],
  accessKey?: string,
): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let pending: unknown[] = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let round = 0; pending.length > 0; round++) {
      if (round > 10) throw new Error('DynamoDB Local kept items unprocessed');
      const answer = await rawDynamo<{ UnprocessedItems?: Record<string, unknown[]> }>(
        endpoint,
        'BatchWriteItem',
        { RequestItems: { [table]: pending } },
        accessKey,
      );
      pending = answer.UnprocessedItems?.[table] ?? [];
    }
  }
}
