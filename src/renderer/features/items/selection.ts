import { useCallback, useState } from 'react';
import type { Item } from '../../../shared/dynamo/attribute-value';
import type { CollectionHeader } from '../../../shared/ipc/query';
import { call } from '../../ipc/client';

/** Bulk actions read at most this many selected items. */
export const MAX_SELECTED_READ = 10_000;
const MAX_WINDOW = 1000;

/**
 * Selection holds item positions: the place of an item in the view as if every collection were
 * expanded. Collapsing does not move them, so a collapsed collection's header can select its
 * items without their rows ever being on screen.
 */
export function withCollection(
  selected: ReadonlySet<number>,
  header: CollectionHeader,
  isSelected: boolean,
): Set<number> {
  const next = new Set(selected);
  for (let position = header.first; position < header.first + header.count; position++) {
    if (isSelected) next.add(position);
    else next.delete(position);
  }
  return next;
}

const none: ReadonlySet<number> = new Set();

/**
 * Selected positions that belong to a scope (the view and, in a collection view, its item
 * count): once the scope changes the positions mean other items, so the selection is empty.
 */
export function useScopedSelection(
  scope: string,
): [ReadonlySet<number>, (next: (current: ReadonlySet<number>) => ReadonlySet<number>) => void] {
  const [held, setHeld] = useState<{ scope: string; positions: ReadonlySet<number> }>({
    scope,
    positions: none,
  });
  const selected = held.scope === scope ? held.positions : none;
  const update = useCallback(
    (next: (current: ReadonlySet<number>) => ReadonlySet<number>) =>
      setHeld((current) => ({
        scope,
        positions: next(current.scope === scope ? current.positions : none),
      })),
    [scope],
  );
  return [selected, update];
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

/** The selected items (the first MAX_SELECTED_READ), read a run of positions at a time. */
export async function readSelected(
  resultSetId: string,
  viewId: string | undefined,
  isGrouped: boolean,
  selected: ReadonlySet<number>,
): Promise<Item[]> {
  const positions = [...selected].sort((a, b) => a - b).slice(0, MAX_SELECTED_READ);
  const rows: Item[] = [];
  for (const [offset, limit] of runsOf(positions)) {
    const envelope = await call('resultsets:window', {
      resultSetId,
      offset,
      limit,
      ...(viewId ? { viewId } : {}),
      // Positions count items of a collection view as if all were expanded.
      ...(viewId && isGrouped ? { itemsOnly: true } : {}),
    });
    if (envelope.ok) rows.push(...envelope.value.rows);
  }
  return rows;
}
