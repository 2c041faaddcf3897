import { type dom, loadAll } from 'ion-js';
import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import { AppFailure, ErrorCodes } from '../../shared/errors';

/**
 * An export in Amazon Ion, as the DynamoDB developer guide documents it ("DynamoDB table export
 * output format", Amazon Ion): one `$ion_1_0 {Item:{...}}` a line; strings are Ion strings,
 * numbers Ion decimals (`103.`, `2d3`), binary blobs, maps structs, lists lists, NULL a null,
 * and sets lists annotated `$dynamodb_SS`, `$dynamodb_NS` or `$dynamodb_BS`. Parsed by ion-js
 * (Amazon's own reader), never by hand: Ion's text has more spellings than the export uses.
 */
const SETS: Record<string, 'SS' | 'NS' | 'BS'> = {
  $dynamodb_SS: 'SS',
  $dynamodb_NS: 'NS',
  $dynamodb_BS: 'BS',
};

function unexpected(what: string): never {
  throw new AppFailure(
    ErrorCodes.invalidInput,
    `The Ion export holds ${what}, which is not in DynamoDB's Ion export format.`,
  );
}

/** An Ion number as DynamoDB's decimal text: the export writes decimals, an int is read too. */
function ionNumber(v: dom.Value): string {
  const type = v.getType().name;
  if (type === 'int') return String(v.bigIntValue());
  if (type !== 'decimal') return unexpected(`an Ion ${type} where a number belongs`);
  // ion-js writes 2d3 as 2E+3 and 1d-130 as 1E-130: text DynamoDB's number parser reads exactly.
  return v.decimalValue()!.toString();
}

function blobText(v: dom.Value): string {
  return Buffer.from(v.uInt8ArrayValue()!).toString('base64');
}

/** Attribute names are data (`__proto__` included): the map has no prototype. */
function ionMap(struct: dom.Value): Item {
  const out = Object.create(null) as Item;
  for (const name of struct.fieldNames()) out[name] = ionAttribute(struct.get(name)!);
  return out;
}

/** One Ion value of an export → its DynamoDB JSON (binary as base64, as DynamoDB JSON shows it). */
export function ionAttribute(v: dom.Value): AttributeValue {
  const type = v.getType().name;
  if (v.isNull()) return { NULL: true };
  if (type === 'string') return { S: v.stringValue()! };
  if (type === 'decimal' || type === 'int') return { N: ionNumber(v) };
  if (type === 'bool') return { BOOL: v.booleanValue()! };
  if (type === 'blob') return { B: blobText(v) };
  if (type === 'struct') return { M: ionMap(v) };
  if (type === 'list') {
    const elements = [...v.elements()];
    const set = SETS[v.getAnnotations()[0] ?? ''];
    if (set === 'SS') return { SS: elements.map((e) => e.stringValue()!) };
    if (set === 'NS') return { NS: elements.map(ionNumber) };
    if (set === 'BS') return { BS: elements.map(blobText) };
    return { L: elements.map(ionAttribute) };
  }
  return unexpected(`an Ion ${type}`);
}

/** The items of whole lines of an Ion export's data file (`$ion_1_0 {Item:{...}}` each). */
export function ionExportItems(text: string): Item[] {
  const items: Item[] = [];
  for (const value of loadAll(text)) {
    const item = value.get('Item');
    if (!item || item.getType().name !== 'struct') unexpected('a line without an Item struct');
    items.push(ionMap(item));
  }
  return items;
}
