import type { TableInfo } from '../../../shared/sql/catalog';
import type { Binding } from '../binder/bound';
import { closestName } from '../catalog/closest-name';
import type { ColumnarTable } from './table';

export interface MissingAttribute {
  table: TableInfo;
  attribute: string;
  /** The names the read brought back (a projected read holds only the statement's own). */
  read: string[];
}

/**
 * The attributes a statement names that no item it read holds: a misspelled `totl` otherwise
 * reads as missing on every row and the result is silently NULL. Only for reads that brought
 * items back (an empty read says nothing about names) and tables, not opened exports.
 */
export function missingAttributes(
  bindings: Iterable<Binding>,
  tableOf: (binding: Binding) => ColumnarTable | undefined,
): MissingAttribute[] {
  const found = new Map<string, MissingAttribute>();
  for (const binding of bindings) {
    if (binding.source.kind !== 'base' || binding.source.table.export || binding.attributes === 'ALL')
      continue;
    const table = tableOf(binding);
    if (!table || table.rowCount === 0) continue;
    const read = table.names();
    const present = new Set(read);
    for (const attribute of binding.attributes) {
      const key = `${binding.source.table.name}\u0000${attribute}`;
      if (!present.has(attribute) && !found.has(key))
        found.set(key, { table: binding.source.table, attribute, read });
    }
  }
  return [...found.values()];
}

/** The sentence for one: "No item read from Orders has `totl`; did you mean `total`? …". */
export function missingAttributeNote(missing: MissingAttribute, known: Iterable<string>): string {
  const suggestion = closestName(missing.attribute, known);
  return (
    `No item read from ${missing.table.name} has \`${missing.attribute}\`` +
    (suggestion ? `; did you mean \`${suggestion}\`?` : '.') +
    ' It reads as missing (NULL) on every row.'
  );
}
