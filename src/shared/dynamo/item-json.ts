import type { AttributeValue, Item } from './attribute-value';
import { failAt, parseJsonText, type JsonNode } from './json-text';
import { numberProblem } from './number';
import { defineOwn } from './proto-keys';

/**
 * The editor's two text views. DynamoDB JSON keeps every type; plain JSON is offered only when
 * it is unambiguous (no sets, no binary), and its numbers keep their digits because the parser
 * hands over the literal text.
 */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function tagged(text: string, node: JsonNode): AttributeValue {
  const entry = node.kind === 'object' && node.entries.length === 1 ? node.entries[0] : undefined;
  if (!entry) return failAt(text, node.at, 'Expected a typed value like {"S": "text"} or {"N": "42"}');
  const { key, value } = entry;
  const strings = (what: string): string[] => {
    if (value.kind !== 'array') return failAt(text, value.at, `${key} takes a list of ${what}`);
    return value.items.map((m) => scalar(m, what));
  };
  const scalar = (n: JsonNode, what: string): string => {
    if (n.kind === 'string') return n.value;
    if (n.kind === 'number' && what === 'numbers') return n.text;
    return failAt(
      text,
      n.at,
      `Expected ${what === 'numbers' ? 'a number in quotes' : what === 'base64' ? 'base64 text' : 'a string'}`,
    );
  };
  const number = (n: JsonNode): string => {
    const digits = scalar(n, 'numbers');
    const problem = numberProblem(digits);
    return problem ? failAt(text, n.at, `The number ${problem}`) : digits;
  };
  const binary = (n: JsonNode): string => {
    const b = scalar(n, 'base64');
    return BASE64.test(b) ? b : failAt(text, n.at, 'Binary values are written as base64');
  };
  switch (key) {
    case 'S':
      return { S: scalar(value, 'string') };
    case 'N':
      return { N: number(value) };
    case 'B':
      return { B: binary(value) };
    case 'BOOL':
      return value.kind === 'boolean'
        ? { BOOL: value.value }
        : failAt(text, value.at, 'BOOL takes true or false');
    case 'NULL':
      return value.kind === 'boolean' && value.value
        ? { NULL: true }
        : failAt(text, value.at, 'NULL takes true');
    case 'SS':
      return { SS: strings('strings') };
    case 'NS':
      if (value.kind !== 'array') return failAt(text, value.at, 'NS takes a list of numbers');
      return { NS: value.items.map(number) };
    case 'BS':
      if (value.kind !== 'array') return failAt(text, value.at, 'BS takes a list of base64 values');
      return { BS: value.items.map(binary) };
    case 'L':
      if (value.kind !== 'array') return failAt(text, value.at, 'L takes a list of typed values');
      return { L: value.items.map((v) => tagged(text, v)) };
    case 'M':
      return { M: taggedMap(text, value) };
    default:
      return failAt(
        text,
        entry.at,
        `"${key}" is not a DynamoDB type (S, N, B, BOOL, NULL, L, M, SS, NS, BS)`,
      );
  }
}

function taggedMap(text: string, node: JsonNode): Item {
  if (node.kind !== 'object') return failAt(text, node.at, 'Expected an object of attributes');
  const out: Item = {};
  for (const entry of node.entries) defineOwn(out, entry.key, tagged(text, entry.value));
  return out;
}

/** Parses the DynamoDB-JSON view; throws JsonTextError with line and column. */
export function parseDynamoJson(text: string): Item {
  return taggedMap(text, parseJsonText(text));
}

export function formatDynamoJson(item: Item): string {
  return JSON.stringify(item, null, 2);
}

/** Why the item has no plain JSON form, or undefined when it has one. */
export function plainJsonObstacle(item: Item): string | undefined {
  const visit = (value: AttributeValue, path: string): string | undefined => {
    if ('SS' in value || 'NS' in value || 'BS' in value)
      return `"${path}" is a set, which plain JSON cannot tell from a list`;
    if ('B' in value) return `"${path}" is binary, which plain JSON cannot tell from a string`;
    if ('L' in value) {
      for (const [i, v] of value.L.entries()) {
        const found = visit(v, `${path}[${i}]`);
        if (found) return found;
      }
    }
    if ('M' in value) {
      for (const [k, v] of Object.entries(value.M)) {
        const found = visit(v, `${path}.${k}`);
        if (found) return found;
      }
    }
    return undefined;
  };
  for (const [name, value] of Object.entries(item)) {
    const found = visit(value, name);
    if (found) return found;
  }
  return undefined;
}

