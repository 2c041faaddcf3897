import type { ComponentType } from 'react';
import type { Connection } from '../../../shared/ipc';
import type { TableDescription } from '../tables/store';
import { createRegistry } from '../../ui/registry';

export interface TableViewProps {
  connection: Connection;
  table: string;
  /** The table's description once loaded (keys, indexes); views that need keys wait for it. */
  description?: TableDescription;
}

/**
 * The views inside an open table. Each feature's view is registered from ../../shell/table-views.ts,
 * above the features, so this feature imports none of the pages it shows (they import its props);
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
  /**
   * What the header's Refresh (F5) reads again besides the table's description: what the view
   * shows from the table (the Items view's rows). A second Refresh inside the view was one too many.
   */
  refresh?: {
    /** What it reads, for the button's tooltip: "its items". */
    what: string;
    read(props: TableViewProps): void;
  };
}

const tableViews = createRegistry<TableView>();

export const registerTableViews = tableViews.register;

export function hasTableView(id: string): boolean {
  return tableViews.entries().some((view) => view.id === id);
}

export function availableViews(props: TableViewProps): TableView[] {
  return tableViews
    .entries()
    .filter((view) => view.isAvailable?.(props) ?? true)
    .sort((a, b) => a.order - b.order);
}
