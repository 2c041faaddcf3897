import type { Item } from '../../shared/ipc';
import type { CollapseChange } from '../../shared/dynamo/collapse-state';
import type { CollectionHeader, ViewSpec } from '../../shared/ipc/query';
import type { ReadScope } from './read-match';

/**
 * The result-set store's types: what the worker keeps (rows fetched by Query/Scan or opened
 * from an export), the windows it hands out and what a write DynoTable made changes in it.
 * Main's rooms reach the store through CoreContext.resultSets; the renderer sees these shapes
 * through the contract (resultsets:*).
 */
export interface ResultSetWindow {
  total: number;
  offset: number;
  rows: Item[];
  columns: string[];
  /** Collection views only: the header rows among the window's positions, and each row's item position. */
  headers?: CollectionHeader[];
  positions?: number[];
  /** Rows the user's own writes changed or created, by their place in `rows`. */
  marks?: WindowMark[];
  /** The key attributes the set's JSON views and exports put first (ResultSetMeta.viewKeys). */
  viewKeys?: string[];
}

export interface WindowMark {
  at: number;
  mark: 'changed' | 'new';
}

/** One item DynoTable wrote: what DynamoDB now holds under that key, or null when deleted. */
export interface WrittenItem {
  key: Item;
  item: Item | null;
  /**
   * The stored item a failed condition returned (someone else's change): shown where the row
   * is, unmarked, and never added.
   */
  isRefresh?: boolean;
}

/** One change of an incremental export: the item with this key now holds `item`, or is gone. */
export interface ExportChange {
  key: Item;
  item?: Item;
}

export interface WriteBatch {
  connectionId: string;
  table: string;
  writes: WrittenItem[];
}

/** A result set that a write changed: its rows now, and its current view's sizes. */
export interface ResultSetChange {
  resultSetId: string;
  total: number;
  /** A write may have changed which rows its read returns, in a way we could not evaluate. */
  isStale: boolean;
  /** Each view of the set, by id, with its sizes now. */
  views: ViewSummary[];
  /**
   * Rows rewritten in place, as the read shows them (its projection) with their mark now: a
   * window holding one shows it at once, before it reads its rows again.
   */
  replaced?: ReplacedRow[];
}

/** A row a write rewrote in place; no mark when it was refreshed with someone else's change. */
export interface ReplacedRow {
  item: Item;
  mark?: 'changed' | 'new';
}

/** A collection view's sizes; `at` is where a changed collection's header now is. */
export interface CollectionSizes {
  total: number;
  collections: number;
  items: number;
  /** Rows per entity type over every fetched row, as resultsets:view reports them. */
  entities: Record<string, number>;
  at?: number;
  /** The result set's change counter when these sizes were true (see ViewSummary.seq). */
  seq?: number;
}

export type { CollapseChange };

export interface ViewSummary {
  viewId: string;
  total: number;
  entities?: Record<string, number>;
  collections?: number;
  items?: number;
  /** The named view's revision that these sizes describe (see resultsets:view). */
  revision?: number;
  /** The result set's change counter when these sizes were true: a higher one is newer. */
  seq: number;
}

export interface WireAppend {
  total: number;
  items: number;
  /** The response's fields other than Items, parsed (Count, ScannedCount, LastEvaluatedKey, ConsumedCapacity). */
  rest: Record<string, unknown>;
}

export interface ResultSetMeta {
  connectionId: string;
  table: string;
  keyAttributes: string[];
  /**
   * The key attributes JSON views and exports of the rows put first, in key-model order
   * (`viewKeyNames`: the table's key, then the read index's); absent: `keyAttributes`. The grid's
   * columns keep `keyAttributes`, which puts a read index's key first.
   */
  viewKeys?: string[];
  /** How the rows were read; without it, writes DynoTable makes are not applied to the set. */
  scope?: ReadScope;
}

/** Everything fetched lives here, off main's event loop, keyed by id. */
export interface ResultSetStore {
  create(meta: ResultSetMeta): Promise<string>;
  append(resultSetId: string, items: Item[]): Promise<number>;
  /** `itemsOnly`: in a collection view, offsets count items as if every collection were expanded. */
  window(
    resultSetId: string,
    offset: number,
    limit: number,
    viewId?: string,
    itemsOnly?: boolean,
  ): Promise<ResultSetWindow>;
  /**
   * Appends the Items of a raw Query/Scan response body (its chunks as they came, copied once
   * into a buffer that moves to the worker), encoded without building objects; returns the rows
   * after it and the other fields.
   */
  appendWire(resultSetId: string, body: readonly Uint8Array[]): Promise<WireAppend>;
  /** Appends whole `{"Item":…}` lines of a DynamoDB-JSON export data file (body transferred); returns the rows after it. */
  appendExportLines(resultSetId: string, body: Uint8Array): Promise<number>;
  /** Applies an incremental export's changes to the rows of its base; returns the rows after it. */
  applyExportChanges(resultSetId: string, changes: ExportChange[]): Promise<number>;
  /**
   * Sorts/filters the fetched rows in the worker; window(…, viewId) then reads in that order.
   * `name` keeps one view per name (else one unnamed view), `revision` orders its builds.
   */
  view(resultSetId: string, spec: ViewSpec, name?: string, revision?: number): Promise<ViewSummary>;
  /** Collapses/expands item collections of a collection view, or (no change) reports its sizes. */
  collections(resultSetId: string, viewId: string, change?: CollapseChange): Promise<CollectionSizes>;
  /** Applies writes DynoTable made to every result set that could hold the items. */
  applyWrites(batch: WriteBatch): Promise<ResultSetChange[]>;
  drop(resultSetId: string): Promise<boolean>;
  /**
   * Starts the worker now if it is not running, so the first read does not also wait for a thread
   * to start and load its code (docs/PERFORMANCE.md). Keeps no process alive by itself.
   */
  warm(): void;
  close(): Promise<void>;
}
