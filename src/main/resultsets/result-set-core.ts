import { randomUUID } from 'node:crypto';
import type { Item } from '../../shared/dynamo/attribute-value';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type {
  CollapseChange,
  CollectionSizes,
  ExportChange,
  ResultSetChange,
  ResultSetMeta,
  ResultSetWindow,
  ViewSummary,
  ReplacedRow,
  WindowMark,
  WriteBatch,
} from './types';
import { applyToSet } from './apply-writes';
import { appendExportLines, applyExportChanges } from './export-rows';

import { Arena, RawBlockBudget } from './arena';
import { ByteWriter, decodeItem, encodeItem, NameDictionary } from './item-codec';
import type { ViewSpec } from '../../shared/ipc/query';
import { buildRowView } from './row-view';
import { CollapseState } from '../../shared/dynamo/collapse-state';
import { CollectionView } from './collection-view';
import { encodeWirePage, type PageMeta } from './wire-encoder';
import { itemKeyText } from './item-key';
import { windowSpan } from '../../shared/ipc/window';

export type { ResultSetMeta };

/** A window never decodes more than this many rows, whatever the caller asks for. */
export const MAX_WINDOW = 5000;

export type RowMark = 'changed' | 'new';

/** A row view's spec and the entity counts it reports, kept up to date as rows are written. */
export interface RowViewState {
  spec: ViewSpec;
  entities?: Record<string, number>;
}

export class ResultSet {
  readonly names = new NameDictionary();
  readonly arena: Arena;
  /** How many items carry each top-level attribute, indexed by name id. */
  readonly counts: number[] = [];
  /** Sorted/filtered orders of the rows (row indexes) or collection views, by view id. */
  readonly views = new Map<string, Uint32Array | CollectionView>();
  /** What each view was built from, so a written row can find its place in it. */
  readonly viewSpecs = new Map<string, RowViewState>();
  /** The caller's revision of each named view: a build that left before the held one is not applied. */
  readonly revisions = new Map<string, number>();
  /** Views made without a name: each new one replaces them (one unnamed view at a time). */
  readonly unnamed = new Set<string>();
  /**
   * Bumped by every change to the rows or a view's layout; sizes carry it, so a caller that
   * receives answers out of order keeps the newest.
   */
  seq = 0;
  /** Rows (by index) that a write deleted; their records stay, unreachable. */
  readonly removed = new Set<number>();
  /** Rows the user's own writes changed or created since the read. */
  readonly marks = new Map<number, RowMark>();
  /** A write may have changed which rows the read would return, and we could not tell how. */
  isStale = false;
  /** The live rows in fetched order, once some were removed (rebuilt after rows are appended). */
  private liveRows?: Uint32Array;
  private keyIndex?: Map<string, number>;
  private indexed = 0;
  /** Which item collections are collapsed: outlives views, so sorting off and on keeps it. */
  readonly collapse = new CollapseState();

  constructor(
    readonly meta: ResultSetMeta,
    budget?: RawBlockBudget,
  ) {
    this.arena = new Arena(budget);
  }

  item(index: number): Item {
    const { buffer, start } = this.arena.locate(index);
    return decodeItem(buffer, start, this.names);
  }

  get size(): number {
    return this.arena.count - this.removed.size;
  }

  /** Row index at a position of the fetched order. */
  rowAt(position: number): number {
    if (this.removed.size === 0) return position;
    if (!this.liveRows || this.liveRows.length !== this.size) {
      const live = new Uint32Array(this.size);
      let at = 0;
      for (let i = 0; i < this.arena.count; i++) if (!this.removed.has(i)) live[at++] = i;
      this.liveRows = live;
    }
    return this.liveRows[position] ?? 0;
  }

  /** The row holding the item with this table key, if the set has it. */
  find(keyText: string, tableKeys: string[]): number | undefined {
    const index = (this.keyIndex ??= new Map<string, number>());
    for (; this.indexed < this.arena.count; this.indexed++) {
      if (!this.removed.has(this.indexed))
        index.set(itemKeyText(this.item(this.indexed), tableKeys), this.indexed);
    }
    return index.get(keyText);
  }