/** JSON's number grammar is stricter than DynamoDB's (".5", "1.", "+1"); same value, JSON spelling. */
export function jsonNumber(text: string): string {
  let t = text.trim().replace(/^\+/, '');
  t = t.replace(/^(-?)\./, '$10.').replace(/\.(?=[eE]|$)/, '');
  return t.replace(/^(-?)0+(?=\d)/, '$1');
}

/**
 * A value as one line of plain JSON for exports and the CLI: numbers as their exact decimal text
 * (a 38-digit number survives `| jq`), lists and sets as arrays, maps as objects, binary as its
 * base64 text, NULL as null. Unlike the editor's plain view it never refuses a value: an export
 * that does not come back typed (the typed formats are DynamoDB JSON, JSON Lines and CSV).
 */
export function plainJsonValue(value: AttributeValue): string {
  if ('S' in value) return JSON.stringify(value.S);
  if ('N' in value) return jsonNumber(value.N);
  if ('BOOL' in value) return value.BOOL ? 'true' : 'false';
  if ('NULL' in value) return 'null';
  if ('B' in value) return JSON.stringify(value.B);
  if ('L' in value) return `[${value.L.map(plainJsonValue).join(',')}]`;
  if ('M' in value) return plainJsonObject(value.M, Object.keys(value.M));
  if ('SS' in value) return JSON.stringify(value.SS);
  if ('BS' in value) return JSON.stringify(value.BS);
  return `[${value.NS.map(jsonNumber).join(',')}]`;
}

/** The named attributes of `item` as one plain JSON object; a name it lacks is null. */
export function plainJsonObject(item: Item, names: readonly string[]): string {
  return `{${names
    .map((name) => {
      const value = Object.hasOwn(item, name) ? item[name] : undefined;
      return `${JSON.stringify(name)}:${value ? plainJsonValue(value) : 'null'}`;
    })
    .join(',')}}`;
}

function plainText(value: AttributeValue, level: number): string {
  const pad = '  '.repeat(level + 1);
  const end = '  '.repeat(level);
  if ('S' in value) return JSON.stringify(value.S);
  if ('N' in value) return jsonNumber(value.N);
  if ('BOOL' in value) return String(value.BOOL);
  if ('NULL' in value) return 'null';
  if ('L' in value)
    return value.L.length === 0
      ? '[]'
      : `[\n${value.L.map((v) => pad + plainText(v, level + 1)).join(',\n')}\n${end}]`;
  if ('M' in value) return plainObject(value.M, level);
  throw new Error('A set or binary value has no plain JSON form.');
}

function plainObject(item: Item, level: number): string {
  const entries = Object.entries(item);
  if (entries.length === 0) return '{}';
  const pad = '  '.repeat(level + 1);
  return `{\n${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${plainText(v, level + 1)}`).join(',\n')}\n${'  '.repeat(level)}}`;
}

export function formatPlainJson(item: Item): string {
  return plainObject(item, 0);
}

export function fromPlain(text: string, node: JsonNode): AttributeValue {
  switch (node.kind) {
    case 'string':
      return { S: node.value };
    case 'number': {
      const problem = numberProblem(node.text);
      return problem ? failAt(text, node.at, `The number ${problem}`) : { N: node.text };
    }
    case 'boolean':
      return { BOOL: node.value };
    case 'null':
      return { NULL: true };
    case 'array':
      return { L: node.items.map((v) => fromPlain(text, v)) };
    case 'object': {
      const out: Item = {};
      for (const entry of node.entries) defineOwn(out, entry.key, fromPlain(text, entry.value));
      return { M: out };
    }
  }
}

/** Parses the plain JSON view: strings → S, numbers → N (digits kept), arrays → L, objects → M. */
export function parsePlainJson(text: string): Item {
  const root = parseJsonText(text);
  if (root.kind !== 'object') return failAt(text, root.at, 'An item is a JSON object');
  return (fromPlain(text, root) as { M: Item }).M;
}
