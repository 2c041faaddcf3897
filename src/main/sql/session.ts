import os from 'node:os';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Progress } from '../../shared/ipc/operations';
import type { SqlCatalogOutput, SqlResultSummary } from '../../shared/ipc/sql';
import { SQL_DEFAULT_MAX_ITEMS } from '../../shared/ipc/sql';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { EntityView, ExportTable, TableInfo } from '../../shared/sql/catalog';
import type { SqlPlan } from '../../shared/sql/plan';
import { ConnectionCatalog } from './catalog/load-catalog';
import { exportTableOf, isExportRef } from './catalog/export-tables';
import type { BoundQuery } from './binder/bound';
import { executeQuery } from './executor/execute';
import type { ColumnarTable } from './executor/table';
import { FetchCache } from './fetch/cache';
import { type FetchCounters, runFetch } from './fetch/fetcher';
import { ReadBudget, type ReadBudgetLimits } from './fetch/read-budget';
import { queryRefs } from './parser/table-refs';
import { describePlan, type FetchSpec } from './planner/plan';
import { type PreparedStatement, PreparedStatements } from './prepared-statements';
import { columnTypes, ResultStore } from './results/result-store';
import { defaultLimits, holdToScanLimit, type ScanLimits, wholeScans } from './scan-limit';
import { closestName } from './catalog/closest-name';
import { missingAttributeNote, missingAttributes } from './executor/missing-attributes';

/** An opened export a statement may name; `read` loads it from its files (no read capacity). */
export interface SessionExport extends ExportTable {
  read(
    signal: AbortSignal,
    onItems: (items: number) => void,
  ): Promise<{ table: ColumnarTable; items: number }>;
}

export interface SessionConnection {
  id: string;
  client(): Promise<DynamoDBClient>;
  exports?: SessionExport[];
}

const exportTables = (connection: SessionConnection): ExportTable[] =>
  (connection.exports ?? []).map(exportTableOf);

export interface RunOptions {
  refresh?: boolean;
  maxItems?: number;
  /** A bound on all of the statement's reads together (maxItems bounds each read alone). */
  budget?: ReadBudgetLimits;
  signal: AbortSignal;
  /**
   * The scan limit (issue 17) the statement's whole-table Scans are held to before anything is
   * read; absent: the machine's default. 'local': the caller chose the local scan past it.
   */
  scanLimit?: ScanLimits | 'local';
  /** Internal (tests): false turns pushdown off (see PlanOptions.pushdown). */
  pushdown?: boolean;
  onProgress?: (progress: Progress) => void;
}

/**
 * Everything SQL does for the connections of one process: catalog, planning, fetching into the
 * cache, executing, and holding results for windows. It runs inside the SQL worker thread in
 * the app (next to the fetched data, off main's event loop) and in-process in the CLI.
 */
export class SqlSession {
  readonly cache: FetchCache;
  readonly results = new ResultStore();
  /** Statements run before, parsed, bound and planned, per connection (prepared-statements.ts). */
  private readonly statements = new PreparedStatements();
  private readonly catalogs = new Map<string, ConnectionCatalog>();

  constructor(options: { cacheItems?: number } = {}) {
    this.cache = new FetchCache(options.cacheItems);
  }

  private catalogOf(connection: SessionConnection): ConnectionCatalog {
    let catalog = this.catalogs.get(connection.id);
    if (!catalog) {
      catalog = new ConnectionCatalog(() => connection.client());
      this.catalogs.set(connection.id, catalog);
    }
    return catalog;
  }

  /** See SqlService.tableChanged; answers how many cached fetches of the table were dropped. */
  tableChanged(connectionId: string, table: string): number {
    this.catalogs.get(connectionId)?.tableChanged(table);
    return this.cache.clear(connectionId, table);
  }

  async catalog(
    connection: SessionConnection,
    userViews: EntityView[],
    signal: AbortSignal,
    refresh = false,
  ): Promise<SqlCatalogOutput> {
    const catalog = this.catalogOf(connection);
    if (refresh) catalog.refresh();
    const data = await catalog.full(signal);
    return {
      tables: data.tables,
      ...(data.moreTables ? { moreTables: data.moreTables } : {}),
      views: mergeViews(data.views, userViews),
      attributes: data.attributes,
      exports: exportTables(connection),
      loadedAt: new Date(data.loadedAt).toISOString(),
      sampleCapacity: data.sampleCapacity,
    };
  }

