import type { DynamoDBClient, QueryCommandInput, ScanCommandInput } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../shared/dynamo/attribute-value';
import { initialCursors, type SegmentCursor, segmentedScan } from '../dynamo/read/segmented-read';
import { seenPaths } from '../dynamo/attribute-paths';

const MAX_PAGES = 1000;
const MAX_PAGE_ITEMS = 1000;

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
 * the estimate), so it passes the bound by at most about one page. Read by the one read engine
 * on the wire path: the items arrive in the tagged form, parsed from the response bytes.
 */
export async function readBounded(
  client: DynamoDBClient,
  request: { kind: 'query'; input: QueryCommandInput } | { kind: 'scan'; input: ScanCommandInput },
  limit: number,
  signal: AbortSignal,
  capacity?: CapacityBound,
): Promise<BoundedRead> {
  const items: Item[] = [];
  const read = { consumedCapacity: 0, pages: 0, perItem: capacity?.perItem ?? 0 };
  const hasCapacity = (): boolean => !capacity || read.consumedCapacity < capacity.left;
  const { TableName, IndexName, ExclusiveStartKey: _start, Limit: _limit, ...input } = request.input;
  const cursors = initialCursors(1);
  await segmentedScan({
    client,
    table: TableName ?? '',
    index: IndexName,
    cursors,
    totalSegments: 1,
    signal,
    request: { operation: request.kind === 'query' ? 'Query' : 'Scan', input },
    items: 'wire',
    pagesPerSegment: MAX_PAGES,
    pageLimit: () => {
      const affordable =
        capacity && read.perItem > 0
          ? Math.max(1, Math.floor((capacity.left - read.consumedCapacity) / read.perItem))
          : MAX_PAGE_ITEMS;
      return Math.min(MAX_PAGE_ITEMS, limit - items.length, affordable);
    },
    onPage: (page) => {
      read.pages += 1;
      read.consumedCapacity += page.consumed;
      if (page.scannedCount > 0 && page.consumed > 0) read.perItem = page.consumed / page.scannedCount;
      for (const item of page.items) items.push(item);
      return items.length < limit && hasCapacity();
    },
  });
  const { consumedCapacity, pages } = read;
  return { items, consumedCapacity, pages, truncated: !(cursors[0] as SegmentCursor).done };
}

/** Attribute paths and their types seen in a sample, e.g. "address.city": ["S"]. */
export function attributePaths(items: Item[], maxDepth = 3): Record<string, string[]> {
  return Object.fromEntries(
    seenPaths(items, maxDepth)
      .filter((path) => !path.isListElement)
      .map((path) => [path.names.join('.'), [...path.types]]),
  );
}
