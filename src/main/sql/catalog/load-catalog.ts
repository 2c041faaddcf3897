import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import type { EntityView, TableInfo } from '../../../shared/sql/catalog';
import { initialCursors, segmentedScan } from '../../dynamo/read/segmented-read';
import { tableSummary } from '../../dynamo/table-metadata';
import { listTableNames } from '../../dynamo/tables';
import type { TableRef } from '../parser/table-refs';
import {
  attributePaths,
  detectEntityViews,
  indexItemsPerPartition,
  itemsPerPartition,
} from './entity-detect';
import { mapLimit } from '../../core/map-limit';
import { closestName } from './closest-name';

/** Items sampled per table (one Scan page, ~12 RCU at 1 KB per item). */
export const SAMPLE_ITEMS = 100;
/** Without a table name to go on, at most this many tables are sampled for entity views. */
const MAX_SAMPLED_TABLES = 100;
const MAX_TABLES = 2000;
const CONCURRENCY = 4;
const TTL_MS = 10 * 60_000;

interface Sample {
  /** The planner's per-partition estimates, put on the table's info by build(). */
  itemsPerPartition?: number;
  indexItemsPerPartition?: Record<string, number>;
  views: EntityView[];
  attributes: Record<string, string[]>;
  capacity: number;
}

export interface CatalogData {
  tables: TableInfo[];
  views: EntityView[];
  attributes: Record<string, string[]>;
  loadedAt: number;
  /** Read capacity the samples consumed, for honesty in the UI. */
  sampleCapacity: number;
  /** Tables listed but not described or sampled (an account past MAX_SAMPLED_TABLES): names only. */
  moreTables?: string[];
}

const fresh = <T extends { at: number }>(entry: T | undefined): T | undefined =>
  entry && Date.now() - entry.at < TTL_MS ? entry : undefined;

/**
 * What SQL knows of a connection's tables, loaded lazily: table names (ListTables), then
 * DescribeTable only for tables a statement names, and one small Scan page per table only when
 * entity views are needed (a view name, or the editor's autocomplete). An account with hundreds
 * of tables is not sampled in full to run `SELECT ... FROM one_table`.
 */
export class ConnectionCatalog {
  private names?: { at: number; value: Promise<string[]> };
  private readonly samples = new Map<string, { at: number; value: Promise<Sample> }>();
  /** Tables statements named directly, most recent last (what autocomplete samples first). */
  private readonly usedByStatements = new Set<string>();

  constructor(private readonly client: () => Promise<DynamoDBClient>) {}

  refresh(): void {
    this.names = undefined;
    this.samples.clear();
  }

  /** Names are listed again on next use, and the table's sample (views, attributes) taken again. */
  tableChanged(table: string): void {
    this.names = undefined;
    this.samples.delete(table);
  }

  private tableNames(signal: AbortSignal): Promise<string[]> {
    const cached = fresh(this.names);
    if (cached) return cached.value;
    const value = this.client().then((client) => listTableNames(client, signal, MAX_TABLES));
    this.names = { at: Date.now(), value };
    value.catch(() => (this.names = undefined));
    return value;
  }

  /**
   * Not cached here: the one table-metadata module caches descriptions and forgets them when
   * DynoTable changes a table, so SQL sees a new index as soon as the table list does.
   */
  private async describe(name: string, signal: AbortSignal): Promise<TableInfo | undefined> {
    try {
      const summary = await tableSummary(await this.client(), name, signal);
      return {
        name: summary.name,
        keys: summary.keys,
        indexes: summary.indexes,
        itemCount: summary.itemCount,
        sizeBytes: summary.sizeBytes,
      };
    } catch (error) {
      // A table deleted since ListTables is simply not there.
      if ((error as { name?: string }).name === 'ResourceNotFoundException') return undefined;
      throw error;
    }
  }

  private sample(info: TableInfo, signal: AbortSignal): Promise<Sample> {
    const cached = fresh(this.samples.get(info.name));
    if (cached) return cached.value;
    const value = this.client().then(async (client) => {
      try {
        const items: Item[] = [];
        let capacity = 0;
        await segmentedScan({
          client,
          table: info.name,
          cursors: initialCursors(1),
          totalSegments: 1,
          signal,
          items: 'wire',
          pageLimit: SAMPLE_ITEMS,
          pagesPerSegment: 1,
          // A statement is waiting: a throttled sample is left out now (below), not waited for.
          maxThrottleRetries: 0,
          onPage: (page) => {
            for (const item of page.items) items.push(item);
            capacity += page.consumed;
          },
        });
        const views = detectEntityViews(info, items);
        const attributes: Record<string, string[]> = { [info.name]: attributePaths(items) };
        for (const view of views)
          attributes[`${info.name}.${view.name}`] = attributePaths(
            items.filter((item) => matchesView(view, item)),
          );
        return {
          itemsPerPartition: itemsPerPartition(info, items),
          indexItemsPerPartition: indexItemsPerPartition(info, items),
          views,
          attributes,
          capacity,
        };
      } catch (error) {
        if (signal.aborted) throw error;
        // Allowed to describe but not to scan: the table still works, without views. Any other
        // failure (throttling, a timeout) leaves it without views for this statement only, and
        // is not cached as "this table has no entities".
        if ((error as { name?: string }).name !== 'AccessDeniedException') this.samples.delete(info.name);
        return { views: [], attributes: {}, capacity: 0 };
      }
    });
    this.samples.set(info.name, { at: Date.now(), value });
    value.catch(() => this.samples.delete(info.name));
    return value;
  }

