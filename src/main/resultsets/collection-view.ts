import { addCount, changeCount, ownValue } from '../../shared/dynamo/proto-keys';
import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import { entityOf } from '../../shared/dynamo/entity';
import { compareValues } from '../../shared/dynamo/value-order';
import type { CollectionHeader, ViewSpec } from '../../shared/ipc/query';
import type { KeySchema } from '../../shared/ipc/tables';
import type { CollectionSizes } from './types';
import { type CollapseState, keyOf } from '../../shared/dynamo/collapse-state';
import { matches } from './row-view';

interface Collection {
  partitionKey: AttributeValue | undefined;
  /** Row indexes in the result set, in arrival order until a window needs them sorted. */
  rows: number[];
  /** 1: rows ascend by sort key, -1: they descend, 0: mixed (sorted when a window reaches them). */
  direction: 1 | -1 | 0;
  /** The sort key of the last row in `rows`, to tell whether the next one keeps the direction. */
  last: AttributeValue | undefined;
  entities: Record<string, number>;
  isCollapsed: boolean;
}

export interface CollectionWindow {
  total: number;
  offset: number;
  rows: Item[];
  headers: CollectionHeader[];
  positions: number[];
  /** Each row's index in the result set (for its marks). */
  indexes: number[];
}

/**
 * The rows of a result set as item collections, in the result-set worker: one header per
 * partition key, then its items unless collapsed. Held per collection, not per row beyond an
 * index, so rows streamed in later join their collection in O(1): DynamoDB returns a
 * collection's items in sort-key order (either direction), so they rarely need sorting; a
 * collection whose rows arrive mixed is sorted once, when a window first reaches it.
 *
 * Positions: a window counts display positions (headers + items of expanded collections);
 * `positions` count items as if every collection were expanded, so they survive collapsing.
 */
export class CollectionView {
  private readonly byKey = new Map<string, Collection>();
  /** Ascending by partition key; `added` waits to be merged in at the next layout. */
  private sorted: Collection[] = [];
  private added: Collection[] = [];
  private headerAt = new Float64Array(1);
  private itemsBefore = new Float64Array(1);
  private isDirty = true;
  /** Rows per entity type over every row taken in, before filters (for the entity chips). */
  private readonly entities: Record<string, number> = {};
  private readonly pk: string;
  private readonly sk: string | undefined;
  private readonly isPkDescending: boolean;
  private readonly isSkDescending: boolean;
  private readonly needle: string;
  private readonly entityFilter: Set<string> | undefined;

  constructor(
    private readonly spec: ViewSpec & { keys: KeySchema },
    private readonly collapse: CollapseState,
    private readonly rowAt: (index: number) => Item,
  ) {
    this.pk = spec.keys.partitionKey.name;
    this.sk = spec.keys.sortKey?.name;
    this.isPkDescending = spec.sort?.find((s) => s.column === this.pk)?.descending ?? false;
    this.isSkDescending = spec.sort?.find((s) => s.column === this.sk)?.descending ?? false;
    this.needle = spec.text?.trim().toLowerCase() ?? '';
    this.entityFilter = spec.entities && spec.entities.length > 0 ? new Set(spec.entities) : undefined;
  }

  /** Takes in one row, if it passes the view's filters. */
  add(index: number, item: Item): void {
    const entity = entityOf(item, this.spec.keys) ?? '';
    addCount(this.entities, entity);
    if (this.entityFilter && !this.entityFilter.has(entity)) return;
    if (this.needle && !matches(item, this.needle, this.spec.column)) return;
    const partitionKey = ownValue(item, this.pk);
    const key = keyOf(partitionKey);
    let collection = this.byKey.get(key);
    if (!collection) {
      collection = {
        partitionKey,
        rows: [],
        direction: 1,
        last: undefined,
        entities: {},
        isCollapsed: this.collapse.isCollapsed(key),
      };
      this.byKey.set(key, collection);
      this.added.push(collection);
    }
    const sortKey = this.sk === undefined ? undefined : ownValue(item, this.sk);
    if (collection.rows.length > 0 && collection.direction !== 0) {
      const order = compareValues(sortKey, collection.last);
      if (collection.rows.length === 1 && order < 0) collection.direction = -1;
      else if (order * collection.direction < 0) collection.direction = 0;
    }
    collection.rows.push(index);
    collection.last = sortKey;
    if (entity) addCount(collection.entities, entity);
    this.isDirty = true;
  }

