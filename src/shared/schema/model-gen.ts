import { parseDecimal } from '../dynamo/number';
import type { AttributeSchema, EntitySchema, SchemaReport, SchemaValueType } from '../ipc/schema';
import { parseSchemaPath } from './schema-paths';

/**
 * Models generated from what a read found (issue 15 item 2): a TypeScript type, a Zod schema and
 * a JSON Schema of the items as the SDK's unmarshall() gives them (numbers as number, sets as
 * Set, binary as Uint8Array). A path that some holders lack is optional; several types become a
 * union with a comment giving the counts. Numbers a double cannot hold are never typed `number`:
 * unmarshall() gives integers past 2^53 as bigint, and a model whose numbers carry more digits
 * than a double keeps is for items read with `wrapNumbers: true` (every number a NumberValue).
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

/** How the model's items were read: numbers as unmarshall() gives them, or all as NumberValue. */
export type NumberForm = 'plain' | 'wrapped';

/** A number text a double would change: past 2^53, or more significant digits than it keeps. */
function isBeyondDouble(text: string): boolean {
  const parts = parseDecimal(text);
  if (!parts || parts.digits === '') return false;
  const isInteger = parts.exponent >= parts.digits.length - 1;
  return isInteger ? !Number.isSafeInteger(Number(text)) : parts.digits.length > 15;
}

/** The path's numbers go beyond a double (seen at its smallest or largest value). */
export function holdsWideNumbers(a: AttributeSchema | undefined): boolean {
  return a?.number !== undefined && (isBeyondDouble(a.number.min) || isBeyondDouble(a.number.max));
}

const isIntegersOnly = (a: AttributeSchema | undefined) =>
  a?.number !== undefined && a.number.integers === a.number.count;

function numberType(kind: Kind, a: AttributeSchema | undefined, numbers: NumberForm): string | object {
  const isWide = holdsWideNumbers(a);
  if (kind === 'json') {
    return isWide
      ? {
          type: isIntegersOnly(a) ? 'integer' : 'number',
          description:
            'Holds numbers past what a double keeps exactly (DynamoDB keeps 38 digits): read this JSON with a parser that keeps numbers exact.',
        }
      : { type: 'number' };
  }
  if (numbers === 'wrapped') return kind === 'ts' ? 'NumberValue' : 'z.instanceof(NumberValueImpl)';
  if (isWide && isIntegersOnly(a))
    return kind === 'ts' ? 'number | bigint' : 'z.union([z.number(), z.bigint()])';
  return kind === 'ts' ? 'number' : 'z.number()';
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const propName = (name: string) => (IDENT.test(name) ? name : JSON.stringify(name));
/**
 * A key of a JavaScript object literal (the Zod and dynotable-orm models): `__proto__`, bare or
 * quoted, would set the object's prototype and drop the attribute, so it is computed.
 */
export const literalKey = (name: string): string =>
  name === '__proto__' ? '["__proto__"]' : IDENT.test(name) ? name : JSON.stringify(name);

export function typeCountsComment(a: AttributeSchema): string {
  return Object.entries(a.types)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
}

function scalar(
  type: SchemaValueType,
  kind: Kind,
  node: Node,
  indent: string,
  numbers: NumberForm,
): string | object {
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
      return numberType(kind, node.attribute, numbers);
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
    case 'NS': {
      const member = numberType(kind, node.attribute, numbers);
      return set(typeof member === 'string' ? member : '', member as object);
    }
    case 'BS':
      return set(kind === 'ts' ? 'Uint8Array' : 'z.instanceof(Uint8Array)', {
        type: 'string',
        contentEncoding: 'base64',
      });
    case 'M':
      return objectOf(node, kind, indent, node.attribute?.types.M ?? 0, numbers);
    case 'L': {
      const element = node.element
        ? valueOf(node.element, kind, indent, numbers)
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

export function valueOf(
  node: Node,
  kind: Kind,
  indent: string,
  numbers: NumberForm = 'plain',
): string | object {
  const types = (Object.keys(node.attribute?.types ?? {}) as SchemaValueType[]).sort(
    (a, b) => (node.attribute?.types[b] ?? 0) - (node.attribute?.types[a] ?? 0),
  );
  if (types.length === 0) return kind === 'json' ? {} : kind === 'ts' ? 'unknown' : 'z.unknown()';
  const parts = types.map((t) => scalar(t, kind, node, indent, numbers));
  if (parts.length === 1) return parts[0] as string | object;
  if (kind === 'json') return { anyOf: parts };
  const texts = parts.map(String);
  return kind === 'ts' ? texts.join(' | ') : `z.union([${texts.join(', ')}])`;
}

/** `holders`: how many values hold this object (items for the root, M values for a map). */
function objectOf(
  node: Node,
  kind: Kind,
  indent: string,
  holders: number,
  numbers: NumberForm,
): string | object {
  const inner = `${indent}  `;
  const entries = [...node.children].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  if (kind === 'json') {
    const properties: Record<string, object> = Object.create(null) as Record<string, object>;
    const required: string[] = [];
    for (const [name, child] of entries) {
      Object.defineProperty(properties, name, {
        value: valueOf(child, kind, inner, numbers),
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
    const value = valueOf(child, kind, inner, numbers) as string;
    if (kind === 'ts') return `${comment}${inner}${propName(name)}${optional ? '?' : ''}: ${value};`;
    return `${comment}${inner}${literalKey(name)}: ${value}${optional ? '.optional()' : ''},`;
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
  const wide = scope.attributes.filter((a) => holdsWideNumbers(a));
  const numbers: NumberForm = wide.some((a) => !isIntegersOnly(a)) ? 'wrapped' : 'plain';
  if (format === 'json-schema') {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: name,
      ...(objectOf(root, 'json', '', scope.items, numbers) as object),
    };
    return `${JSON.stringify(schema, null, 2)}\n`;
  }
  const paths = wide.map((a) => a.path).join(', ');
  const header = [
    `// Generated by DynoTable from ${source}: ${scope.items} items of ${scope.name}.`,
    ...(numbers === 'wrapped'
      ? [
          `// ${paths} hold numbers with more digits than a JS number keeps: read items with`,
          '// unmarshall(item, { wrapNumbers: true }), which gives every number as a NumberValue (.value is its exact text).',
          format === 'ts'
            ? "import type { NumberValue } from '@aws-sdk/util-dynamodb';"
            : "import { NumberValueImpl } from '@aws-sdk/util-dynamodb';",
        ]
      : wide.length > 0
        ? [`// ${paths} hold integers past 2^53, which unmarshall() gives as bigint.`]
        : []),
  ].join('\n');
  if (format === 'ts')
    return `${header}\nexport interface ${name} ${objectOf(root, 'ts', '', scope.items, numbers) as string}\n`;
  return `${header}\nimport { z } from 'zod';\n\nexport const ${name[0]?.toLowerCase()}${name.slice(1)}Schema = ${objectOf(root, 'zod', '', scope.items, numbers) as string};\n`;
}
