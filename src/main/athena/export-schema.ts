import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import { compareNumbers, parseDecimal } from '../../shared/dynamo/number';
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
  /**
   * The numbers seen at this path (N values and NS members), when they were all read: the export's
   * own files. Athena's column type for them is chosen from these; without them it is a guess.
   */
  numbers?: NumberRange;
}

/** What a DECIMAL needs to hold every number seen: its widest whole and fractional parts, in digits. */
export interface NumberRange {
  /** Digits before the point of the largest magnitude (0 for a number below 1). */
  integer: number;
  /** Digits after the point of the finest number. */
  fraction: number;
  min: string;
  max: string;
  /** How many numbers were seen: a SUM of them has at most this many times the largest. */
  count: number;
}

/** The digits before and after the point that one DynamoDB number needs, written plainly. */
export function numberDigits(text: string): { integer: number; fraction: number } {
  const parts = parseDecimal(text);
  if (!parts || parts.digits === '') return { integer: 0, fraction: 0 };
  return {
    integer: Math.max(0, parts.exponent + 1),
    fraction: Math.max(0, parts.digits.length - 1 - parts.exponent),
  };
}

function seeNumber(node: AttrNode, text: string): void {
  const { integer, fraction } = numberDigits(text);
  const range = node.numbers;
  if (!range) {
    node.numbers = { integer, fraction, min: text, max: text, count: 1 };
    return;
  }
  range.integer = Math.max(range.integer, integer);
  range.fraction = Math.max(range.fraction, fraction);
  if (compareNumbers(text, range.min) < 0) range.min = text;
  if (compareNumbers(text, range.max) > 0) range.max = text;
  range.count += 1;
}

function seeValue(node: AttrNode, value: AttributeValue): void {
  if ('N' in value) {
    node.types.add('N');
    seeNumber(node, value.N);
  } else if ('NS' in value) {
    node.types.add('NS');
    for (const n of value.NS) seeNumber(node, n);
  } else if ('L' in value) {
    node.types.add('L');
    node.element ??= emptyNode();
    for (const element of value.L) seeValue(node.element, element);
  } else if ('M' in value) {
    node.types.add('M');
    seeMap(node, value.M);
  } else {
    node.types.add(Object.keys(value)[0] as SchemaValueType);
  }
}

function seeMap(node: AttrNode, map: Record<string, AttributeValue>): void {
  for (const name of Object.keys(map)) {
    let child = node.children.get(name);
    if (!child) {
      child = emptyNode();
      node.children.set(name, child);
    }
    seeValue(child, map[name]!);
  }
}

/**
 * What a whole export holds, item by item: every attribute any item has (none can be missed, as
 * a sample can miss one) and every number's digits. Feed it each item of the export's files.
 */
export class ExportObserver {
  readonly root: AttrNode = emptyNode();
  items = 0;

  constructor() {
    this.root.types.add('M');
  }

  see(item: Item): void {
    this.items += 1;
    seeMap(this.root, item);
  }
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