  private async prepare(
    connection: SessionConnection,
    sql: string,
    userViews: EntityView[],
    signal: AbortSignal,
  ): Promise<{ prepared: PreparedStatement; bound: BoundQuery; tables: TableInfo[] }> {
    // Parse first (or find the text parsed before): a typo is reported at once, without waiting
    // for (or paying for) the catalog.
    const prepared = this.statements.get(connection.id, sql);
    const { statement } = prepared;
    // export."…" names files, not a table: the catalog neither describes nor samples it.
    const refs = queryRefs(statement.query).filter((ref) => !isExportRef(ref));
    const data = await this.catalogOf(connection).forStatement(refs, userViews, signal);
    const catalog = {
      tables: data.tables,
      views: mergeViews(data.views, userViews),
      exports: exportTables(connection),
    };
    return { prepared, bound: prepared.bound(catalog), tables: data.tables };
  }

  async plan(
    connection: SessionConnection,
    sql: string,
    userViews: EntityView[],
    signal: AbortSignal,
    maxItems = SQL_DEFAULT_MAX_ITEMS,
    /** Past it the plan is refused as run would refuse it, before anyone is asked to approve it. */
    scanLimit?: ScanLimits,
  ): Promise<SqlPlan> {
    const { prepared, bound, tables } = await this.prepare(connection, sql, userViews, signal);
    const { specs } = prepared.fetchSpecs(bound, { maxItems });
    const plan = describePlan(specs, { cached: (spec) => this.cache.find(connection.id, spec) });
    if (scanLimit) holdToScanLimit(wholeScans(plan, tables), scanLimit);
    return plan;
  }

