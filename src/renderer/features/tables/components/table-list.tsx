import { useEffect, useMemo, useState } from 'react';
import type { Connection } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { ErrorMessage } from '../../../ui/error-message';
import { SkeletonRows } from '../../../ui/skeleton';
import { SkipLink } from '../../../ui/skip-link';
import { formatShortcut, matches } from '../../keyboard/shortcuts';
import { tableKey, useWorkspaceStore } from '../../workspace/store';
import { useTableList } from '../hooks';
import { matchesFilter, sortRows, type SortColumn, type SortOrder, type TableListRow } from '../sort';
import { useRegionListStore } from '../region-store';
import { RegionPicker, RegionProblems } from './region-picker';
import { isSingleRegion } from '../../../../shared/dynamo/regions';
import { useTablesStore } from '../store';
import { TableRow } from './table-row';
import { CreateTableDialog } from '../admin/create-table-dialog';
import { countOf } from '../../../ui/format';

interface Column {
  label: string;
  sort?: SortColumn;
  className?: string;
  title?: string;
}

const SIX_HOURS = 'Approximate: DynamoDB updates it about every six hours';

const columns: Column[] = [
  { label: 'Table', sort: 'name' },
  { label: 'Status', sort: 'status' },
  { label: 'Partition key' },
  { label: 'Sort key' },
  { label: 'Indexes', sort: 'indexes' },
  { label: 'Billing', sort: 'billing' },
  {
    label: 'Items',
    sort: 'items',
    className: 'num',
    title: SIX_HOURS,
  },
  {
    label: 'Size',
    sort: 'size',
    className: 'num',
    title: SIX_HOURS,
  },
  { label: 'TTL' },
  { label: 'Streams' },
  { label: 'PITR', title: 'Point-in-time recovery' },
  { label: 'Del. protection', title: 'Deletion protection' },
];

function whereLabel(connection: Connection): string {
  if (connection.kind === 'playground') return 'the local playground';
  return connection.endpoint ? `${connection.region} at ${connection.endpoint}` : connection.region;
}

/** The first table's open button, where the filter's ArrowDown and its skip link lead. */
const firstTableLink = (): HTMLElement | null =>
  document.querySelector<HTMLElement>('.data-table .table-link');

