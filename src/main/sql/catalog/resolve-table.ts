import type { EntityView, ExportTable, TableInfo } from '../../../shared/sql/catalog';
import type { BindingSource } from '../binder/bound';
import { type SourceSpan, SqlError, SqlErrorCodes } from '../parser/sql-error';
import { EXPORT_SCHEMA, exportTableInfo, findExport } from './export-tables';
import { closestName } from './closest-name';

export interface CatalogView {
  tables: readonly TableInfo[];
  views: readonly EntityView[];
  /** Opened exports, read as `export."<name or ARN>"`. */
  exports?: readonly ExportTable[];
}

function pick<T>(items: readonly T[], name: string, nameOf: (item: T) => string): T[] {
  const exact = items.filter((item) => nameOf(item) === name);
  if (exact.length > 0) return exact;
  return items.filter((item) => nameOf(item).toLowerCase() === name.toLowerCase());
}

/**
 * FROM names: a table of the connection by its name (exact, else case-insensitive), or an
 * entity view by name; `Table.view` picks the view of one table when several tables have a
 * view of that name. A table wins over a view of the same name.
 */
export function resolveTable(
  catalog: CatalogView,
  name: string,
  schema: string | undefined,
  span: SourceSpan,
  text: string,
): BindingSource {
  const fail = (message: string): never => {
    throw new SqlError(SqlErrorCodes.semantic, message, text, span);
  };
  if (schema?.toLowerCase() === EXPORT_SCHEMA) {
    const opened = findExport(catalog.exports ?? [], name);
    if (opened) return { kind: 'base', table: exportTableInfo(opened) };
    if (pick(catalog.tables, schema, (t) => t.name).length === 0) {
      const names = (catalog.exports ?? []).map((e) => e.name);
      return fail(
        `No opened export is called "${name}"${names.length ? ` (opened: ${names.join(', ')})` : ''}; open it first from the table's Exports view (S3 or a folder)`,
      );
    }
  }
  if (schema !== undefined) {
    const [table] = pick(catalog.tables, schema, (t) => t.name);
    if (!table) return fail(`There is no table called "${schema}" in this connection`);
    const [view] = pick(
      catalog.views.filter((v) => v.table === table.name),
      name,
      (v) => v.name,
    );
    if (!view) {
      const names = catalog.views.filter((v) => v.table === table.name).map((v) => v.name);
      return fail(
        `Table ${table.name} has no entity view called "${name}"${names.length ? ` (its views: ${names.join(', ')})` : ''}`,
      );
    }
    return { kind: 'base', table, view };
  }
  const tables = pick(catalog.tables, name, (t) => t.name);
  if (tables.length === 1) return { kind: 'base', table: tables[0]! };
  const views = pick(catalog.views, name, (v) => v.name);
  if (views.length === 1) {
    const view = views[0]!;
    const table = catalog.tables.find((t) => t.name === view.table);
    if (!table)
      return fail(
        `Entity view ${view.name} belongs to table ${view.table}, which this connection does not have`,
      );
    return { kind: 'base', table, view };
  }
  if (views.length > 1)
    return fail(
      `Several tables have an entity view called "${name}"; write Table.${name} (${views.map((v) => `${v.table}.${v.name}`).join(', ')})`,
    );
  const known = [...catalog.tables.map((t) => t.name), ...catalog.views.map((v) => v.name)];
  const suggestion =
    closestName(name, known) ?? known.find((k) => k.toLowerCase().startsWith(name.toLowerCase().slice(0, 3)));
  return fail(
    `There is no table or entity view called "${name}"${suggestion ? `; did you mean ${suggestion}?` : ''}`,
  );
}
