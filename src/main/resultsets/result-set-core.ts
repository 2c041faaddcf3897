import { randomUUID } from 'node:crypto';
import type { Item } from '../../shared/dynamo/attribute-value';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { CollapseChange, CollectionSizes, ResultSetWindow, ViewSummary } from '../core/context';
import { Arena } from './arena';
import { ByteWriter, decodeItem, encodeItem, NameDictionary } from './item-codec';
import type { ViewSpec } from '../../shared/ipc/query';
import { buildRowView } from '../dynamo/query/row-view';
import { CollapseState } from '../../shared/dynamo/collapse-state';
import { CollectionView } from '../dynamo/query/collection-view';
import { encodeWirePage, type PageMeta } from '../dynamo/query/wire-encoder';

export interface ResultSetMeta {
  connectionId: string;
  table: string;
  keyAttributes: string[];
}

/** A window never decodes more than this many rows, whatever the caller asks for. */
export const MAX_WINDOW = 5000;

class ResultSet {
  readonly names = new NameDictionary();
  readonly arena = new Arena();
  /** How many items carry each top-level attribute, indexed by name id. */
  readonly counts: number[] = [];
  /** Sorted/filtered orders of the rows (row indexes) or collection views, by view id. */
  readonly views = new Map<string, Uint32Array | CollectionView>();
  /** Which item collections are collapsed: outlives views, so sorting off and on keeps it. */
  readonly collapse = new CollapseState();

  constructor(readonly meta: ResultSetMeta) {}

  item(index: number): Item {
    const { buffer, start } = this.arena.locate(index);
    return decodeItem(buffer, start, this.names);
  }

  /** Collection views take in rows appended after them (sorted views are rebuilt instead). */
  extendViews(from: number): void {
    for (const view of this.views.values()) {
      if (!(view instanceof CollectionView)) continue;
      for (let i = from; i < this.arena.count; i++) view.add(i, this.item(i));
    }
  }

  columns(): string[] {
    const keys = this.meta.keyAttributes;
    const others: number[] = [];
    this.counts.forEach((count, id) => {
      if (count > 0 && !keys.includes(this.names.name(id))) others.push(id);
    });
    // Most frequent first; ties keep the order in which attributes first appeared.
    others.sort((a, b) => (this.counts[b] ?? 0) - (this.counts[a] ?? 0) || a - b);
    return [...keys, ...others.map((id) => this.names.name(id))];
  }
}

/**
 * The result-set store's logic, free of threads and messages so it can be tested directly.
 * The worker (worker.ts) owns one instance; main talks to it through store.ts.
 */
export class ResultSetCore {
  private readonly sets = new Map<string, ResultSet>();
  private readonly writer = new ByteWriter();

  create(meta: ResultSetMeta): string {
    const id = randomUUID();
    this.sets.set(id, new ResultSet({ ...meta, keyAttributes: [...new Set(meta.keyAttributes)] }));
    return id;
  }

  /** Adds items at the end; returns the number of rows in the set afterwards. */
  append(id: string, items: Item[]): number {
    const set = this.get(id);
    const from = set.arena.count;
    for (const item of items) {
      this.writer.reset();
      for (const name of Object.keys(item)) {
        const nameId = set.names.id(name);
        set.counts[nameId] = (set.counts[nameId] ?? 0) + 1;
      }
      encodeItem(item, set.names, this.writer);
      set.arena.push(this.writer.buffer, this.writer.length);
    }
    set.extendViews(from);
    return set.arena.count;
  }

  /**
   * Adds the Items of a raw Query/Scan response body, encoded straight from its bytes (see
   * wire-encoder.ts); returns the rows after it and the response's other fields.
   */
  appendWire(id: string, body: Uint8Array): PageMeta & { total: number } {
    const set = this.get(id);
    const from = set.arena.count;
    const meta = encodeWirePage(
      Buffer.from(body.buffer, body.byteOffset, body.byteLength),
      { writer: this.writer, names: set.names },
      (names) => {
        for (const nameId of names) set.counts[nameId] = (set.counts[nameId] ?? 0) + 1;
        set.arena.push(this.writer.buffer, this.writer.length);
      },
    );
    set.extendViews(from);
    return { ...meta, total: set.arena.count };
  }

