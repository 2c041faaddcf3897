import { parseSchemaPath } from '../../shared/schema/schema-paths';
import type { SchemaValueType } from '../../shared/ipc/schema';

/**
 * What an export's items hold at each attribute path, as the Schema view observed it: the
 * DynamoDB types seen there, a map's keys and a list's elements. Both the Glue table definition
 * and the SQL translation are written from this one tree, so a column the query reads always
 * exists in the table with the member types it reads.
 */
export interface AttrNode {
  types: Set<SchemaValueType>;
  /** Keys of the maps seen at this path (null prototype: names are data). */
  children: Map<string, AttrNode>;
  /** Every element of the lists seen at this path. */
  element?: AttrNode;
}

export function emptyNode(): AttrNode {
  return { types: new Set(), children: new Map() };
}

export interface ObservedPath {
  path: string;
  types: Partial<Record<SchemaValueType, number>>;
}

/** The tree of a Schema view report's attribute list (`address.city`, `lines[].sku`, `"a.b"`). */
export function exportSchemaOf(attributes: readonly ObservedPath[]): AttrNode {
  const root = emptyNode();
  root.types.add('M');
  for (const a of attributes) {
    let node = root;
    for (const step of parseSchemaPath(a.path)) {
      if (step === -1) {
        node.types.add('L');
        node.element ??= emptyNode();
        node = node.element;
      } else {
        node.types.add('M');
        let child = node.children.get(step);
        if (!child) {
          child = emptyNode();
          node.children.set(step, child);
        }
        node = child;
      }
    }
    for (const [type, count] of Object.entries(a.types)) {
      if (count) node.types.add(type as SchemaValueType);
    }
  }
  return root;
}
