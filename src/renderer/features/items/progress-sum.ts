import type { Progress } from '../../../shared/ipc';

/**
 * The cost of a read continued by Load more: items, pages, capacity and items evaluated add up
 * over every request of the read; the newest request says how far along it is and why.
 */
export function addProgress(before: Progress, next: Progress): Progress {
  const scanned =
    before.scanned !== undefined || next.scanned !== undefined
      ? (before.scanned ?? before.items) + (next.scanned ?? next.items)
      : undefined;
  return {
    ...next,
    items: before.items + next.items,
    pages: before.pages + next.pages,
    consumedCapacity: before.consumedCapacity + next.consumedCapacity,
    ...(scanned !== undefined ? { scanned } : {}),
  };
}
