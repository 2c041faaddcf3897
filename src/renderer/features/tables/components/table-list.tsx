import { useMemo, useState } from 'react';
import type { Connection } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { ErrorMessage } from '../../../ui/error-message';
import { SkeletonRows } from '../../../ui/skeleton';
import { formatShortcut, matches } from '../../keyboard/shortcuts';
import { useWorkspaceStore } from '../../workspace/store';
import { useTableList } from '../hooks';
import { matchesFilter, sortTables, type SortColumn, type SortOrder } from '../sort';
import { useTablesStore } from '../store';
import { TableRow } from './table-row';
import { CreateTableDialog } from '../admin/create-table-dialog';

const columns: { label: string; sort?: SortColumn; className?: string; title?: string }[] = [
  { label: 'Table', sort: 'name' },
  { label: 'Partition key' },
  { label: 'Sort key' },
  { label: 'Indexes', sort: 'indexes' },
  { label: 'Billing', sort: 'billing' },
  {
    label: 'Items',
    sort: 'items',
    className: 'num',
    title: 'Approximate: DynamoDB refreshes it about every six hours',
  },
  {
    label: 'Size',
    sort: 'size',
    className: 'num',
    title: 'Approximate: DynamoDB refreshes it about every six hours',
  },
  { label: 'TTL' },
  { label: 'Streams' },
  { label: 'PITR', title: 'Point-in-time recovery' },
  { label: 'Del. protection', title: 'Deletion protection' },
];

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function whereLabel(connection: Connection): string {
  if (connection.kind === 'playground') return 'the local playground';
  return connection.endpoint ? `${connection.region} at ${connection.endpoint}` : connection.region;
}

export function TableList({ connection }: { connection: Connection }) {
  const list = useTableList(connection.id);
  const reload = useTablesStore((state) => state.loadList);
  const openTable = useWorkspaceStore((state) => state.openTable);
  const [filter, setFilter] = useState('');
  const [isCreating, setIsCreating] = useState(false);
  const [order, setOrder] = useState<SortOrder>({ column: 'name', direction: 'asc' });
  const tables = list?.value;
  const visible = useMemo(
    () =>
      tables
        ? sortTables(
            tables.filter((table) => matchesFilter(table, filter)),
            order,
          )
        : [],
    [tables, filter, order],
  );

  const toggleSort = (column: SortColumn) =>
    setOrder((current) =>
      current.column === column
        ? { column, direction: current.direction === 'asc' ? 'desc' : 'asc' }
        : { column, direction: column === 'name' || column === 'billing' ? 'asc' : 'desc' },
    );

  return (
    <div className="table-list">
      <h1 className="visually-hidden">Tables in {connection.label}</h1>
      <div className="toolbar">
        <input
          id="table-filter"
          className="input filter-input"
          type="search"
          placeholder="Filter tables, keys and indexes"
          aria-label="Filter tables"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          onKeyDown={(event) => {
            if (matches('clear-filter', event.nativeEvent)) setFilter('');
            if (matches('open-only-table', event.nativeEvent) && visible.length === 1 && visible[0])
              openTable(visible[0].name);
          }}
        />
        <kbd className="shortcut-hint" title="Focus the filter">
          {formatShortcut('filter-tables')}
        </kbd>
        <span className="toolbar-spacer" />
        {tables ? (
          <span className="muted small">
            {visible.length === tables.length
              ? plural(tables.length, 'table')
              : `${visible.length} of ${plural(tables.length, 'table')}`}
          </span>
        ) : null}
        <Button
          size="sm"
          isBusy={list?.status === 'loading' && tables !== undefined}
          onClick={() => void reload(connection.id)}
        >
          Refresh
        </Button>
        <Button
          size="sm"
          variant="primary"
          disabled={connection.readOnly}
          title={connection.readOnly ? 'This connection is read-only' : undefined}
          onClick={() => setIsCreating(true)}
        >
          Create table
        </Button>
      </div>
      {isCreating ? <CreateTableDialog connection={connection} onClose={() => setIsCreating(false)} /> : null}
      {list?.status === 'error' ? (
        <ErrorMessage
          error={list.error}
          connectionId={connection.id}
          onRetry={() => void reload(connection.id)}
        />
      ) : null}
      {!tables && list?.status !== 'error' ? <SkeletonRows rows={8} columns={8} /> : null}
      {tables && tables.length === 0 ? (
        <EmptyState title={`No tables in ${whereLabel(connection)}`}>
          This connection works but its account has no DynamoDB tables in this region. Check the region, or
          choose Create table.
        </EmptyState>
      ) : null}
      {tables && tables.length > 0 ? (
        <div className="grid-scroll">
          <table className="data-table" aria-label="Tables">
            <thead>
              <tr>
                {columns.map(({ sort, ...column }) => (
                  <th
                    key={column.label}
                    className={column.className}
                    title={column.title}
                    aria-sort={
                      sort && order.column === sort
                        ? order.direction === 'asc'
                          ? 'ascending'
                          : 'descending'
                        : undefined
                    }
                  >
                    {sort ? (
                      <button type="button" className="sort-button" onClick={() => toggleSort(sort)}>
                        {column.label}
                        <span className="sort-arrow" aria-hidden="true">
                          {order.column === sort ? (order.direction === 'asc' ? '▲' : '▼') : ''}
                        </span>
                      </button>
                    ) : (
                      column.label
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {visible.map((table) => (
                <TableRow key={table.name} table={table} onOpen={() => openTable(table.name)} />
              ))}
            </tbody>
          </table>
          {visible.length === 0 ? <EmptyState title={`No table matches “${filter.trim()}”`} /> : null}
        </div>
      ) : null}
    </div>
  );
}
