import type { TableSummary } from '../../../shared/ipc';

export type SortColumn = 'name' | 'region' | 'status' | 'billing' | 'indexes' | 'items' | 'size';
export interface SortOrder {
  column: SortColumn;
  direction: 'asc' | 'desc';
}

/** One row of the table list: a table, and the region it was listed in when listing several. */
export interface TableListRow {
  table: TableSummary;
  region?: string;
}

const byName = (a: TableListRow, b: TableListRow) =>
  a.table.name.localeCompare(b.table.name, undefined, { numeric: true });

const compareBy: Record<SortColumn, (a: TableListRow, b: TableListRow) => number> = {
  name: byName,
  region: (a, b) => (a.region ?? '').localeCompare(b.region ?? ''),
  // ACTIVE first when ascending, then the states a user is waiting on, alphabetically.
  status: (a, b) =>
    Number(a.table.status !== 'ACTIVE') - Number(b.table.status !== 'ACTIVE') ||
    a.table.status.localeCompare(b.table.status),
  billing: (a, b) => a.table.billingMode.localeCompare(b.table.billingMode),
  indexes: (a, b) => a.table.indexes.length - b.table.indexes.length,
  items: (a, b) => a.table.itemCount - b.table.itemCount,
  size: (a, b) => a.table.sizeBytes - b.table.sizeBytes,
};

/** Case-insensitive match on the name, key attribute names, index names and the region. */
export function matchesFilter(table: TableSummary, filter: string, region?: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (!needle) return true;
  const haystack = [
    table.name,
    table.keys.partitionKey.name,
    table.keys.sortKey?.name ?? '',
    ...table.indexes.map((index) => index.name),
    region ?? '',
  ];
  return haystack.some((text) => text.toLowerCase().includes(needle));
}

export function sortRows(rows: TableListRow[], order: SortOrder): TableListRow[] {
  const sign = order.direction === 'asc' ? 1 : -1;
  const compare = compareBy[order.column];
  // Ties fall back to the name, then the region, so the order is stable and predictable.
  return [...rows].sort((a, b) => sign * compare(a, b) || byName(a, b) || compareBy.region(a, b));
}

export function sortTables(tables: TableSummary[], order: SortOrder): TableSummary[] {
  return sortRows(
    tables.map((table) => ({ table })),
    order,
  ).map((row) => row.table);
}
