import type { ComponentType } from 'react';
import type { Connection } from '../../../shared/ipc';
import type { TableDescription } from '../tables/store';
import { TableOverview } from './components/table-overview';
import { MigrationPage } from '../migration/components/migration-page';
import { ItemsPage } from '../items/components/items-page';
import { SchemaPage } from '../schema/components/schema-page';
import { StreamPage } from '../streams/components/stream-page';
import { ExportsPage } from '../exports/exports-page';
import { HealthPage } from '../health/components/health-page';

export interface TableViewProps {
  connection: Connection;
  table: string;
  /** The table's description once loaded (keys, indexes); views that need keys wait for it. */
  description?: TableDescription;
}

/**
 * The views inside an open table. A feature adds its entry here (Items, SQL, Pre-flight, …);
 * only registered views are shown, so there are never tabs that do nothing.
 */
export interface TableView {
  id: string;
  title: string;
  /** Lower comes first. Overview is 0; leave gaps (10, 20, …). */
  order: number;
  Component: ComponentType<TableViewProps>;
  /** Hide the view when it does not apply (e.g. on a connection or table it cannot handle). */
  isAvailable?: (props: TableViewProps) => boolean;
}

export const tableViews: TableView[] = [
  { id: 'overview', title: 'Overview', order: 0, Component: TableOverview },
  { id: 'items', title: 'Items', order: 10, Component: ItemsPage },
  { id: 'stream', title: 'Stream', order: 40, Component: StreamPage },
  { id: 'exports', title: 'Exports', order: 45, Component: ExportsPage },
  { id: 'schema', title: 'Schema', order: 50, Component: SchemaPage },
  { id: 'preflight', title: 'Pre-flight', order: 60, Component: MigrationPage },
  { id: 'health', title: 'Health', order: 70, Component: HealthPage },
];

export function availableViews(props: TableViewProps): TableView[] {
  return tableViews.filter((view) => view.isAvailable?.(props) ?? true).sort((a, b) => a.order - b.order);
}