  /** Takes out a row that was taken in as `item` (a write deleted or changed it). */
  remove(index: number, item: Item): void {
    const entity = entityOf(item, this.spec.keys) ?? '';
    changeCount(this.entities, entity, -1);
    const key = keyOf(item[this.pk]);
    const collection = this.byKey.get(key);
    const at = collection ? collection.rows.indexOf(index) : -1;
    if (!collection || at < 0) return;
    collection.rows.splice(at, 1);
    if (entity) {
      changeCount(collection.entities, entity, -1);
    }
    if (collection.rows.length === 0) {
      this.byKey.delete(key);
      this.sorted = this.sorted.filter((c) => c !== collection);
      this.added = this.added.filter((c) => c !== collection);
    } else if (this.sk !== undefined) collection.last = this.rowAt(collection.rows.at(-1) ?? 0)[this.sk];
    this.isDirty = true;
  }

  sizes(): CollectionSizes {
    this.layout();
    const count = this.sorted.length;
    return {
      total: this.headerAt[count] ?? 0,
      collections: count,
      items: this.itemsBefore[count] ?? 0,
      entities: { ...this.entities },
    };
  }

  /** Collapses or expands one collection (by partition key) or, with `all`, every one. */
  setCollapsed(
    target: { partitionKey: AttributeValue | undefined } | 'all',
    isCollapsed: boolean,
  ): CollectionSizes {
    if (target === 'all') {
      this.collapse.setAll(isCollapsed);
      for (const collection of this.byKey.values()) collection.isCollapsed = isCollapsed;
      this.isDirty = true;
      return { ...this.sizes(), at: 0 };
    }
    const key = keyOf(target.partitionKey);
    this.collapse.set(key, isCollapsed);
    const collection = this.byKey.get(key);
    if (!collection) return this.sizes();
    collection.isCollapsed = isCollapsed;
    this.isDirty = true;
    const sizes = this.sizes();
    return { ...sizes, at: this.headerAt[this.displayIndexOf(collection)] ?? 0 };
  }

  /** Display positions [offset, offset + limit): headers and the items of expanded collections. */
  window(offset: number, limit: number): CollectionWindow {
    const { total } = this.sizes();
    const start = clamp(offset, total);
    const end = Math.min(total, start + Math.max(0, Math.floor(limit)));
    const out: CollectionWindow = { total, offset: start, rows: [], headers: [], positions: [], indexes: [] };
    let at = start;
    for (let g = upperBound(this.headerAt, start) - 1; at < end && g < this.sorted.length; g++) {
      const collection = this.collectionAt(g);
      const headerAt = this.headerAt[g] ?? 0;
      const first = this.itemsBefore[g] ?? 0;
      if (at === headerAt) {
        out.headers.push(header(collection, at - start, first));
        at += 1;
      }
      if (collection.isCollapsed) continue;
      for (let j = at - headerAt - 1; j < collection.rows.length && at < end; j++, at++) {
        const index = this.rowOf(collection, j);
        out.rows.push(this.rowAt(index));
        out.indexes.push(index);
        out.positions.push(first + j);
      }
    }
    return out;
  }

  /** Item positions [offset, offset + limit), as if every collection were expanded. */
  items(offset: number, limit: number): CollectionWindow {
    const { items } = this.sizes();
    const start = clamp(offset, items);
    const end = Math.min(items, start + Math.max(0, Math.floor(limit)));
    const out: CollectionWindow = {
      total: items,
      offset: start,
      rows: [],
      headers: [],
      positions: [],
      indexes: [],
    };
    let at = start;
    for (let g = upperBound(this.itemsBefore, start) - 1; at < end && g < this.sorted.length; g++) {
      const collection = this.collectionAt(g);
      const first = this.itemsBefore[g] ?? 0;
      for (let j = at - first; j < collection.rows.length && at < end; j++, at++) {
        const index = this.rowOf(collection, j);
        out.rows.push(this.rowAt(index));
        out.indexes.push(index);
        out.positions.push(at);
      }
    }
    return out;
  }

