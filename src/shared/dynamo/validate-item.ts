import type { KeySchema } from '../ipc/tables';
import { typeOf, type AttributeValue, type Item } from './attribute-value';
import { base64ByteLength, formatBytes, itemSize, MAX_ITEM_BYTES, utf8Length } from './item-size';
import { canonicalNumber, numberProblem } from './number';
import { defineOwn, ownValue } from './proto-keys';
import { MAX_DEPTH } from './value-depth';
import { canonicalBase64 } from './value-equality';

export type PathSegment = string | number;

export interface ValidationIssue {
  /** Where the problem is: attribute name, then map keys / list indexes. Empty for the whole item. */
  path: PathSegment[];
  message: string;
}

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

function checkScalar(value: AttributeValue, path: PathSegment[], out: ValidationIssue[]): void {
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
}

/** Iterative, so that a value nested thousands of levels gets its sentence instead of a stack overflow. */
function checkValue(root: AttributeValue, rootPath: PathSegment[], out: ValidationIssue[]): void {
  const stack: { value: AttributeValue; path: PathSegment[]; depth: number }[] = [
    { value: root, path: rootPath, depth: 1 },
  ];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, path, depth } = next;
    if (depth > MAX_DEPTH) {
      out.push({ path, message: `Nested deeper than DynamoDB's limit of ${MAX_DEPTH} levels.` });
      continue;
    }
    if ('L' in value) {
      for (let i = value.L.length - 1; i >= 0; i--) {
        const member = value.L[i];
        if (member) stack.push({ value: member, path: [...path, i], depth: depth + 1 });
      }
    } else if ('M' in value) {
      const names = Object.keys(value.M);
      for (let i = names.length - 1; i >= 0; i--) {
        const name = names[i] ?? '';
        const member = value.M[name];
        if (member) stack.push({ value: member, path: [...path, name], depth: depth + 1 });
      }
    } else checkScalar(value, path, out);
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
  const value = ownValue(item, name);
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
    const value = ownValue(item, index.name);
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
    checkValue(value, [name], out);
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
  const pk = ownValue(item, keys.partitionKey.name);
  if (pk) defineOwn(key, keys.partitionKey.name, pk);
  if (keys.sortKey) {
    const sk = ownValue(item, keys.sortKey.name);
    if (sk) defineOwn(key, keys.sortKey.name, sk);
  }
  return key;
}
