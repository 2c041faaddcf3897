import type { KeySchema } from '../ipc/tables';
import { typeOf, type AttributeValue, type Item } from './attribute-value';
import { base64ByteLength, formatBytes, itemSize, MAX_ITEM_BYTES, utf8Length } from './item-size';
import { canonicalNumber, numberProblem } from './number';
import { canonicalBase64 } from './value-equality';

export type PathSegment = string | number;

export interface ValidationIssue {
  /** Where the problem is: attribute name, then map keys / list indexes. Empty for the whole item. */
  path: PathSegment[];
  message: string;
}

/** DynamoDB nests lists and maps at most 32 levels deep. */
export const MAX_DEPTH = 32;
const MAX_PARTITION_KEY_BYTES = 2048;
const MAX_SORT_KEY_BYTES = 1024;

export interface ValidationOptions {
  keys: KeySchema;
  /** Index key attributes: DynamoDB refuses a write whose index key has another type or is empty. */
  indexKeys?: { name: string; type: 'S' | 'N' | 'B' }[];
}

function checkSet(
  path: PathSegment[],
  members: string[],
  canon: (s: string) => string,
  out: ValidationIssue[],
): void {
  if (members.length === 0) {
    out.push({ path, message: 'A set cannot be empty in DynamoDB: remove the attribute or add a member.' });
    return;
  }
  const seen = new Set<string>();
  for (const member of members) {
    const key = canon(member);
    if (seen.has(key))
      out.push({ path, message: `The set holds "${member}" twice; set members must be unique.` });
    seen.add(key);
  }
}

function checkValue(value: AttributeValue, path: PathSegment[], depth: number, out: ValidationIssue[]): void {
  if (depth > MAX_DEPTH) {
    out.push({ path, message: `Nested deeper than DynamoDB's limit of ${MAX_DEPTH} levels.` });
    return;
  }
  if ('N' in value) {
    const problem = numberProblem(value.N);
    if (problem) out.push({ path, message: `The number ${problem}.` });
  } else if ('NS' in value) {
    for (const member of value.NS) {
      const problem = numberProblem(member);
      if (problem) out.push({ path, message: `The set member ${problem}.` });
    }
    checkSet(path, value.NS, canonicalNumber, out);
  } else if ('SS' in value) checkSet(path, value.SS, (s) => s, out);
  else if ('BS' in value) checkSet(path, value.BS, canonicalBase64, out);
  else if ('L' in value) value.L.forEach((v, i) => checkValue(v, [...path, i], depth + 1, out));
  else if ('M' in value) {
    for (const [name, v] of Object.entries(value.M)) checkValue(v, [...path, name], depth + 1, out);
  }
}

function checkKey(
  item: Item,
  name: string,
  type: string,
  maxBytes: number,
  role: string,
  out: ValidationIssue[],
): void {
  const value = item[name];
  if (!value) {
    out.push({ path: [name], message: `The ${role} "${name}" is required.` });
    return;
  }
  const actual = typeOf(value);
  if (actual !== type) {
    out.push({ path: [name], message: `The ${role} "${name}" must be of type ${type}, not ${actual}.` });
    return;
  }
  const bytes = 'S' in value ? utf8Length(value.S) : 'B' in value ? base64ByteLength(value.B) : 1;
  if (bytes === 0) out.push({ path: [name], message: `The ${role} "${name}" cannot be empty.` });
  if (bytes > maxBytes)
    out.push({ path: [name], message: `The ${role} "${name}" is longer than ${maxBytes} bytes.` });
}

/** Everything DynamoDB would refuse, found before anything is sent, each at its place. */
export function validateItem(item: Item, options: ValidationOptions): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const { partitionKey, sortKey } = options.keys;
  checkKey(item, partitionKey.name, partitionKey.type, MAX_PARTITION_KEY_BYTES, 'partition key', out);
  if (sortKey) checkKey(item, sortKey.name, sortKey.type, MAX_SORT_KEY_BYTES, 'sort key', out);
  for (const index of options.indexKeys ?? []) {
    const value = item[index.name];
    if (!value) continue;
    const actual = typeOf(value);
    if (actual !== index.type) {
      out.push({
        path: [index.name],
        message: `"${index.name}" keys an index, so it must be of type ${index.type}, not ${actual}.`,
      });
    } else if (('S' in value && value.S === '') || ('B' in value && value.B === '')) {
      out.push({ path: [index.name], message: `"${index.name}" keys an index, so it cannot be empty.` });
    }
  }
  for (const [name, value] of Object.entries(item)) {
    if (name === '') out.push({ path: [name], message: 'An attribute name cannot be empty.' });
    checkValue(value, [name], 1, out);
  }
  const size = itemSize(item);
  if (size > MAX_ITEM_BYTES) {
    out.push({
      path: [],
      message: `The item is ${formatBytes(size)}; DynamoDB's limit is 400 KB (names included).`,
    });
  }
  return out;
}

export function formatPath(path: PathSegment[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** The key attributes of an item, for Key parameters. */
export function keyOf(item: Item, keys: KeySchema): Item {
  const key: Item = {};
  const pk = item[keys.partitionKey.name];
  if (pk) key[keys.partitionKey.name] = pk;
  if (keys.sortKey) {
    const sk = item[keys.sortKey.name];
    if (sk) key[keys.sortKey.name] = sk;
  }
  return key;
}