  async run(
    connection: SessionConnection,
    sql: string,
    userViews: EntityView[],
    options: RunOptions,
  ): Promise<SqlResultSummary> {
    const started = Date.now();
    const { signal } = options;
    const { prepared, bound, tables: infos } = await this.prepare(connection, sql, userViews, signal);
    const cached = (spec: FetchSpec) => (options.refresh ? undefined : this.cache.find(connection.id, spec));
    const { specs, forBinding } = prepared.fetchSpecs(bound, {
      maxItems: options.maxItems ?? SQL_DEFAULT_MAX_ITEMS,
      pushdown: options.pushdown,
    });
    const plan = describePlan(specs, { cached });
    if (options.scanLimit !== 'local')
      holdToScanLimit(wholeScans(plan, infos), options.scanLimit ?? defaultLimits(os.totalmem()));
    const expected = plan.fetches.filter((f) => !f.cached).reduce((sum, f) => sum + f.estimate.itemsRead, 0);
    const warnings: string[] = [];
    const tables = new Map<FetchSpec, ColumnarTable>();
    const perFetch = new Map<string, FetchCounters>();
    const report = (message: string): void => {
      const all = [...perFetch.values()];
      const scanned = all.reduce((s, c) => s + c.scanned, 0);
      options.onProgress?.({
        items: all.reduce((s, c) => s + c.items, 0),
        pages: all.reduce((s, c) => s + c.pages, 0),
        consumedCapacity: all.reduce((s, c) => s + c.consumedCapacity, 0),
        scanned,
        fraction: expected > 0 ? Math.min(1, scanned / expected) : undefined,
        message,
      });
    };
    const stats: SqlResultSummary['fetches'] = [];
    const client = specs.some((s) => !cached(s) && !s.table.export) ? await connection.client() : undefined;
    const budget = options.budget ? new ReadBudget(options.budget) : undefined;
    await Promise.all(
      specs.map(async (spec) => {
        const hit = cached(spec);
        if (hit) {
          this.cache.touch(hit);
          tables.set(spec, hit.table);
          stats.push({
            id: spec.id,
            table: spec.table.name,
            operation: spec.table.export ? 'ReadExport' : spec.access.operation,
            items: hit.items,
            pages: 0,
            consumedCapacity: 0,
            cached: true,
            fetchedAt: new Date(hit.fetchedAt).toISOString(),
            truncated: false,
          });
          return;
        }
        const label = `${spec.access.operation} ${spec.table.name}`;
        const outcome = spec.table.export
          ? await readExport(connection, spec, signal, (counters) => {
              perFetch.set(spec.id, counters);
              report(`Reading the export's files: ${spec.table.name}`);
            })
          : await runFetch(client!, spec, {
              signal,
              budget,
              onPage: (counters) => {
                perFetch.set(spec.id, counters);
                report(`Reading: ${label}`);
              },
            });
        tables.set(spec, outcome.table);
        if (outcome.truncated) {
          const why = budget?.isSpent() ? 'the read budget of this statement' : 'the read limit';
          warnings.push(
            `Stopped reading ${spec.table.name} after ${outcome.items.toLocaleString('en-US')} items (${why}): the result covers only part of the table. Narrow the query or raise the limit.`,
          );
        } else this.cache.put(connection.id, spec, outcome.table, outcome.items);
        stats.push({
          id: spec.id,
          table: spec.table.name,
          operation: spec.table.export ? 'ReadExport' : spec.access.operation,
          items: outcome.items,
          pages: outcome.pages,
          consumedCapacity: outcome.consumedCapacity,
          cached: false,
          fetchedAt: new Date().toISOString(),
          truncated: outcome.truncated,
        });
      }),
    );
    // A name no item read holds is most often a typo: said, with the nearest real name. The
    // catalog's sample supplies names only when the read was projected to the statement's own.
    for (const missing of missingAttributes(forBinding.keys(), (b) => tables.get(forBinding.get(b)!))) {
      const sampled =
        closestName(missing.attribute, missing.read) === undefined
          ? await this.catalogOf(connection)
              .sampledNames(missing.table, signal)
              .catch(() => [])
          : [];
      warnings.push(missingAttributeNote(missing, [...missing.read, ...sampled]));
    }
    report('Running the query');
    const result = executeQuery(bound, {
      text: sql,
      fn: { nowMs: started },
      tableFor: (binding) => tables.get(forBinding.get(binding)!)!,
      warn: (message) => warnings.push(message),
      signal,
      rewrites: prepared.rewrites(bound),
    });
    // Decoded string columns stay only for the columns this statement read (see ColumnarTable).
    for (const table of tables.values()) table.coolDown();
    const resultId = this.results.add(connection.id, result);
    stats.sort((a, b) => a.id.localeCompare(b.id));
    return {
      resultId,
      columns: result.columns,
      columnTypes: columnTypes(result),
      total: result.length,
      grouped: isGrouped(bound),
      warnings,
      elapsedMs: Date.now() - started,
      fetches: stats,
      ...(result.source ? { source: { table: result.source.table, keys: result.source.keys } } : {}),
    };
  }
}

/**
 * An opened export read whole from its files. It is never truncated by maxItems or the read
 * budget: those bound what a statement costs in capacity, and an export costs none.
 */
async function readExport(
  connection: SessionConnection,
  spec: FetchSpec,
  signal: AbortSignal,
  onPage: (counters: FetchCounters) => void,
): Promise<FetchCounters & { table: ColumnarTable; truncated: boolean }> {
  const arn = spec.table.export!.exportArn;
  const source = connection.exports?.find((e) => e.exportArn === arn);
  if (!source)
    throw new AppFailure(ErrorCodes.notFound, `The export ${spec.table.export!.name} is no longer open.`);
  let pages = 0;
  const { table, items } = await source.read(signal, (items) =>
    onPage({ items, pages: ++pages, consumedCapacity: 0, scanned: items }),
  );
  return { table, items, pages, consumedCapacity: 0, scanned: items, truncated: false };
}

/** The statement aggregates (GROUP BY or an aggregate call): its results suggest a chart. */
export function isGrouped(query: BoundQuery): boolean {
  return query.kind === 'select' ? query.aggregate !== undefined : isGrouped(query.left);
}

/** User-defined views win over detected ones of the same name on the same table. */
export function mergeViews(detected: EntityView[], user: EntityView[]): EntityView[] {
  const userKeys = new Set(user.map((v) => `${v.table}\u0000${v.name.toLowerCase()}`));
  return [...user, ...detected.filter((v) => !userKeys.has(`${v.table}\u0000${v.name.toLowerCase()}`))];
}
