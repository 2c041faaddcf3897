import type { TableSummary } from '../../../shared/ipc';

export type SortColumn = 'name' | 'billing' | 'indexes' | 'items' | 'size';
export interface SortOrder {
  column: SortColumn;
  direction: 'asc' | 'desc';
}

const compareBy: Record<SortColumn, (a: TableSummary, b: TableSummary) => number> = {
  name: (a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }),
  billing: (a, b) => a.billingMode.localeCompare(b.billingMode),
  indexes: (a, b) => a.indexes.length - b.indexes.length,
  items: (a, b) => a.itemCount - b.itemCount,
  size: (a, b) => a.sizeBytes - b.sizeBytes,
};

/** Case-insensitive match on the name, key attribute names and index names. */
export function matchesFilter(table: TableSummary, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (!needle) return true;
  const haystack = [
    table.name,
    table.keys.partitionKey.name,
    table.keys.sortKey?.name ?? '',
    ...table.indexes.map((index) => index.name),
  ];
  return haystack.some((text) => text.toLowerCase().includes(needle));
}

export function sortTables(tables: TableSummary[], order: SortOrder): TableSummary[] {
  const sign = order.direction === 'asc' ? 1 : -1;
  const compare = compareBy[order.column];
  // Ties fall back to the name so the order is stable and predictable.
  return [...tables].sort((a, b) => sign * compare(a, b) || compareBy.name(a, b));
}
