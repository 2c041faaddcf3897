import type { Item } from '../../../shared/dynamo/attribute-value';
import { ownValue } from '../../../shared/dynamo/proto-keys';
import { keyOf } from '../../../shared/dynamo/validate-item';
import type { CollectionHeader } from '../../../shared/ipc/query';
import type { KeySchema } from '../../../shared/ipc/tables';
import { call } from '../../ipc/client';

/** Bulk actions read at most this many selected items. */
export const MAX_SELECTED_READ = 10_000;
/**
 * A view is read through to check which selected items it still holds only up to this many
 * rows (50 windows): beyond it the selection keeps items it cannot check, which writes still
 * remove when they delete them.
 */
export const MAX_CHECKED_ROWS = 50_000;
const MAX_WINDOW = 1000;

/** One item the user picked: its key, the item as last seen, and its partition (as text). */
export interface Picked {
  key: Item;
  item: Item;
  partition: string;
}

/**
 * The selection holds items by key, never by position: a delete, a sort, a filter or a re-read
 * moves rows to other positions, and a position would then name an item the user never picked.
 */
export type Selection = ReadonlyMap<string, Picked>;

/** An item key as text, the same for a row and for the key a `written` event carries. */
export function keyText(key: Item): string {
  // Sorted entries, not an object: attribute names are data (`__proto__` included).
  return JSON.stringify(
    Object.keys(key)
      .sort()
      .map((name) => [name, ownValue(key, name)]),
  );
}

export function pickOf(row: Item, keys: KeySchema): [string, Picked] {
  const key = keyOf(row, keys);
  return [
    keyText(key),
    { key, item: row, partition: JSON.stringify(ownValue(key, keys.partitionKey.name) ?? null) },
  ];
}

export function isRowSelected(selected: Selection, row: Item | undefined, keys: KeySchema): boolean {
  return row !== undefined && selected.size > 0 && selected.has(keyText(keyOf(row, keys)));
}

const partitionCounts = new WeakMap<Selection, Map<string, number>>();

/**
 * Whether every item of a collection is selected: as many selected items in its partition as it
 * holds. Counted once per selection (the grid asks again on every scroll frame).
 */
export function isCollectionSelected(selected: Selection, header: CollectionHeader): boolean {
  if (header.count === 0 || selected.size < header.count) return false;
  let counts = partitionCounts.get(selected);
  if (!counts) {
    counts = new Map<string, number>();
    for (const { partition } of selected.values()) counts.set(partition, (counts.get(partition) ?? 0) + 1);
    partitionCounts.set(selected, counts);
  }
  return (counts.get(JSON.stringify(header.partitionKey ?? null)) ?? 0) >= header.count;
}

/** Consecutive positions as [offset, length] runs of at most one window each. */
export function runsOf(positions: number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const position of positions) {
    const run = runs.at(-1);
    if (run && run[0] + run[1] === position && run[1] < MAX_WINDOW) run[1] += 1;
    else runs.push([position, 1]);
  }
  return runs;
}

export interface ViewRef {
  resultSetId: string;
  viewId?: string;
  isGrouped: boolean;
}

/** The rows at item positions (a range, a collection's items), the first MAX_SELECTED_READ. */
export async function readPositions(
  { resultSetId, viewId, isGrouped }: ViewRef,
  positions: number[],
): Promise<Item[]> {
  const rows: Item[] = [];
  for (const [offset, limit] of runsOf(positions.slice(0, MAX_SELECTED_READ))) {
    const envelope = await call('resultsets:window', {
      resultSetId,
      offset,
      limit,
      ...(viewId ? { viewId } : {}),
      // Positions count items of a collection view as if all were expanded.
      ...(viewId && isGrouped ? { itemsOnly: true } : {}),
    });
    if (!envelope.ok) throw new Error(envelope.error.message);
    rows.push(...envelope.value.rows);
  }
  return rows;
}

/** The positions of a collection's items, collapsed or not. */
export function collectionPositions(header: CollectionHeader): number[] {
  return Array.from({ length: header.count }, (_, i) => header.first + i);
}

/**
 * Every row of the view in order, when it holds at most MAX_CHECKED_ROWS items (undefined when
 * it holds more, or a window could not be read): what the selection is checked against.
 */
export async function readWholeView(view: ViewRef, total: number): Promise<Item[] | undefined> {
  if (total > MAX_CHECKED_ROWS) return undefined;
  try {
    const rows: Item[] = [];
    for (let offset = 0; offset < total; offset += MAX_WINDOW) {
      const envelope = await call('resultsets:window', {
        resultSetId: view.resultSetId,
        offset,
        limit: MAX_WINDOW,
        ...(view.viewId ? { viewId: view.viewId } : {}),
        ...(view.viewId && view.isGrouped ? { itemsOnly: true } : {}),
      });
      if (!envelope.ok) return undefined;
      rows.push(...envelope.value.rows);
      if (envelope.value.rows.length < MAX_WINDOW) break;
    }
    return rows;
  } catch {
    return undefined;
  }
}
