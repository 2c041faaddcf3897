import { DescribeTableCommand, type DynamoDBClient, ScanCommand, type AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { EntityView, TableInfo } from '../../../shared/sql/catalog';
import { listTableNames, toSummary } from '../../dynamo/tables';
import { attributePaths, detectEntityViews, itemsPerPartition } from './entity-detect';

export interface CatalogData {
  tables: TableInfo[];
  /** Detected from a sample of each table; user-defined views are added by the caller. */
  views: EntityView[];
  attributes: Record<string, string[]>;
  loadedAt: number;
  /** Read capacity the samples consumed, for honesty in the UI. */
  sampleCapacity: number;
}

/** Items sampled per table (one Scan page, ~12 RCU at 1 KB per item). */
export const SAMPLE_ITEMS = 100;
const MAX_TABLES = 500;
const CONCURRENCY = 4;

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/**
 * The connection's tables (DescribeTable sizes, keys and indexes) and, from one small Scan
 * page per table, its entity views, items per partition and attribute names. A table we may
 * describe but not scan still appears, without views.
 */
export async function loadCatalog(client: DynamoDBClient, signal: AbortSignal, sampleItems = SAMPLE_ITEMS): Promise<CatalogData> {
  const names = await listTableNames(client, signal, MAX_TABLES);
  let sampleCapacity = 0;
  const loaded = await mapLimit(names, CONCURRENCY, async (name) => {
    let described;
    try {
      described = await client.send(new DescribeTableCommand({ TableName: name }), { abortSignal: signal });
    } catch (error) {
      if (signal.aborted) throw error;
      return undefined;
    }
    const summary = toSummary(described.Table ?? { TableName: name }, undefined, undefined);
    const info: TableInfo = { name: summary.name, keys: summary.keys, indexes: summary.indexes, itemCount: summary.itemCount, sizeBytes: summary.sizeBytes };
    let sample: Record<string, SdkValue>[] = [];
    try {
      const page = await client.send(new ScanCommand({ TableName: name, Limit: sampleItems, ReturnConsumedCapacity: 'TOTAL' }), { abortSignal: signal });
      sample = page.Items ?? [];
      sampleCapacity += page.ConsumedCapacity?.CapacityUnits ?? 0;
    } catch (error) {
      if (signal.aborted) throw error;
    }
    info.itemsPerPartition = itemsPerPartition(info, sample);
    const views = detectEntityViews(info, sample);
    const attributes: Record<string, string[]> = { [name]: attributePaths(sample) };
    for (const view of views) attributes[view.name] = attributePaths(sample.filter((item) => matchesView(view, item)));
    return { info, views, attributes };
  });
  const present = loaded.filter((x): x is NonNullable<typeof x> => x !== undefined);
  return {
    tables: present.map((x) => x.info),
    views: present.flatMap((x) => x.views),
    attributes: Object.assign({}, ...present.map((x) => x.attributes)) as Record<string, string[]>,
    loadedAt: Date.now(),
    sampleCapacity,
  };
}

function matchesView(view: EntityView, item: Record<string, SdkValue>): boolean {
  return view.conditions.every((c) => {
    const value = item[c.attribute]?.S;
    const wanted = c.values[0] && 'S' in c.values[0] ? c.values[0].S : undefined;
    if (value === undefined || wanted === undefined) return false;
    return c.op === 'begins_with' ? value.startsWith(wanted) : c.op === '=' ? value === wanted : true;
  });
}
