import type { AttributeSchema, EntitySchema, SchemaReport, SchemaValueType } from '../ipc/schema';
import { parseSchemaPath } from './schema-paths';

/**
 * Models generated from what a read found (issue 15 item 2): a TypeScript type, a Zod schema and
 * a JSON Schema of the items as the SDK's unmarshall() gives them (numbers as number, sets as
 * Set, binary as Uint8Array). A path that some holders lack is optional; several types become a
 * union with a comment giving the counts.
 */
export interface Node {
  attribute?: AttributeSchema;
  children: Map<string, Node>;
  element?: Node;
}

export function treeOf(attributes: readonly AttributeSchema[]): Node {
  const root: Node = { children: new Map() };
  for (const a of attributes) {
    let node = root;
    for (const step of parseSchemaPath(a.path)) {
      if (step === -1) node = node.element ??= { children: new Map() };
      else {
        let child = node.children.get(step);
        if (!child) node.children.set(step, (child = { children: new Map() }));
        node = child;
      }
    }
    node.attribute = a;
  }
  return root;
}

export type Kind = 'ts' | 'zod' | 'json';

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const propName = (name: string) => (IDENT.test(name) ? name : JSON.stringify(name));

export function typeCountsComment(a: AttributeSchema): string {
  return Object.entries(a.types)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
}

function scalar(type: SchemaValueType, kind: Kind, node: Node, indent: string): string | object {
  const set = (inner: string, json: object) =>
    kind === 'ts'
      ? `Set<${inner}>`
      : kind === 'zod'
        ? `z.set(${inner})`
        : { type: 'array', uniqueItems: true, items: json };
  switch (type) {
    case 'S':
      return kind === 'ts' ? 'string' : kind === 'zod' ? 'z.string()' : { type: 'string' };
    case 'N':
      return kind === 'ts' ? 'number' : kind === 'zod' ? 'z.number()' : { type: 'number' };
    case 'B':
      return kind === 'ts'
        ? 'Uint8Array'
        : kind === 'zod'
          ? 'z.instanceof(Uint8Array)'
          : { type: 'string', contentEncoding: 'base64' };
    case 'BOOL':
      return kind === 'ts' ? 'boolean' : kind === 'zod' ? 'z.boolean()' : { type: 'boolean' };
    case 'NULL':
      return kind === 'ts' ? 'null' : kind === 'zod' ? 'z.null()' : { type: 'null' };
    case 'SS':
      return set(kind === 'ts' ? 'string' : 'z.string()', { type: 'string' });
    case 'NS':
      return set(kind === 'ts' ? 'number' : 'z.number()', { type: 'number' });
    case 'BS':
      return set(kind === 'ts' ? 'Uint8Array' : 'z.instanceof(Uint8Array)', {
        type: 'string',
        contentEncoding: 'base64',
      });
    case 'M':
      return objectOf(node, kind, indent, node.attribute?.types.M ?? 0);
    case 'L': {
      const element = node.element
        ? valueOf(node.element, kind, indent)
        : kind === 'json'
          ? {}
          : kind === 'ts'
            ? 'unknown'
            : 'z.unknown()';
      if (kind === 'json') return { type: 'array', items: element };
      return kind === 'ts' ? `Array<${element as string}>` : `z.array(${element as string})`;
    }
  }
}

export function valueOf(node: Node, kind: Kind, indent: string): string | object {
  const types = (Object.keys(node.attribute?.types ?? {}) as SchemaValueType[]).sort(
    (a, b) => (node.attribute?.types[b] ?? 0) - (node.attribute?.types[a] ?? 0),
  );
  if (types.length === 0) return kind === 'json' ? {} : kind === 'ts' ? 'unknown' : 'z.unknown()';
  const parts = types.map((t) => scalar(t, kind, node, indent));
  if (parts.length === 1) return parts[0] as string | object;
  if (kind === 'json') return { anyOf: parts };
  const texts = parts.map(String);
  return kind === 'ts' ? texts.join(' | ') : `z.union([${texts.join(', ')}])`;
}

/** `holders`: how many values hold this object (items for the root, M values for a map). */
function objectOf(node: Node, kind: Kind, indent: string, holders: number): string | object {
  const inner = `${indent}  `;
  const entries = [...node.children].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  if (kind === 'json') {
    const properties: Record<string, object> = Object.create(null) as Record<string, object>;
    const required: string[] = [];
    for (const [name, child] of entries) {
      Object.defineProperty(properties, name, {
        value: valueOf(child, kind, inner),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      if ((child.attribute?.values ?? 0) >= holders) required.push(name);
    }
    return { type: 'object', properties, required };
  }
  const lines = entries.map(([name, child]) => {
    const a = child.attribute;
    const optional = (a?.values ?? 0) < holders;
    const comment =
      a && Object.keys(a.types).length > 1 ? `${inner}/** Several types: ${typeCountsComment(a)}. */\n` : '';
    const value = valueOf(child, kind, inner) as string;
    if (kind === 'ts') return `${comment}${inner}${propName(name)}${optional ? '?' : ''}: ${value};`;
    return `${comment}${inner}${JSON.stringify(name)}: ${value}${optional ? '.optional()' : ''},`;
  });
  if (kind === 'ts') return `{\n${lines.join('\n')}\n${indent}}`;
  // Passthrough: a model of the attributes seen must not reject an item for one it did not see.
  const object = `z.looseObject({\n${lines.join('\n')}\n${indent}})`;
  // zod reads item[name]: an item without `constructor` would offer Object.prototype's. A copy
  // without a prototype has only the item's own names.
  return entries.some(([name]) => name in Object.prototype)
    ? `z.preprocess((v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.assign(Object.create(null), v) : v), ${object})`
    : object;
}

export const typeName = (name: string) => {
  const words = name
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const joined = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  const singular = joined.endsWith('ies') ? `${joined.slice(0, -3)}y` : joined.replace(/(?<!s)s$/, '');
  return /^[A-Za-z]/.test(singular) ? singular : `Item${singular}`;
};

export type ModelFormat = 'ts' | 'zod' | 'json-schema';

export interface ModelScope {
  name: string;
  items: number;
  attributes: AttributeSchema[];
}

export function scopeOf(report: SchemaReport, entity?: string): ModelScope {
  if (!entity) return { name: report.table, items: report.itemsScanned, attributes: report.attributes };
  const e: EntitySchema | undefined = report.entities.find((x) => x.name === entity);
  if (!e) throw new Error(`No entity named ${entity}.`);
  return { name: e.name, items: e.items, attributes: e.attributes };
}

export function generateModel(scope: ModelScope, format: ModelFormat, source: string): string {
  const root = treeOf(scope.attributes);
  const name = typeName(scope.name);
  const header = `// Generated by DynoTable from ${source}: ${scope.items} items of ${scope.name}.`;
  if (format === 'json-schema') {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: name,
      ...(objectOf(root, 'json', '', scope.items) as object),
    };
    return `${JSON.stringify(schema, null, 2)}\n`;
  }
  if (format === 'ts')
    return `${header}\nexport interface ${name} ${objectOf(root, 'ts', '', scope.items) as string}\n`;
  return `${header}\nimport { z } from 'zod';\n\nexport const ${name[0]?.toLowerCase()}${name.slice(1)}Schema = ${objectOf(root, 'zod', '', scope.items) as string};\n`;
}