  private collectionAt(displayIndex: number): Collection {
    const index = this.isPkDescending ? this.sorted.length - 1 - displayIndex : displayIndex;
    const collection = this.sorted[index];
    if (!collection) throw new RangeError(`No collection ${displayIndex}.`);
    return collection;
  }

  private displayIndexOf(collection: Collection): number {
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = this.sorted[mid];
      if (other && compareValues(other.partitionKey, collection.partitionKey) < 0) low = mid + 1;
      else high = mid;
    }
    return this.isPkDescending ? this.sorted.length - 1 - low : low;
  }

  /** The row at item `j` of a collection in the view's sort-key direction. */
  private rowOf(collection: Collection, j: number): number {
    if (collection.direction === 0) this.sortRows(collection);
    const isReversed = (collection.direction === -1) !== this.isSkDescending;
    return collection.rows[isReversed ? collection.rows.length - 1 - j : j] ?? 0;
  }

  private sortRows(collection: Collection): void {
    const sk = this.sk;
    if (sk === undefined) return;
    const keyed = collection.rows.map((row) => ({ row, value: this.rowAt(row)[sk] }));
    // Array.prototype.sort is stable: rows with equal sort keys keep their arrival order.
    keyed.sort((a, b) => compareValues(a.value, b.value));
    collection.rows = keyed.map((k) => k.row);
    collection.direction = 1;
    collection.last = keyed.at(-1)?.value;
  }

  /** Merges new collections into the sorted list and recomputes where each header sits. */
  private layout(): void {
    if (!this.isDirty) return;
    if (this.added.length > 0) {
      const added = this.added.sort((a, b) => compareValues(a.partitionKey, b.partitionKey));
      this.sorted = mergeSorted(this.sorted, added);
      this.added = [];
    }
    const count = this.sorted.length;
    if (this.headerAt.length !== count + 1) {
      this.headerAt = new Float64Array(count + 1);
      this.itemsBefore = new Float64Array(count + 1);
    }
    let display = 0;
    let items = 0;
    for (let g = 0; g < count; g++) {
      const collection = this.collectionAt(g);
      this.headerAt[g] = display;
      this.itemsBefore[g] = items;
      display += 1 + (collection.isCollapsed ? 0 : collection.rows.length);
      items += collection.rows.length;
    }
    this.headerAt[count] = display;
    this.itemsBefore[count] = items;
    this.isDirty = false;
  }
}

function header(collection: Collection, at: number, first: number): CollectionHeader {
  const hasEntities = Object.keys(collection.entities).length > 0;
  return {
    at,
    ...(collection.partitionKey ? { partitionKey: collection.partitionKey } : {}),
    count: collection.rows.length,
    ...(hasEntities ? { entities: { ...collection.entities } } : {}),
    isCollapsed: collection.isCollapsed,
    first,
  };
}

/**
 * Merges a few new collections (sorted) into many: each finds its place by binary search and
 * the runs between are copied, so a page of new collections costs comparisons per new one,
 * not per collection held (a linear merge compared all 100,000 on every page).
 */
function mergeSorted(sorted: Collection[], added: Collection[]): Collection[] {
  const merged: Collection[] = [];
  let from = 0;
  for (const collection of added) {
    let low = from;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = sorted[mid];
      if (other && compareValues(other.partitionKey, collection.partitionKey) <= 0) low = mid + 1;
      else high = mid;
    }
    for (let i = from; i < low; i++) merged.push(sorted[i] as Collection);
    merged.push(collection);
    from = low;
  }
  for (let i = from; i < sorted.length; i++) merged.push(sorted[i] as Collection);
  return merged;
}

/** The first index whose value is greater than `value` (values ascend). */
function upperBound(values: Float64Array, value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((values[mid] ?? 0) <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}

function clamp(offset: number, total: number): number {
  return Math.max(0, Math.min(Math.floor(offset), total));
}