  /**
   * Rows [offset, offset + limit), the total and the column order. In a collection view the
   * positions are headers and items (`itemsOnly`: items only, as if all were expanded).
   */
  window(id: string, offset: number, limit: number, viewId?: string, itemsOnly = false): ResultSetWindow {
    const set = this.get(id);
    const view = viewId === undefined ? undefined : findView(set, viewId);
    if (view instanceof CollectionView) {
      const size = Math.min(Math.max(0, limit), MAX_WINDOW);
      const window = itemsOnly ? view.items(offset, size) : view.window(offset, size);
      return { ...window, columns: set.columns() };
    }
    const total = view ? view.length : set.arena.count;
    const start = Math.max(0, Math.min(Math.floor(offset), total));
    const end = Math.min(total, start + Math.max(0, Math.min(Math.floor(limit), MAX_WINDOW)));
    const rows: Item[] = [];
    for (let i = start; i < end; i++) {
      rows.push(set.item(view ? (view[i] ?? 0) : i));
    }
    return { total, offset: start, rows, columns: set.columns() };
  }

  /**
   * Sorts/filters the rows fetched so far into a new view (replacing older views of the set:
   * the grid shows one order at a time). Rows appended later are not in it until it is rebuilt.
   */
  view(id: string, spec: ViewSpec): ViewSummary {
    const set = this.get(id);
    set.views.clear();
    const viewId = randomUUID();
    const keys = spec.keys;
    if (spec.collections && keys) {
      const view = new CollectionView({ ...spec, keys }, set.collapse, (i) => set.item(i));
      for (let i = 0; i < set.arena.count; i++) view.add(i, set.item(i));
      set.views.set(viewId, view);
      const { total, collections, items, entities } = view.sizes();
      return { viewId, total, entities, collections, items };
    }
    const view = buildRowView(set.arena.count, (i) => set.item(i), spec);
    set.views.set(viewId, view.rows);
    return { viewId, total: view.rows.length, entities: view.entities };
  }

  /** Collapses or expands item collections of a collection view; without a change, its sizes. */
  collections(id: string, viewId: string, change?: CollapseChange): CollectionSizes {
    const view = findView(this.get(id), viewId);
    if (!(view instanceof CollectionView)) {
      throw new AppFailure(
        ErrorCodes.invalidInput,
        'This view does not show item collections; turn on Item collections first.',
        false,
        { viewId },
      );
    }
    if (!change) return view.sizes();
    const target = change.all ? 'all' : { partitionKey: change.partitionKey };
    return view.setCollapsed(target, change.isCollapsed);
  }

  drop(id: string): boolean {
    return this.sets.delete(id);
  }

  has(id: string): boolean {
    return this.sets.has(id);
  }

  stats(): { resultSets: number; items: number; reservedBytes: number } {
    let items = 0;
    let reservedBytes = 0;
    for (const set of this.sets.values()) {
      items += set.arena.count;
      reservedBytes += set.arena.reservedBytes;
    }
    return { resultSets: this.sets.size, items, reservedBytes };
  }

  private get(id: string): ResultSet {
    const set = this.sets.get(id);
    if (!set) {
      throw new AppFailure(
        ErrorCodes.notFound,
        'This result set no longer exists: it was closed, or its worker restarted. Run the query again.',
        false,
        { resultSetId: id },
      );
    }
    return set;
  }
}

function findView(set: ResultSet, viewId: string): Uint32Array | CollectionView {
  const view = set.views.get(viewId);
  if (!view) {
    throw new AppFailure(
      ErrorCodes.notFound,
      'This sorted or filtered view is gone; sort or filter again.',
      false,
      { viewId },
    );
  }
  return view;
}
