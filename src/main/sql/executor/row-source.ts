import type { AttributeValue, Item } from '../../../shared/dynamo/attribute-value';
import type { KeySchema } from '../../../shared/ipc/tables';
import { toTagged } from '../values/value';
import type { BoundSelect } from '../binder/bound';
import type { Frame } from './frame';
import type { ColumnarTable, RowReader } from './table';

/**
 * Where a result's rows come from when each row is exactly one DynamoDB item: the workbench
 * links such rows to the item editor. `keyOf(frameRow)` is the item's primary key, read from
 * the fetched columns (the planner always fetches the key attributes).
 */
export interface RowSource {
  table: string;
  keys: KeySchema;
  keyOf(frameRow: number): Item | undefined;
}

/**
 * A SELECT's rows are items of one table when its FROM is a single table or entity view and
 * nothing merges rows: no GROUP BY or aggregate, no DISTINCT. Joins (a row is two items), derived
 * tables, WITH queries and set operations do not link.
 */
export function rowSourceOf(
  select: BoundSelect,
  tables: readonly ColumnarTable[],
  frame: Frame,
): RowSource | undefined {
  const binding = select.bindings[0];
  if (select.bindings.length !== 1 || binding?.source.kind !== 'base') return undefined;
  if (select.aggregate || select.distinct || select.from?.kind !== 'binding') return undefined;
  const { table: info } = binding.source;
  // An export's rows are a snapshot in files, read-only: they do not open the live item.
  if (info.export) return undefined;
  const names = [info.keys.partitionKey.name, ...(info.keys.sortKey ? [info.keys.sortKey.name] : [])];
  const table = tables[0]!;
  // Read on first ask: a subquery's rows get a row source too, and most are never asked, so
  // their key columns should not be decoded for it.
  const columns = names.map((name) => {
    let read: RowReader | undefined;
    return (row: number) => (read ??= table.reader(name) ?? (() => undefined))(row);
  });
  const idx = frame.idx[0]!;
  return {
    table: info.name,
    keys: info.keys,
    keyOf(frameRow) {
      const row = idx[frameRow]!;
      if (row < 0) return undefined;
      const entries: [string, AttributeValue][] = [];
      for (let k = 0; k < names.length; k++) {
        const tagged = toTagged(columns[k]!(row));
        if (tagged === undefined) return undefined;
        entries.push([names[k]!, tagged]);
      }
      // fromEntries defines own properties, so a key attribute named __proto__ stays data.
      return Object.fromEntries<AttributeValue>(entries);
    },
  };
}
