import {
  type DynamoDBClient,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
  type ScanCommandInput,
} from '@aws-sdk/client-dynamodb';
import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import { fromSdkItem, toSdkItem } from '../dynamo/marshal';

export interface BoundedRead {
  items: Item[];
  consumedCapacity: number;
  pages: number;
  /** More items exist beyond the limit. */
  truncated: boolean;
}

/** The RCU a read may consume, and what one item is expected to cost until a page says. */
export interface CapacityBound {
  left: number;
  perItem: number;
}

/**
 * Pages a Query or Scan until `limit` items; never an unbounded LastEvaluatedKey loop. With a
 * capacity bound it also stops once DynamoDB has reported that much consumed, and sizes each
 * page to what is left at the cost per item the previous page showed (the first page goes by
 * the estimate), so it passes the bound by at most about one page.
 */
export async function readBounded(
  client: DynamoDBClient,
  request: { kind: 'query'; input: QueryCommandInput } | { kind: 'scan'; input: ScanCommandInput },
  limit: number,
  signal: AbortSignal,
  capacity?: CapacityBound,
): Promise<BoundedRead> {
  const items: Item[] = [];
  let consumedCapacity = 0;
  let perItem = capacity?.perItem ?? 0;
  let pages = 0;
  let startKey: QueryCommandInput['ExclusiveStartKey'];
  const maxPages = 1000;
  const hasCapacity = (): boolean => !capacity || consumedCapacity < capacity.left;
  do {
    const affordable =
      capacity && perItem > 0 ? Math.max(1, Math.floor((capacity.left - consumedCapacity) / perItem)) : 1000;
    const input = {
      ...request.input,
      Limit: Math.min(1000, limit - items.length, affordable),
      ExclusiveStartKey: startKey,
      ReturnConsumedCapacity: 'TOTAL' as const,
    };
    const output =
      request.kind === 'query'
        ? await client.send(new QueryCommand(input), { abortSignal: signal })
        : await client.send(new ScanCommand(input), { abortSignal: signal });
    pages += 1;
    const pageCapacity = output.ConsumedCapacity?.CapacityUnits ?? 0;
    consumedCapacity += pageCapacity;
    const scanned = output.ScannedCount ?? output.Items?.length ?? 0;
    if (scanned > 0 && pageCapacity > 0) perItem = pageCapacity / scanned;
    for (const raw of output.Items ?? []) items.push(fromSdkItem(raw));
    startKey = output.LastEvaluatedKey;
  } while (startKey && items.length < limit && pages < maxPages && hasCapacity());
  return { items, consumedCapacity, pages, truncated: startKey !== undefined };
}

export type SortKeyCondition = {
  op: '=' | '<' | '<=' | '>' | '>=' | 'begins_with' | 'between';
  value: AttributeValue;
  value2?: AttributeValue;
};

/** A key condition that always goes through expression attribute names (reserved words, dots). */
export function keyConditionInput(
  partition: { name: string; value: AttributeValue },
  sort?: { name: string; condition: SortKeyCondition },
): Pick<
  QueryCommandInput,
  'KeyConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
> {
  const names: Record<string, string> = { '#pk': partition.name };
  const values: Item = { ':pk': partition.value };
  let expression = '#pk = :pk';
  if (sort) {
    names['#sk'] = sort.name;
    values[':sk'] = sort.condition.value;
    const { op } = sort.condition;
    if (op === 'begins_with') expression += ' AND begins_with(#sk, :sk)';
    else if (op === 'between') {
      if (!sort.condition.value2) throw new Error('between needs two values');
      values[':sk2'] = sort.condition.value2;
      expression += ' AND #sk BETWEEN :sk AND :sk2';
    } else expression += ` AND #sk ${op} :sk`;
  }
  return {
    KeyConditionExpression: expression,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: toSdkItem(values),
  };
}

/** Attribute paths and their types seen in a sample, e.g. "address.city": ["S"]. */
export function attributePaths(items: Item[], maxDepth = 3): Record<string, string[]> {
  const seen = new Map<string, Set<string>>();
  const visit = (path: string, value: AttributeValue, depth: number): void => {
    const type = Object.keys(value)[0] ?? '?';
    let types = seen.get(path);
    if (!types) seen.set(path, (types = new Set()));
    types.add(type);
    if ('M' in value && depth < maxDepth) {
      for (const [k, v] of Object.entries(value.M)) visit(`${path}.${k}`, v, depth + 1);
    }
  };
  for (const item of items) for (const [name, value] of Object.entries(item)) visit(name, value, 1);
  return Object.fromEntries([...seen].map(([path, types]) => [path, [...types]]));
}
