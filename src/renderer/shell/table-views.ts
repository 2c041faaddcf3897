import { ExportsPage } from '../features/exports/exports-page';
import { HealthPage } from '../features/health/components/health-page';
import { ItemsPage } from '../features/items/components/items-page';
import { useItemsStore } from '../features/items/store';
import { MigrationPage } from '../features/migration/components/migration-page';
import { SchemaPage } from '../features/schema/components/schema-page';
import { StreamPage } from '../features/streams/components/stream-page';
import { TableOverview } from '../features/table/components/table-overview';
import { registerTableViews } from '../features/table/tabs';

// The views inside an open table, put together above the features: the table feature shows them
// and each page imports the table's props, so neither side imports the other.
registerTableViews([
  { id: 'overview', title: 'Overview', order: 0, Component: TableOverview },
  {
    id: 'items',
    title: 'Items',
    order: 10,
    Component: ItemsPage,
    refresh: {
      what: 'its items',
      read: ({ connection, table, description }) =>
        useItemsStore.getState().readAgain(connection.id, table, description?.summary.keys),
    },
  },
  { id: 'stream', title: 'Stream', order: 40, Component: StreamPage },
  { id: 'exports', title: 'Exports', order: 45, Component: ExportsPage },
  { id: 'schema', title: 'Schema', order: 50, Component: SchemaPage },
  { id: 'preflight', title: 'Pre-flight', order: 60, Component: MigrationPage },
  { id: 'health', title: 'Health', order: 70, Component: HealthPage },
]);
