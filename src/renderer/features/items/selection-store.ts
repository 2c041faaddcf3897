import { create } from 'zustand';
import type { Item } from '../../../shared/dynamo/attribute-value';
import type { KeySchema } from '../../../shared/ipc/tables';
import { keyText, pickOf, type Picked, type Selection } from './selection';
import { itemsKey } from './store';

/** One Items tab's selection, and how many picked items the last check found gone from view. */
export interface TableSelection {
  picked: Selection;
  left: number;
}

const none: TableSelection = { picked: new Map(), left: 0 };

interface SelectionStore {
  tables: Record<string, TableSelection>;
  /** Picks (or unpicks) these rows. */
  set(key: string, rows: Item[], keys: KeySchema, isSelected: boolean): void;
  clear(key: string): void;
  /**
   * The view was read through: picked items it no longer holds leave the selection (counted in
   * `left`), the others take the row as read now.
   */
  retain(key: string, rows: Item[], keys: KeySchema): void;
  /** DynoTable wrote these items: deleted ones leave the selection, the others are kept as now stored. */
  written(connectionId: string, table: string, items: { key: Item; item: Item | null }[]): void;
}

export const useSelectionStore = create<SelectionStore>()((set, get) => ({
  tables: {},
  set(key, rows, keys, isSelected) {
    const picked = new Map(get().tables[key]?.picked ?? none.picked);
    for (const row of rows) {
      const [text, pick] = pickOf(row, keys);
      if (isSelected) picked.set(text, pick);
      else picked.delete(text);
    }
    set((state) => ({ tables: { ...state.tables, [key]: { picked, left: 0 } } }));
  },
  clear(key) {
    if (!get().tables[key]) return;
    set((state) => ({ tables: { ...state.tables, [key]: none } }));
  },
  retain(key, rows, keys) {
    const current = get().tables[key];
    if (!current || current.picked.size === 0) return;
    const present = new Map(rows.map((row) => pickOf(row, keys)));
    const picked = new Map<string, Picked>();
    for (const text of current.picked.keys()) {
      const now = present.get(text);
      if (now) picked.set(text, now);
    }
    const left = current.picked.size - picked.size;
    if (left === 0 && [...picked].every(([text, pick]) => current.picked.get(text)?.item === pick.item))
      return;
    set((state) => ({ tables: { ...state.tables, [key]: { picked, left: left || current.left } } }));
  },
  written(connectionId, table, items) {
    const key = itemsKey(connectionId, table);
    const current = get().tables[key];
    if (!current || current.picked.size === 0) return;
    let picked: Map<string, Picked> | undefined;
    for (const { key: itemKey, item } of items) {
      const text = keyText(itemKey);
      const pick = current.picked.get(text);
      if (!pick) continue;
      picked ??= new Map(current.picked);
      if (item) picked.set(text, { ...pick, item });
      else picked.delete(text);
    }
    if (picked) set((state) => ({ tables: { ...state.tables, [key]: { ...current, picked } } }));
  },
}));

export function useTableSelection(connectionId: string, table: string): TableSelection {
  return useSelectionStore((state) => state.tables[itemsKey(connectionId, table)] ?? none);
}
