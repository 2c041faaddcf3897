import type { Item } from '../../shared/dynamo/attribute-value';
import { entityOf } from '../../shared/dynamo/entity';
import { changeCount } from '../../shared/dynamo/proto-keys';
import { compareValues } from '../../shared/dynamo/value-order';
import type { ReplacedRow, WrittenItem } from './types';
import { CollectionView } from './collection-view';
import { matches } from './row-view';
import { encodeItem, type ByteWriter } from './item-codec';
import { projectForRead, readMatches, type ReadScope } from './read-match';
import { itemKeyText } from './item-key';
import type { ResultSet, RowViewState } from './result-set-core';

/**
 * Applies writes DynoTable made to one result set, in place: a row whose item was written shows
 * what DynamoDB returned (marked changed), a deleted one leaves, a created one that the read
 * would have returned joins (marked new). A write we cannot place (a raw expression, a nested
 * projection) marks the set as possibly stale instead of guessing. Returns whether rows changed;
 * rows rewritten in place go to `replaced` as the read shows them, for windows to show at once.
 */
export function applyToSet(
  set: ResultSet,
  scope: ReadScope,
  writes: WrittenItem[],
  writer: ByteWriter,
  replaced: ReplacedRow[] = [],
): boolean {
  let isTouched = false;
  for (const { key, item, isRefresh = false } of writes) {
    const keyText = itemKeyText(key, scope.tableKeys);
    const index = set.find(keyText, scope.tableKeys);
    const verdict = item ? readMatches(scope, item) : false;
    const shown = item && verdict !== false ? projectForRead(scope, item) : undefined;
    if (item && (verdict === undefined || (verdict && !shown))) set.isStale = true;
    if (index !== undefined) {
      if (verdict === false) removeRow(set, index, keyText);
      else if (shown) {
        replaceRow(set, index, shown, writer, isRefresh);
        const mark = set.marks.get(index);
        replaced.push(mark ? { item: shown, mark } : { item: shown });
      } else continue;
      isTouched = true;
    } else if (verdict === true && shown && !isRefresh) {
      appendRow(set, shown, writer);
      isTouched = true;
    }
  }
  return isTouched;
}

function countNames(set: ResultSet, item: Item, by: 1 | -1): void {
  for (const name of Object.keys(item)) {
    const nameId = set.names.id(name);
    set.counts[nameId] = Math.max(0, (set.counts[nameId] ?? 0) + by);
  }
}

function encode(set: ResultSet, item: Item, writer: ByteWriter): void {
  writer.reset();
  encodeItem(item, set.names, writer);
  countNames(set, item, 1);
}

function removeRow(set: ResultSet, index: number, keyText: string): void {
  const old = set.item(index);
  countNames(set, old, -1);
  set.removed.add(index);
  set.marks.delete(index);
  set.forgetKey(keyText);
  set.invalidateLiveRows();
  forEachView(
    set,
    (view) => view.remove(index, old),
    (state, rows) => withoutRow(state, rows, index, old),
  );
}

function replaceRow(set: ResultSet, index: number, item: Item, writer: ByteWriter, isRefresh: boolean): void {
  const old = set.item(index);
  countNames(set, old, -1);
  encode(set, item, writer);
  set.arena.replace(index, writer.buffer, writer.length);
  if (isRefresh) set.marks.delete(index);
  else if (set.marks.get(index) !== 'new') set.marks.set(index, 'changed');
  forEachView(
    set,
    (view) => {
      view.remove(index, old);
      view.add(index, item);
    },
    (state, rows) => withRow(set, state, withoutRow(state, rows, index, old), index, item),
  );
}

function appendRow(set: ResultSet, item: Item, writer: ByteWriter): void {
  encode(set, item, writer);
  set.arena.push(writer.buffer, writer.length);
  const index = set.arena.count - 1;
  set.marks.set(index, 'new');
  set.invalidateLiveRows();
  forEachView(
    set,
    (view) => view.add(index, item),
    (state, rows) => withRow(set, state, rows, index, item),
  );
}

function forEachView(
  set: ResultSet,
  collection: (view: CollectionView) => void,
  rowView: (state: RowViewState, rows: Uint32Array) => Uint32Array,
): void {
  for (const [viewId, view] of set.views) {
    if (view instanceof CollectionView) collection(view);
    else {
      const state = set.viewSpecs.get(viewId);
      if (state) set.views.set(viewId, rowView(state, view));
    }
  }
}

function countEntity(state: RowViewState, item: Item, by: 1 | -1): string {
  const keys = state.spec.keys;
  const entity = keys ? (entityOf(item, keys) ?? '') : '';
  if (state.entities) changeCount(state.entities, entity, by);
  return entity;
}

function withoutRow(state: RowViewState, rows: Uint32Array, index: number, old: Item): Uint32Array {
  countEntity(state, old, -1);
  const at = rows.indexOf(index);
  if (at < 0) return rows;
  const next = new Uint32Array(rows.length - 1);
  next.set(rows.subarray(0, at));
  next.set(rows.subarray(at + 1), at);
  return next;
}

/** Puts a row where the view's sort puts it; ties keep fetched order, as a rebuilt view would. */
function withRow(
  set: ResultSet,
  state: RowViewState,
  rows: Uint32Array,
  index: number,
  item: Item,
): Uint32Array {
  const { spec } = state;
  const entity = countEntity(state, item, 1);
  if (spec.entities && spec.entities.length > 0 && !spec.entities.includes(entity)) return rows;
  const needle = spec.text?.trim().toLowerCase() ?? '';
  if (needle && !matches(item, needle, spec.column)) return rows;
  const sort = spec.sort ?? [];
  const before = (other: number): boolean => {
    const row = set.item(other);
    for (const s of sort) {
      const order = compareValues(row[s.column], item[s.column]);
      if (order !== 0) return s.descending ? order > 0 : order < 0;
    }
    return other < index;
  };
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (before(rows[mid] ?? 0)) low = mid + 1;
    else high = mid;
  }
  const next = new Uint32Array(rows.length + 1);
  next.set(rows.subarray(0, low));
  next[low] = index;
  next.set(rows.subarray(low), low + 1);
  return next;
}
