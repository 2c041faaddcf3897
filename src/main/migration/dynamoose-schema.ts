import { Parser, type Expression, type ObjectExpression, type Options, type Property } from 'acorn';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type {
  DynamooseAttribute,
  DynamooseModel,
  DynamooseSettings,
} from '../../shared/ipc/migration-dynamoose';

/**
 * A dynamoose schema file read as text, never run (a pipeline must not execute a file to decide
 * whether a table may be migrated): every `Schema(` call's definition and options are parsed as
 * JavaScript expressions (acorn) and interpreted as dynamoose 0.8 → 4.x read them. Anything that
 * is not a literal (a variable, a spread of something defined elsewhere, a function's result) is
 * named as unread instead of guessed. `model("Name", schema)` and `new Table(name, [Model], {expires})`
 * give the names and the v3+ table settings.
 */

const SCHEMA_CALL = /\b(?:new\s+)?(?:[A-Za-z_$][\w$]*\.)?Schema\s*\(/g;
const BASE_TYPES = new Set(['String', 'Number', 'Boolean', 'Date', 'Object', 'Array', 'Buffer', 'Set']);

export function readDynamooseSchema(text: string, fileName: string): DynamooseModel[] {
  const models: DynamooseModel[] = [];
  for (const match of text.matchAll(SCHEMA_CALL)) {
    // The whole call, so its arguments come out as the parser sees them (trailing commas included).
    const call = parseAt(text, match.index, fileName);
    if (call.type !== 'NewExpression' && call.type !== 'CallExpression') continue;
    const [definition, second] = call.arguments;
    if (definition?.type !== 'ObjectExpression') continue; // Schema(otherSchema) or a variable: not a definition
    const options = second?.type === 'ObjectExpression' ? second : undefined;
    const unread: string[] = [];
    const attributes = attributesOf(definition, '', unread);
    models.push({
      name: modelNameOf(text, match.index) ?? `schema ${models.length + 1}`,
      attributes,
      settings: settingsOf(options, unread),
      unread,
    });
  }
  if (models.length === 0)
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `${fileName} has no dynamoose Schema({...}) with its attributes written out: DynoTable reads the definition as text and does not run the file.`,
    );
  const tableExpires = tableExpiresOf(text, fileName);
  if (tableExpires) for (const model of models) model.settings.expires ??= tableExpires;
  return models;
}

/** acorn's own parser internals (what parseExpressionAt calls), minus the comma: one expression. */
interface ParserInternals {
  nextToken(): void;
  parseMaybeAssign(): Expression;
}
const OPTIONS: Options = { ecmaVersion: 'latest', sourceType: 'module' };

/**
 * One expression at `at`: parseExpressionAt would read `Schema({…}), next` as a comma sequence and
 * fail on the `)` of `model('Post', new Schema({…}),\n)`.
 */
function oneExpressionAt(text: string, at: number): Expression {
  const Internal = Parser as unknown as new (options: Options, input: string, pos: number) => ParserInternals;
  const parser = new Internal(OPTIONS, text, at);
  parser.nextToken();
  return parser.parseMaybeAssign();
}

function parseAt(text: string, at: number, fileName: string, quiet?: false): Expression;
function parseAt(text: string, at: number, fileName: string, quiet: true): Expression | undefined;
function parseAt(text: string, at: number, fileName: string, quiet = false): Expression | undefined {
  try {
    return oneExpressionAt(text, at);
  } catch (error) {
    if (quiet) return undefined;
    const where = (error as { loc?: { line: number; column: number } }).loc;
    const place = where ? ` at line ${where.line}, column ${where.column + 1}` : '';
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `${fileName} could not be read${place}: DynoTable reads a Schema({...}) definition as JavaScript text without running it, and TypeScript syntax inside the definition (type annotations, \`as\`) is not read. ${(error as Error).message}.`,
    );
  }
}

