import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import { entityOf } from '../../shared/dynamo/entity';
import { compareValues, searchText } from '../../shared/dynamo/value-order';
import type { ViewSpec } from '../../shared/ipc/query';
import { addCount, ownValue } from '../../shared/dynamo/proto-keys';

/**
 * A sorted and/or filtered order of a result set's rows, as row indexes. Runs in the
 * result-set worker: sorting a million rows must not touch the renderer or main's event loop,
 * and only the index array (4 bytes a row) is kept, never a second copy of the items.
 */
export interface RowView {
  rows: Uint32Array;
  /** Rows per entity type over all fetched rows (before filters), when the key schema was given. */
  entities?: Record<string, number>;
}

export function buildRowView(count: number, rowAt: (index: number) => Item, spec: ViewSpec): RowView {
  const needle = spec.text?.trim().toLowerCase() ?? '';
  const entities = spec.entities && spec.entities.length > 0 ? new Set(spec.entities) : undefined;
  const sort = spec.sort ?? [];
  const keys = spec.keys;
  const kept: number[] = [];
  const sortValues: (AttributeValue | undefined)[][] = [];
  const counts: Record<string, number> | undefined = keys ? {} : undefined;
  for (let i = 0; i < count; i++) {
    const item = rowAt(i);
    const entity = keys ? (entityOf(item, keys) ?? '') : '';
    if (counts) addCount(counts, entity);
    if (entities && !entities.has(entity)) continue;
    if (needle && !matches(item, needle, spec.column)) continue;
    kept.push(i);
    if (sort.length > 0) sortValues.push(sort.map((s) => ownValue(item, s.column)));
  }
  if (sort.length > 0) {
    const order = kept.map((_, position) => position);
    // Array.prototype.sort is stable, so equal rows keep their fetched order.
    order.sort((a, b) => {
      for (const [k, s] of sort.entries()) {
        const result = compareValues(sortValues[a]?.[k], sortValues[b]?.[k]);
        if (result !== 0) return s.descending ? -result : result;
      }
      return 0;
    });
    return { rows: Uint32Array.from(order, (position) => kept[position] ?? 0), entities: counts };
  }
  return { rows: Uint32Array.from(kept), entities: counts };
}

export function matches(item: Item, needle: string, column: string | undefined): boolean {
  if (column !== undefined) {
    const value = ownValue(item, column);
    return value !== undefined && searchText(value).toLowerCase().includes(needle);
  }
  for (const [name, value] of Object.entries(item)) {
    if (name.toLowerCase().includes(needle) || searchText(value).toLowerCase().includes(needle)) return true;
  }
  return false;
}
