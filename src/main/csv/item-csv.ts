import {
  typeOf,
  type AttributeType,
  type AttributeValue,
  type Item,
} from '../../shared/dynamo/attribute-value';
import { echoValue } from '../../shared/dynamo/echo-value';
import { parseDynamoJson, plainJsonValue } from '../../shared/dynamo/item-json';
import { numberProblem } from '../../shared/dynamo/number';
import { defineOwn, ownValue } from '../../shared/dynamo/proto-keys';
import { csvRecords, type CsvCell, type CsvField } from './csv-text';

/**
 * CSV that round-trips: row 1 holds attribute names, row 2 each column's DynamoDB type ('*' when
 * items disagree, and then every cell is a typed value like {"S":"x"}). An empty unquoted cell
 * is a missing attribute; "" (quoted) is an empty string or binary. Lists, maps and sets are
 * written as DynamoDB JSON so nothing is flattened away.
 */
export type ColumnType = AttributeType | '*';
export interface CsvColumn {
  name: string;
  type: ColumnType;
}

const COMPOSITE = new Set<AttributeType>(['L', 'M', 'SS', 'NS', 'BS']);

/** Folds one item into the running column list (first-seen order, types merged to '*'). */
export function addColumns(columns: Map<string, ColumnType>, item: Item): void {
  for (const [name, value] of Object.entries(item)) {
    const type = typeOf(value);
    const known = columns.get(name);
    if (known === undefined) columns.set(name, type);
    else if (known !== type) columns.set(name, '*');
  }
}

/**
 * The export's columns: the key attributes first in key-model order (`viewKeyNames`: the
 * table's key, then the exported index's), then every other attribute in first-seen order.
 */
export function columnsInKeyOrder(
  columns: ReadonlyMap<string, ColumnType>,
  keyNames: readonly string[],
): CsvColumn[] {
  const keys = keyNames.filter((name) => columns.has(name));
  const first = new Set(keys);
  return [...keys, ...[...columns.keys()].filter((name) => !first.has(name))].map((name) => ({
    name,
    type: columns.get(name) as ColumnType,
  }));
}

function cell(value: AttributeValue | undefined, type: ColumnType): CsvCell {
  if (value === undefined) return undefined;
  if (type === '*') return JSON.stringify(value);
  if ('S' in value) return value.S;
  if ('N' in value) return value.N;
  if ('B' in value) return value.B;
  if ('BOOL' in value) return String(value.BOOL);
  if ('NULL' in value) return 'NULL';
  return JSON.stringify(Object.values(value)[0]);
}

export function itemCsvHeader(columns: readonly CsvColumn[]): string {
  return csvRecords([columns.map((c) => c.name), columns.map((c) => c.type)]);
}

export function itemCsvRows(items: readonly Item[], columns: readonly CsvColumn[]): string {
  return csvRecords(items.map((item) => columns.map((c) => cell(ownValue(item, c.name), c.type))));
}

/**
 * A plain table for spreadsheets and SQL users (a SQL result's export, `dynotable sql --format
 * csv`): one row of column names, then each cell as text: strings as they are, numbers exact,
 * binary as base64, lists, maps and sets as plain JSON; NULL and a missing value an empty cell.
 * It does not come back typed: the typed CSV above is the one import reads.
 */
function plainCell(value: AttributeValue | undefined): CsvCell {
  if (value === undefined || 'NULL' in value) return undefined;
  if ('S' in value) return value.S;
  if ('N' in value) return value.N;
  if ('B' in value) return value.B;
  if ('BOOL' in value) return String(value.BOOL);
  return plainJsonValue(value);
}

/** A value as the plain CSV writes it, for other text tables (the CLI's aligned output). */
export function plainText(value: AttributeValue | undefined): string {
  return plainCell(value) ?? '';
}

export function plainCsvHeader(columns: readonly string[]): string {
  return csvRecords([columns]);
}

export function plainCsvRows(items: readonly Item[], columns: readonly string[]): string {
  return csvRecords(items.map((item) => columns.map((name) => plainCell(ownValue(item, name)))));
}

function typed(type: AttributeType, text: string): AttributeValue {
  const parsed = parseDynamoJson(`{"v": {${JSON.stringify(type)}: ${text}}}`).v;
  if (!parsed) throw new Error(`not a ${type} value`);
  return parsed;
}

/** One CSV cell back to its value; undefined for a missing attribute. Throws a sentence on bad input. */
export function parseCell(text: CsvField | undefined, type: ColumnType): AttributeValue | undefined {
  if (text === null || text === undefined) return undefined;
  switch (type) {
    case '*': {
      const parsed = parseDynamoJson(`{"v": ${text}}`).v;
      if (!parsed) throw new Error('expected a typed value like {"S":"x"}');
      return parsed;
    }
    case 'S':
      return { S: text };
    case 'N': {
      const problem = numberProblem(text);
      if (problem) throw new Error(`the number ${problem}`);
      return { N: text.trim() };
    }
    case 'B':
      return { B: text };
    case 'BOOL':
      if (text !== 'true' && text !== 'false') throw new Error('expected true or false');
      return { BOOL: text === 'true' };
    case 'NULL':
      return { NULL: true };
    default:
      if (!COMPOSITE.has(type)) throw new Error(`the type ${echoValue(type)} is not one DynoTable writes`);
      return typed(type, text);
  }
}

const TYPES = new Set<string>(['S', 'N', 'B', 'BOOL', 'NULL', 'L', 'M', 'SS', 'NS', 'BS', '*']);

/** Reads the two header rows; throws a sentence when the type row is not one DynoTable writes. */
export function parseColumns(names: readonly CsvField[], types: readonly CsvField[]): CsvColumn[] {
  if (names.length !== types.length) throw new Error('The type row (row 2) must have one type per column.');
  return names.map((n, i) => {
    const type = types[i] ?? '';
    if (!TYPES.has(type))
      throw new Error(
        `Row 2 names the type of each column (S, N, B, BOOL, NULL, L, M, SS, NS, BS or *); ${echoValue(type)} is not one.`,
      );
    return { name: n ?? '', type: type as ColumnType };
  });
}

export function itemFromRow(row: readonly CsvField[], columns: readonly CsvColumn[]): Item {
  if (row.length !== columns.length)
    throw new Error(`This row has ${row.length} cells; the header names ${columns.length} columns.`);
  const item: Item = {};
  columns.forEach((column, i) => {
    let value: AttributeValue | undefined;
    try {
      value = parseCell(row[i], column.type);
    } catch (error) {
      // The cell's own words (a number's problem, a JSON position), never the uploaded cell itself.
      const problem = error instanceof Error ? error.message : String(error);
      throw new Error(`Column ${echoValue(column.name)} (${column.type}): ${problem.replace(/\.$/, '')}.`);
    }
    if (value !== undefined) defineOwn(item, column.name, value);
  });
  return item;
}