/** `const UserSchema = new Schema(` … `model("User", UserSchema` — or `model("User", new Schema(`. */
function modelNameOf(text: string, schemaAt: number): string | undefined {
  const before = text.slice(Math.max(0, schemaAt - 200), schemaAt);
  const inline = /model\(\s*(['"`])([^'"`]{1,200})\1\s*,\s*$/.exec(before);
  if (inline) return inline[2];
  const variable = /(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*$/.exec(before)?.[1];
  if (!variable) return undefined;
  const named = new RegExp(String.raw`model\(\s*(['"\`])([^'"\`]{1,200})\1\s*,\s*${variable}\b`).exec(text);
  return named?.[2];
}

function keyName(property: Property): string | undefined {
  if (property.computed) return undefined;
  const key = property.key;
  if (key.type === 'Identifier') return key.name;
  if (key.type === 'Literal' && (typeof key.value === 'string' || typeof key.value === 'number'))
    return String(key.value);
  return undefined;
}

/** The properties of an object literal by name; spreads and computed names are reported unread. */
function propertiesOf(object: ObjectExpression, where: string, unread: string[]): Map<string, Expression> {
  const out = new Map<string, Expression>();
  for (const property of object.properties) {
    if (property.type === 'SpreadElement') {
      unread.push(`${where || 'the definition'}: a spread (...${describe(property.argument)})`);
      continue;
    }
    const name = keyName(property);
    if (name === undefined) {
      unread.push(`${where || 'the definition'}: a computed attribute name`);
      continue;
    }
    out.set(name, property.value);
  }
  return out;
}

function describe(node: Expression): string {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression')
    return `${describe(node.object as Expression)}.${node.property.type === 'Identifier' ? node.property.name : '…'}`;
  return node.type;
}

function attributesOf(object: ObjectExpression, prefix: string, unread: string[]): DynamooseAttribute[] {
  const out: DynamooseAttribute[] = [];
  for (const [name, value] of propertiesOf(object, prefix, unread)) {
    const path = prefix ? `${prefix}.${name}` : name;
    out.push(attributeOf(name, path, value, unread));
  }
  return out;
}

function literalString(node: Expression | undefined): string | undefined {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0)
    return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

function literalBoolean(node: Expression | undefined): boolean | undefined {
  return node?.type === 'Literal' && typeof node.value === 'boolean' ? node.value : undefined;
}

function literalNumber(node: Expression | undefined): number | undefined {
  return node?.type === 'Literal' && typeof node.value === 'number' ? node.value : undefined;
}

function stringList(node: Expression | undefined): string[] | undefined {
  if (node?.type !== 'ArrayExpression') {
    const one = literalString(node);
    return one === undefined ? undefined : [one];
  }
  const out: string[] = [];
  for (const element of node.elements) {
    const text = element && element.type !== 'SpreadElement' ? literalString(element) : undefined;
    if (text === undefined) return undefined;
    out.push(text);
  }
  return out;
}

function lastName(node: Expression): string | undefined {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression' && node.property.type === 'Identifier') return node.property.name;
  return undefined;
}

/** The type part of a definition: `String`, `[String]`, `dynamoose.type.COMBINE(...)`, `{value, settings}`. */
function typeOf(node: Expression, attribute: DynamooseAttribute, unread: string[]): void {
  if (node.type === 'ArrayExpression') {
    // `[String]`: 0.x and 1.x stored a set (SS/NS), 2.x and later a list.
    attribute.type = 'Array';
    attribute.arrayShorthand = true;
    const element = node.elements[0];
    if (element && element.type !== 'SpreadElement') attribute.element = lastName(element) ?? 'Object';
    return;
  }
  if (node.type === 'ObjectExpression') {
    const parts = propertiesOf(node, attribute.path, unread);
    const value = parts.get('value');
    const settings = parts.get('settings');
    const named = value
      ? (literalString(value) ?? (value.type !== 'ObjectExpression' ? lastName(value) : undefined))
      : undefined;
    if (!named) {
      unread.push(`${attribute.path}: a type written as an object without a value`);
      return;
    }
    attribute.type = normalType(named);
    if (settings?.type === 'ObjectExpression') {
      const s = propertiesOf(settings, attribute.path, unread);
      const storage = literalString(s.get('storage'));
      if (storage) attribute.dateStorage = storageOf(storage);
      const sources = stringList(s.get('attributes'));
      if (attribute.type === 'Combine' && sources)
        attribute.combine = { attributes: sources, separator: literalString(s.get('separator')) ?? ',' };
      const constant = s.get('value');
      if (attribute.type === 'Constant' && constant) attribute.constant = literalText(constant);
    }
    return;
  }
  if (node.type === 'CallExpression' || node.type === 'NewExpression') {
    const called = lastName(node.callee as Expression);
    const args = node.arguments.filter((a): a is Expression => a.type !== 'SpreadElement');
    if (called === 'COMBINE') {
      attribute.type = 'Combine';
      const sources = stringList(args[0]);
      if (sources) attribute.combine = { attributes: sources, separator: literalString(args[1]) ?? ',' };
      else unread.push(`${attribute.path}: the Combine's attribute list is not written out`);
      return;
    }
    if (called === 'CONSTANT') {
      attribute.type = 'Constant';
      if (args[0]) attribute.constant = literalText(args[0]);
      return;
    }
    unread.push(`${attribute.path}: a type made by ${called ?? 'a call'}()`);
    return;
  }
  const named = lastName(node) ?? literalString(node);
  if (named) attribute.type = normalType(named);
  else unread.push(`${attribute.path}: a type DynoTable cannot read without running the file`);
}

function literalText(node: Expression): string | undefined {
  if (node.type === 'Literal') return node.value === null ? 'null' : String(node.value);
  return undefined;
}

function normalType(name: string): string {
  const lower = name.toLowerCase();
  if (lower === 'combine') return 'Combine';
  if (lower === 'constant') return 'Constant';
  if (lower === 'any') return 'Any';
  if (lower === 'null') return 'Null';
  if (name === 'THIS' || lower === 'this') return 'Object';
  const base = [...BASE_TYPES].find((t) => t.toLowerCase() === lower);
  return base ?? name;
}

function storageOf(text: string): DynamooseAttribute['dateStorage'] {
  if (text === 'iso') return 'iso';
  if (text === 'seconds') return 'seconds';
  return 'millis';
}

function attributeOf(name: string, path: string, node: Expression, unread: string[]): DynamooseAttribute {
  const attribute: DynamooseAttribute = {
    name,
    path,
    type: 'Unknown',
    required: false,
    aliases: [],
    hasGet: false,
    hasSet: false,
  };
  if (node.type !== 'ObjectExpression' || !propertiesOf(node, path, []).has('type')) {
    // `name: String`, `[String]`, `dynamoose.type.COMBINE(...)`, or a nested plain object (v0.x: an Object with that schema).
    if (node.type === 'ObjectExpression') {
      attribute.type = 'Object';
      attribute.children = attributesOf(node, path, unread);
    } else typeOf(node, attribute, unread);
    return attribute;
  }
  const settings = propertiesOf(node, path, unread);
  typeOf(settings.get('type') as Expression, attribute, unread);
  attribute.required = literalBoolean(settings.get('required')) ?? false;
  if (literalBoolean(settings.get('hashKey'))) attribute.key = 'hash';
  if (literalBoolean(settings.get('rangeKey'))) attribute.key = 'range';
  for (const setting of ['alias', 'aliases', 'map'])
    attribute.aliases.push(...(stringList(settings.get(setting)) ?? []));
  attribute.hasGet = settings.has('get');
  attribute.hasSet = settings.has('set');
  const storage = literalString(settings.get('storage'));
  if (storage) attribute.dateStorage = storageOf(storage);
  const schema = settings.get('schema');
  if (schema?.type === 'ObjectExpression') attribute.children = attributesOf(schema, path, unread);
  else if (schema?.type === 'ArrayExpression') {
    const element = schema.elements[0];
    if (element && element.type !== 'SpreadElement') attribute.element = lastName(element) ?? 'Object';
  }
  return attribute;
}

function settingsOf(options: ObjectExpression | undefined, unread: string[]): DynamooseSettings {
  const settings: DynamooseSettings = {};
  if (!options) return settings;
  const o = propertiesOf(options, 'the schema options', unread);
  const timestamps = o.get('timestamps');
  if (literalBoolean(timestamps) === true)
    settings.timestamps = { createdAt: 'createdAt', updatedAt: 'updatedAt' };
  else if (timestamps?.type === 'ObjectExpression') {
    const t = propertiesOf(timestamps, 'timestamps', unread);
    settings.timestamps = {};
    for (const which of ['createdAt', 'updatedAt'] as const) {
      const value = t.get(which);
      const named = literalString(value);
      if (named) settings.timestamps[which] = named;
      if (value?.type !== 'ObjectExpression') continue;
      // v3+: `createdAt: {created_at: {type: {value: Date, settings: {storage: 'iso'}}}}`.
      const [first] = propertiesOf(value, which, unread);
      if (!first) continue;
      settings.timestamps[which] = first[0];
      const storage = attributeOf(first[0], first[0], first[1], unread).dateStorage;
      if (storage && storage !== 'millis') settings.timestamps[`${which}Storage`] = storage;
    }
  }
  const saveUnknown = o.get('saveUnknown');
  if (literalBoolean(saveUnknown) !== undefined) settings.saveUnknown = literalBoolean(saveUnknown);
  else if (saveUnknown) settings.saveUnknown = stringList(saveUnknown) ?? true;
  for (const flag of ['useNativeBooleans', 'useDocumentTypes'] as const) {
    const value = literalBoolean(o.get(flag));
    if (value !== undefined) settings[flag] = value;
  }
  const expires = expiresOf(o.get('expires'), unread);
  if (expires) settings.expires = expires;
  return settings;
}

function expiresOf(node: Expression | undefined, unread: string[]): DynamooseSettings['expires'] {
  if (!node) return undefined;
  const seconds = literalNumber(node);
  if (seconds !== undefined) return { attribute: 'expires', ttl: seconds };
  if (node.type !== 'ObjectExpression') return undefined;
  const e = propertiesOf(node, 'expires', unread);
  const items = e.get('items');
  const returnExpired =
    literalBoolean(e.get('returnExpired')) ??
    (items?.type === 'ObjectExpression'
      ? literalBoolean(propertiesOf(items, 'expires.items', unread).get('returnExpired'))
      : undefined);
  return {
    attribute: literalString(e.get('attribute')) ?? 'expires',
    ...(literalNumber(e.get('ttl')) !== undefined ? { ttl: literalNumber(e.get('ttl')) } : {}),
    ...(returnExpired !== undefined ? { returnExpired } : {}),
  };
}

/** v3+: `new dynamoose.Table("name", [Model], { expires: … })` holds the TTL setting. */
function tableExpiresOf(text: string, fileName: string): DynamooseSettings['expires'] {
  for (const match of text.matchAll(/\bnew\s+(?:[A-Za-z_$][\w$]*\.)?Table\s*\(/g)) {
    const call = parseAt(text, match.index, fileName, true);
    if (call?.type !== 'NewExpression') continue;
    const options = call.arguments[2];
    if (options?.type === 'ObjectExpression') {
      const expires = expiresOf(propertiesOf(options, 'table options', []).get('expires'), []);
      if (expires) return expires;
    }
  }
  return undefined;
}