  forgetKey(keyText: string): void {
    this.keyIndex?.delete(keyText);
  }

  invalidateLiveRows(): void {
    this.liveRows = undefined;
  }

  /** Collection views take in rows appended after them (sorted views are rebuilt instead). */
  extendViews(from: number): void {
    this.invalidateLiveRows();
    for (const view of this.views.values()) {
      if (!(view instanceof CollectionView)) continue;
      for (let i = from; i < this.arena.count; i++) view.add(i, this.item(i));
    }
  }

  viewKeys(): string[] {
    return this.meta.viewKeys ?? this.meta.keyAttributes;
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
  /** Which sealed blocks of all sets stay raw, and when the oldest get compressed. */
  private readonly rawBlocks = new RawBlockBudget();

  create(meta: ResultSetMeta): string {
    const id = randomUUID();
    this.sets.set(
      id,
      new ResultSet({ ...meta, keyAttributes: [...new Set(meta.keyAttributes)] }, this.rawBlocks),
    );
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
    set.seq += 1;
    return set.size;
  }

  /**
   * Adds the Items of a raw Query/Scan response body, encoded straight from its bytes (see
   * wire-encoder.ts); returns the rows after it and the response's other fields.
   */
  appendWire(id: string, body: Uint8Array): PageMeta & { total: number } {
    const set = this.get(id);
    const from = set.arena.count;
    const counts = set.counts.slice();
    let meta: PageMeta;
    try {
      meta = encodeWirePage(
        Buffer.from(body.buffer, body.byteOffset, body.byteLength),
        { arena: set.arena, names: set.names },
        (names) => {
          for (const nameId of names) set.counts[nameId] = (set.counts[nameId] ?? 0) + 1;
        },
      );
    } catch (error) {
      // The page's items are the set's only once the whole body read as DynamoDB's answer: a body
      // broken after some items (or inside one) leaves none, so the read's error can say nothing
      // of it was used, and "load more" from the last stored page's cursor adds each item once.
      set.arena.dropFrom(from);
      set.counts.splice(0, set.counts.length, ...counts);
      throw error;
    }
    set.extendViews(from);
    set.seq += 1;
    return { ...meta, total: set.size };
  }

  appendExportLines(id: string, body: Uint8Array): number {
    return appendExportLines(this.get(id), body);
  }

  applyExportChanges(id: string, changes: ExportChange[]): number {
    return applyExportChanges(this.get(id), this.writer, changes);
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
      const { indexes, ...window } = itemsOnly ? view.items(offset, size) : view.window(offset, size);
      return { ...window, ...marksOf(set, indexes), columns: set.columns(), viewKeys: set.viewKeys() };
    }
    const total = view ? view.length : set.size;
    const { start, end } = windowSpan(total, offset, limit, MAX_WINDOW);
    const rows: Item[] = [];
    const indexes: number[] = [];
    for (let i = start; i < end; i++) {
      const index = view ? (view[i] ?? 0) : set.rowAt(i);
      indexes.push(index);
      rows.push(set.item(index));
    }
    return {
      total,
      offset: start,
      rows,
      ...marksOf(set, indexes),
      columns: set.columns(),
      viewKeys: set.viewKeys(),
    };
  }

