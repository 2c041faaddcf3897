import type { ComponentType } from 'react';
import type { Connection } from '../../../shared/ipc';
import type { TableDescription } from '../tables/store';

export interface TableViewProps {
  connection: Connection;
  table: string;
  /** The table's description once loaded (keys, indexes); views that need keys wait for it. */
  description?: TableDescription;
}

/**
 * The views inside an open table. Each feature's view is registered from ../../table-views.ts,
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
}

const tableViews: TableView[] = [];

/** Adds views (a second registration of an id replaces the first, so a reload cannot double a tab). */
export function registerTableViews(views: TableView[]): void {
  for (const view of views) {
    const at = tableViews.findIndex((known) => known.id === view.id);
    if (at >= 0) tableViews.splice(at, 1, view);
    else tableViews.push(view);
  }
}

export function hasTableView(id: string): boolean {
  return tableViews.some((view) => view.id === id);
}

export function availableViews(props: TableViewProps): TableView[] {
  return tableViews.filter((view) => view.isAvailable?.(props) ?? true).sort((a, b) => a.order - b.order);
}