  /**
   * The top-level attribute names in the table's sample (one Scan page, kept as the entity views'
   * sample is): what "did you mean" offers when a statement's projected read cannot show them.
   */
  async sampledNames(info: TableInfo, signal: AbortSignal): Promise<string[]> {
    const { attributes } = await this.sample(info, signal);
    const names: string[] = [];
    for (const path of attributes[info.name] ?? []) {
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(path)) names.push(path);
      else if (/^"(?:[^"]|"")*"$/.test(path)) names.push(path.slice(1, -1).replace(/""/g, '"'));
    }
    return names;
  }

  private async build(
    infos: (TableInfo | undefined)[],
    sampled: TableInfo[],
    signal: AbortSignal,
  ): Promise<CatalogData> {
    const samples = await mapLimit(sampled, CONCURRENCY, (info) => this.sample(info, signal));
    for (const [i, info] of sampled.entries()) {
      const { itemsPerPartition: perPartition, indexItemsPerPartition: perIndex } = samples[i]!;
      if (perPartition !== undefined) info.itemsPerPartition = perPartition;
      if (perIndex !== undefined) info.indexItemsPerPartition = perIndex;
    }
    return {
      tables: infos.filter((i): i is TableInfo => i !== undefined),
      views: samples.flatMap((s) => s.views),
      // fromEntries defines properties: a table may be called __proto__.
      attributes: Object.fromEntries(samples.flatMap((s) => Object.entries(s.attributes))),
      loadedAt: Date.now(),
      sampleCapacity: samples.reduce((sum, s) => sum + s.capacity, 0),
    };
  }

  /** Just enough for one statement: the tables it names, and views only where it needs them. */
  async forStatement(refs: TableRef[], userViews: EntityView[], signal: AbortSignal): Promise<CatalogData> {
    const names = await this.tableNames(signal);
    const find = (name: string): string | undefined =>
      names.find((n) => n === name) ?? names.find((n) => n.toLowerCase() === name.toLowerCase());
    const direct = new Set<string>();
    const toSample = new Set<string>();
    // A name no table has: the nearest table is described too, so the refusal can suggest it
    // even when it is not among the first MAX_SAMPLED_TABLES sampled.
    const near = new Set<string>();
    let sampleAll = false;
    for (const ref of refs) {
      const schema = ref.schema === undefined ? undefined : find(ref.schema);
      const table = find(ref.name);
      const userView = userViews.find(
        (v) =>
          v.name.toLowerCase() === ref.name.toLowerCase() && (ref.schema === undefined || v.table === schema),
      );
      if (schema) toSample.add(schema);
      else if (ref.schema === undefined && table) direct.add(table);
      else if (userView && find(userView.table)) direct.add(find(userView.table)!);
      else {
        sampleAll = true;
        const nearest = closestName(ref.name, names);
        if (nearest) near.add(nearest);
      }
    }
    const chosen = sampleAll ? names.slice(0, MAX_SAMPLED_TABLES) : [...toSample];
    const wanted = [...new Set([...direct, ...chosen, ...near])];
    for (const name of direct) {
      // Most recent last: a Set keeps insertion order.
      this.usedByStatements.delete(name);
      this.usedByStatements.add(name);
    }
    const infos = await mapLimit(wanted, CONCURRENCY, (name) => this.describe(name, signal));
    const sampled = infos.filter((i): i is TableInfo => i !== undefined && chosen.includes(i.name));
    // Sampling also estimates items per partition for the planner; do it for named tables too when cheap.
    return this.build(infos, sampled, signal);
  }

  /**
   * Every table with its views and attributes, for the editor's autocomplete. Past
   * MAX_SAMPLED_TABLES, the tables statements have already used come first, so an account with
   * hundreds of tables still completes the views of the ones the user works with.
   */
  async full(signal: AbortSignal): Promise<CatalogData> {
    const all = await this.tableNames(signal);
    const used = [...this.usedByStatements].reverse().filter((name) => all.includes(name));
    const names =
      all.length <= MAX_SAMPLED_TABLES
        ? all
        : [...new Set([...used, ...all])].slice(0, MAX_SAMPLED_TABLES).sort();
    const infos = await mapLimit(names, CONCURRENCY, (name) => this.describe(name, signal));
    const data = await this.build(
      infos,
      infos.filter((i): i is TableInfo => i !== undefined),
      signal,
    );
    // The rest are still tables the user can name: listed by name, without a DescribeTable each.
    const described = new Set(names);
    const moreTables = all.filter((name) => !described.has(name));
    return moreTables.length > 0 ? { ...data, moreTables } : data;
  }
}

function matchesView(view: EntityView, item: Item): boolean {
  return view.conditions.every((c) => {
    const own = Object.prototype.hasOwnProperty.call(item, c.attribute) ? item[c.attribute] : undefined;
    const value = own && 'S' in own ? own.S : undefined;
    const wanted = c.values[0] && 'S' in c.values[0] ? c.values[0].S : undefined;
    if (value === undefined || wanted === undefined) return false;
    return c.op === 'begins_with' ? value.startsWith(wanted) : c.op === '=' ? value === wanted : true;
  });
}
