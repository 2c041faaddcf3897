import type { AttributeValue, Item } from '../../../../shared/dynamo/attribute-value';
import { numberProblem } from '../../../../shared/dynamo/number';
import { defineOwn } from '../../../../shared/dynamo/proto-keys';
import type { KeySchema } from '../../../../shared/ipc/tables';
import { ENTITY_COLUMN } from './grid-layout';

/** The scalar types the grid edits in place; every other value opens the item editor. */
export type InlineKind = 'S' | 'N' | 'BOOL';

export const KEY_CELL_TITLE =
  'Key attributes are not edited in the grid: DynamoDB cannot change a key in place, a new key is a new item. ' +
  'Open the item (Enter) to change its key as a delete and a create.';

export function isKeyColumn(column: string, keys: KeySchema): boolean {
  return column === keys.partitionKey.name || column === keys.sortKey?.name;
}

/** Which in-cell editor a cell opens, or undefined when Enter/F2 opens the item editor instead. */
export function inlineKind(
  column: string,
  value: AttributeValue | undefined,
  keys: KeySchema,
): InlineKind | undefined {
  if (value === undefined || column === ENTITY_COLUMN || isKeyColumn(column, keys)) return undefined;
  if ('S' in value) return 'S';
  if ('N' in value) return 'N';
  if ('BOOL' in value) return 'BOOL';
  return undefined;
}

/** The text an in-cell editor starts with: the value exactly as stored. */
export function editText(value: AttributeValue): string {
  if ('S' in value) return value.S;
  if ('N' in value) return value.N;
  if ('BOOL' in value) return String(value.BOOL);
  return '';
}

/** What was typed as a value of the cell's type, or the sentence that says why it is not one. */
export function parseInline(kind: InlineKind, text: string): { value: AttributeValue } | { problem: string } {
  if (kind === 'S') return { value: { S: text } };
  if (kind === 'BOOL') return { value: { BOOL: text === 'true' } };
  const trimmed = text.trim();
  if (trimmed === '') return { problem: 'Type a number: this is a number (N) attribute.' };
  const problem = numberProblem(trimmed);
  if (problem) return { problem: `This is a number (N) attribute: ${problem}. Nothing was changed.` };
  return { value: { N: trimmed } };
}

/** A copy of an item with one attribute set; `__proto__` and friends stay ordinary names. */
export function withAttribute(item: Item, column: string, value: AttributeValue): Item {
  const copy: Item = {};
  for (const name of Object.keys(item)) defineOwn(copy, name, item[name] as AttributeValue);
  defineOwn(copy, column, value);
  return copy;
}