export function TableList({ connection }: { connection: Connection }) {
  const list = useTableList(connection.id);
  const reload = useTablesStore((state) => state.loadList);
  const openTable = useWorkspaceStore((state) => state.openTable);
  const [filter, setFilter] = useState('');
  const [isCreating, setIsCreating] = useState(false);
  const [order, setOrder] = useState<SortOrder>({ column: 'name', direction: 'asc' });
  const isMultiRegionable = !isSingleRegion(connection);
  const chosen = useRegionListStore((state) => state.chosen[connection.id]);
  const regions = isMultiRegionable && chosen?.length ? chosen : [connection.region];
  const choose = useRegionListStore((state) => state.choose);
  const regionList = useRegionListStore((state) => state.lists[connection.id]);
  const loadRegions = useRegionListStore((state) => state.load);
  const cancelRegions = useRegionListStore((state) => state.cancel);
  // Only the connection's own region is tables:list; any other choice lists across regions.
  const isMultiRegion = !(regions.length === 1 && regions[0] === connection.region);
  const regionsKey = regions.join();
  useEffect(() => {
    // A remembered choice is listed when the connection opens; a new one as soon as it is made.
    const current = useRegionListStore.getState().lists[connection.id];
    if (isMultiRegion && current?.regions.join() !== regionsKey)
      void loadRegions(connection.id, regionsKey.split(','));
  }, [isMultiRegion, regionsKey, connection.id, loadRegions]);
  const rows = useMemo<TableListRow[] | undefined>(() => {
    if (!isMultiRegion) return list?.value?.map((table) => ({ table }));
    return regionList?.value?.flatMap((r) => (r.tables ?? []).map((table) => ({ table, region: r.region })));
  }, [isMultiRegion, list, regionList]);
  const tables = rows;
  const visible = useMemo(
    () =>
      rows
        ? sortRows(
            rows.filter((row) => matchesFilter(row.table, filter, row.region)),
            order,
          )
        : [],
    [rows, filter, order],
  );
  // One group per region that answered, in the order chosen (the connection's own first).
  const groups = useMemo(
    () =>
      isMultiRegion
        ? (regionList?.value ?? [])
            .filter((r) => r.tables)
            .map((r) => ({ region: r.region, rows: visible.filter((row) => row.region === r.region) }))
        : [{ region: undefined, rows: visible }],
    [isMultiRegion, regionList, visible],
  );
  const isLoading = isMultiRegion ? regionList?.status === 'loading' : list?.status === 'loading';
  const refresh = () =>
    isMultiRegion ? void loadRegions(connection.id, regions) : void reload(connection.id);
  const chooseRegions = (next: string[]) => {
    choose(connection.id, next);
    if (next.length === 1 && next[0] === connection.region) cancelRegions(connection.id);
  };
  const open = (row: TableListRow) =>
    openTable(tableKey(row.table.name, row.region === connection.region ? undefined : row.region));

  const toggleSort = (column: SortColumn) =>
    setOrder((current) =>
      current.column === column
        ? { column, direction: current.direction === 'asc' ? 'desc' : 'asc' }
        : {
            column,
            direction: ['name', 'region', 'status', 'billing'].includes(column) ? 'asc' : 'desc',
          },
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
          data-arrival
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          onKeyDown={(event) => {
            if (matches('clear-filter', event.nativeEvent)) setFilter('');
            const only = visible.length === 1 ? visible[0] : undefined;
            if (matches('open-only-table', event.nativeEvent) && only) open(only);
            if (matches('to-first-table', event.nativeEvent)) {
              event.preventDefault();
              firstTableLink()?.focus();
            }
          }}
        />
        <SkipLink target={firstTableLink}>Skip to the tables</SkipLink>
        <kbd className="shortcut-hint" title="Focus the filter">
          {formatShortcut('filter-tables')}
        </kbd>
        {isMultiRegionable ? (
          <RegionPicker connection={connection} value={regions} onChange={chooseRegions} />
        ) : null}
        <span className="toolbar-spacer" />
        {tables ? (
          <span className="muted small">
            {visible.length === tables.length
              ? countOf(tables.length, 'table')
              : `${visible.length} of ${countOf(tables.length, 'table')}`}
          </span>
        ) : null}
        {isMultiRegion && isLoading ? (
          <>
            <span className="muted small" role="status">
              {regionList?.message ?? 'Asking the regions…'}
            </span>
            <Button size="sm" onClick={() => cancelRegions(connection.id)}>
              Cancel
            </Button>
          </>
        ) : (
          <Button size="sm" isBusy={isLoading && tables !== undefined} onClick={refresh}>
            Refresh
          </Button>
        )}
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
      {isCreating ? (
        <CreateTableDialog
          connection={connection}
          regions={isMultiRegion ? regions : []}
          onClose={() => setIsCreating(false)}
        />
      ) : null}
      <p className="muted small table-list-note">
        Item counts and sizes are DynamoDB’s approximations, updated about every six hours.
      </p>
      {isMultiRegion && regionList ? <RegionProblems list={regionList} /> : null}
      {!isMultiRegion && list?.status === 'error' ? (
        <ErrorMessage
          error={list.error}
          connectionId={connection.id}
          onRetry={() => void reload(connection.id)}
        />
      ) : null}
      {!tables && (isMultiRegion ? isLoading : list?.status !== 'error') ? (
        <SkeletonRows rows={8} columns={8} />
      ) : null}
      {tables && tables.length === 0 && isMultiRegion ? (
        <EmptyState
          title={
            regions.length === 1
              ? `No tables in ${regions[0]}`
              : `No tables in the ${regions.length} regions chosen`
          }
        />
      ) : null}
      {tables && tables.length === 0 && !isMultiRegion ? (
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
            {groups.map((group) => (
              <tbody key={group.region ?? ''} aria-label={group.region}>
                {group.region !== undefined ? (
                  <tr className="region-group">
                    <th scope="rowgroup" colSpan={columns.length}>
                      {group.region}
                      <span className="muted">
                        {' '}
                        · {countOf(group.rows.length, 'table')}
                        {group.region === connection.region ? ' · this connection’s region' : ''}
                      </span>
                    </th>
                  </tr>
                ) : null}
                {group.rows.map((row) => (
                  <TableRow
                    key={`${row.region ?? ''}\u0000${row.table.name}`}
                    table={row.table}
                    onOpen={() => open(row)}
                  />
                ))}
              </tbody>
            ))}
          </table>
          {visible.length === 0 ? <EmptyState title={`No table matches “${filter.trim()}”`} /> : null}
        </div>
      ) : null}
    </div>
  );
}
