import type { ItemsTableState } from './store';

// What a view's answer changes in a table's state: sizes only when newer than those shown.

export interface CollectionSizes {
  total: number;
  collections: number;
  items: number;
  entities: Record<string, number>;
}

/** A view's new sizes, unless an answer with a later change counter was shown already. */
export function sizesIfNewer(
  state: ItemsTableState,
  seq: number | undefined,
  sizes: { total: number; collections?: number; items?: number; entities?: Record<string, number> },
): Partial<ItemsTableState> {
  if (seq !== undefined && state.sizesSeq !== undefined && seq < state.sizesSeq) return {};
  return {
    viewTotal: sizes.total,
    collections: sizes.collections,
    viewItems: sizes.items,
    entities: sizes.entities,
    ...(seq === undefined ? {} : { sizesSeq: seq }),
  };
}

/** A collection view's new sizes; positions from `from` on show other rows now. */
export function withSizes(
  state: ItemsTableState,
  sizes: CollectionSizes & { seq?: number },
  from: number,
): Partial<ItemsTableState> {
  const change = sizesIfNewer(state, sizes.seq, sizes);
  if (!('viewTotal' in change)) return {};
  return { ...change, layout: { revision: (state.layout?.revision ?? 0) + 1, from } };
}

export function hasView(state: ItemsTableState): boolean {
  return (
    state.sort.length > 0 || state.text.trim() !== '' || state.entityFilter.length > 0 || state.isGrouped
  );
}
