import type { ExportTable, TableInfo } from '../../../shared/sql/catalog';
import type { FetchPlan } from '../../../shared/sql/plan';
import type { TableRef } from '../parser/table-refs';

/** The schema word that names opened exports in FROM: `FROM export."Orders-2026-12-01"`. */
export const EXPORT_SCHEMA = 'export';

export const isExportRef = (ref: TableRef): boolean => ref.schema?.toLowerCase() === EXPORT_SCHEMA;

/** Only the fields SQL knows an export by (an OpenedExport or a worker's export has more). */
export function exportTableOf(e: ExportTable): ExportTable {
  const { name, exportArn, table, exportTime, items, keyAttributes } = e;
  return { name, exportArn, table, exportTime, items, keyAttributes };
}

/** An opened export by its name (exact, else case-insensitive) or its export ARN. */
export function findExport<T extends ExportTable>(exports: readonly T[], name: string): T | undefined {
  return (
    exports.find((e) => e.name === name || e.exportArn === name) ??
    exports.find((e) => e.name.toLowerCase() === name.toLowerCase())
  );
}

/**
 * An export as a table for the binder and planner. An export does not record its key schema:
 * the key attributes are the table's when DynoTable knew them, typed S for want of better (the
 * planner never builds a key condition for an export, so the type is not used).
 */
export function exportTableInfo(e: ExportTable): TableInfo {
  const [partition = '', sort] = e.keyAttributes;
  return {
    name: `${EXPORT_SCHEMA}.${e.name}`,
    keys: {
      partitionKey: { name: partition, type: 'S' },
      ...(sort ? { sortKey: { name: sort, type: 'S' as const } } : {}),
    },
    indexes: [],
    itemCount: e.items,
    sizeBytes: 0,
    export: e,
  };
}

/** An export is read from its files: every item, no read capacity. */
export function exportEstimate(e: ExportTable): FetchPlan['estimate'] {
  return {
    itemsRead: e.items,
    itemsReturned: e.items,
    rcu: 0,
    basis: `export of ${e.table} at ${e.exportTime}: ${e.items.toLocaleString('en-US')} items read from its files, no read capacity`,
  };
}

export const EXPORT_REASON = 'an export is read whole from its files in S3 or on disk, not from the table';
