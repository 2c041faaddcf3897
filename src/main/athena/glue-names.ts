import type { SchemaValueType } from '../../shared/ipc/schema';
import type { AttrNode } from './export-schema';

/**
 * How a DynamoDB JSON export reads in Athena: the OpenX JSON SerDe lowercases keys (Hive names
 * are case-insensitive) and, with `dots.in.keys`, turns a dot in a key into an underscore
 * (Hive struct fields cannot hold dots). Every name the Glue table and the translated SQL use
 * comes from here, so the two always agree.
 */
export function glueFieldName(attribute: string): string {
  return attribute.toLowerCase().replace(/\./g, '_');
}

/** DynamoDB's two export formats: typed `{"N": "12.5"}` nesting, or native Ion values. */
export type ExportFormat = 'DYNAMODB_JSON' | 'ION';

/** The member of DynamoDB JSON's typed nesting for one type: `{"N": "12.5"}` → `n`. */
export function memberName(type: SchemaValueType): string {
  return type.toLowerCase();
}

export class AthenaMappingError extends Error {
  constructor(
    readonly construct: string,
    message: string,
  ) {
    super(message);
    this.name = 'AthenaMappingError';
  }
}

/** The children of a map node under their Glue names; two keys that meet under one name are refused. */
export function glueChildren(node: AttrNode, where: string): Map<string, { name: string; node: AttrNode }> {
  const out = new Map<string, { name: string; node: AttrNode }>();
  for (const [name, child] of node.children) {
    const field = glueFieldName(name);
    const other = out.get(field);
    if (other)
      throw new AthenaMappingError(
        `attributes "${other.name}" and "${name}"`,
        `Attributes "${other.name}" and "${name}"${where ? ` in ${where}` : ''} both read as "${field}" in Athena, which ignores case and turns dots into underscores; one of them would be lost, so no Athena table is made.`,
      );
    out.set(field, { name, node: child });
  }
  return out;
}

/** A name in Athena (Trino) SQL: always double-quoted, so reserved words and odd characters are safe. */
export function q(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A string literal in Athena SQL. */
export function lit(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