  /**
   * Sorts/filters the rows fetched so far into a view. A named view (`name`, the caller's own id)
   * replaces only the view of that name, and not at all when `revision` is older than the one it
   * holds (calls can arrive out of order); an unnamed view gets a new id and replaces the last
   * unnamed one. Rows appended later join collection views, not sorted ones, until rebuilt.
   */
  view(id: string, spec: ViewSpec, name?: string, revision?: number): ViewSummary {
    const set = this.get(id);
    if (name !== undefined) {
      const held = set.revisions.get(name);
      if (held !== undefined && revision !== undefined && held > revision && set.views.has(name))
        return { ...summaryOfView(set, name), revision: held };
    }
    for (const old of name === undefined ? set.unnamed : [name]) {
      set.views.delete(old);
      set.viewSpecs.delete(old);
      set.revisions.delete(old);
    }
    set.unnamed.clear();
    const viewId = name ?? randomUUID();
    if (name === undefined) set.unnamed.add(viewId);
    else if (revision !== undefined) set.revisions.set(name, revision);
    set.seq += 1;
    const keys = spec.keys;
    if (spec.collections && keys) {
      const view = new CollectionView({ ...spec, keys }, set.collapse, (i) => set.item(i));
      for (let i = 0; i < set.arena.count; i++) if (!set.removed.has(i)) view.add(i, set.item(i));
      set.views.set(viewId, view);
    } else {
      // Built over the live rows in fetched order, then mapped back to row indexes.
      const view = buildRowView(set.size, (i) => set.item(set.rowAt(i)), spec);
      const rows = set.removed.size === 0 ? view.rows : view.rows.map((i) => set.rowAt(i));
      set.views.set(viewId, rows);
      set.viewSpecs.set(viewId, { spec, entities: view.entities });
    }
    return { ...summaryOfView(set, viewId), ...(revision === undefined ? {} : { revision }) };
  }

  /**
   * Applies writes DynoTable made to every result set of that table that could hold the items
   * (see apply-writes.ts); returns the sets that changed, each with its current view's sizes.
   */
  applyWrites(batch: WriteBatch): ResultSetChange[] {
    const changes: ResultSetChange[] = [];
    for (const [resultSetId, set] of this.sets) {
      if (set.meta.connectionId !== batch.connectionId || set.meta.table !== batch.table) continue;
      if (!set.meta.scope) continue;
      const wasStale = set.isStale;
      const replaced: ReplacedRow[] = [];
      const touched = applyToSet(set, set.meta.scope, batch.writes, this.writer, replaced);
      if (!touched && set.isStale === wasStale) continue;
      set.seq += 1;
      changes.push({
        resultSetId,
        total: set.size,
        isStale: set.isStale,
        views: [...set.views.keys()].map((viewId) => summaryOfView(set, viewId)),
        ...(replaced.length > 0 ? { replaced } : {}),
      });
    }
    return changes;
  }

  /**
   * Collapses or expands item collections of a collection view; without a change, its sizes.
   * The change belongs to the result set, so it holds even when it arrives before the
   * collection view it was meant for (a later view takes it from the set).
   */
  collections(id: string, viewId: string, change?: CollapseChange): CollectionSizes {
    const set = this.get(id);
    const view = set.views.get(viewId);
    if (change && !(view instanceof CollectionView)) set.collapse.apply(change);
    if (!(view instanceof CollectionView)) {
      throw new AppFailure(
        ErrorCodes.invalidInput,
        'This view does not show item collections; turn on Item collections first.',
        false,
        { viewId },
      );
    }
    if (!change) return { ...view.sizes(), seq: set.seq };
    set.seq += 1;
    const target = change.all ? 'all' : { partitionKey: change.partitionKey };
    return { ...view.setCollapsed(target, change.isCollapsed), seq: set.seq };
  }

  drop(id: string): boolean {
    this.sets.get(id)?.arena.release();
    return this.sets.delete(id);
  }

  has(id: string): boolean {
    return this.sets.has(id);
  }

  stats(): { resultSets: number; items: number; reservedBytes: number } {
    let items = 0;
    let reservedBytes = 0;
    for (const set of this.sets.values()) {
      items += set.size;
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

/** A view's sizes now, stamped with the set's change counter. */
function summaryOfView(set: ResultSet, viewId: string): ViewSummary {
  const view = findView(set, viewId);
  if (view instanceof CollectionView) {
    const { total, collections, items, entities } = view.sizes();
    return { viewId, total, entities, collections, items, seq: set.seq };
  }
  return { viewId, total: view.length, entities: set.viewSpecs.get(viewId)?.entities, seq: set.seq };
}

/** The marks of a window's rows, by their place in `rows`; absent when none is marked. */
function marksOf(set: ResultSet, indexes: number[]): { marks?: WindowMark[] } {
  if (set.marks.size === 0) return {};
  const marks: WindowMark[] = [];
  indexes.forEach((index, at) => {
    const mark = set.marks.get(index);
    if (mark) marks.push({ at, mark });
  });
  return marks.length > 0 ? { marks } : {};
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
