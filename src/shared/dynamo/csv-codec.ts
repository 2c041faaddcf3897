import { typeOf, type AttributeType, type AttributeValue, type Item } from './attribute-value';
import { parseDynamoJson } from './item-json';
import { echoValue } from './echo-value';
import { numberProblem } from './number';
import { defineOwn, ownValue } from './proto-keys';

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

function quote(text: string): string {
  return /^$|[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function cell(value: AttributeValue | undefined, type: ColumnType): string {
  if (value === undefined) return '';
  if (type === '*') return quote(JSON.stringify(value));
  if ('S' in value) return quote(value.S);
  if ('N' in value) return value.N;
  if ('B' in value) return quote(value.B);
  if ('BOOL' in value) return String(value.BOOL);
  if ('NULL' in value) return 'NULL';
  return quote(JSON.stringify(Object.values(value)[0]));
}

export function csvHeader(columns: CsvColumn[]): string {
  return `${columns.map((c) => quote(c.name)).join(',')}\r\n${columns.map((c) => c.type).join(',')}\r\n`;
}

export function csvRow(item: Item, columns: CsvColumn[]): string {
  return `${columns.map((c) => cell(ownValue(item, c.name), c.type)).join(',')}\r\n`;
}

export interface CsvField {
  text: string;
  quoted: boolean;
}

/**
 * An incremental RFC 4180 parser: feed chunks, get complete rows. It keeps whether each field
 * was quoted, which is how "" (empty string) differs from an empty cell (missing attribute).
 */
export class CsvParser {
  private field = '';
  private quoted = false;
  private inQuotes = false;
  private afterQuote = false;
  private row: CsvField[] = [];
  private pendingCr = false;

  push(chunk: string): CsvField[][] {
    const rows: CsvField[][] = [];
    for (const ch of chunk) {
      if (this.pendingCr) {
        this.pendingCr = false;
        if (ch === '\n') continue;
      }
      if (this.inQuotes) {
        if (ch === '"') {
          this.inQuotes = false;
          this.afterQuote = true;
        } else this.field += ch;
        continue;
      }
      if (ch === '"') {
        if (this.afterQuote) this.field += '"';
        this.inQuotes = true;
        this.quoted = true;
        this.afterQuote = false;
      } else if (ch === ',') this.endField();
      else if (ch === '\n' || ch === '\r') {
        this.pendingCr = ch === '\r';
        this.endField();
        rows.push(this.row);
        this.row = [];
      } else {
        this.field += ch;
        this.afterQuote = false;
      }
    }
    return rows;
  }

  end(): CsvField[][] {
    if (this.field === '' && !this.quoted && this.row.length === 0) return [];
    this.endField();
    const last = this.row;
    this.row = [];
    return [last];
  }

  private endField(): void {
    this.row.push({ text: this.field, quoted: this.quoted });
    this.field = '';
    this.quoted = false;
    this.afterQuote = false;
  }
}

function typed(type: AttributeType, text: string): AttributeValue {
  const parsed = parseDynamoJson(`{"v": {${JSON.stringify(type)}: ${text}}}`).v;
  if (!parsed) throw new Error(`not a ${type} value`);
  return parsed;
}

/** One CSV cell back to its value; undefined for a missing attribute. Throws a sentence on bad input. */
export function parseCell(field: CsvField | undefined, type: ColumnType): AttributeValue | undefined {
  if (!field || (field.text === '' && !field.quoted)) return undefined;
  const text = field.text;
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
export function parseColumns(names: CsvField[], types: CsvField[]): CsvColumn[] {
  if (names.length !== types.length) throw new Error('The type row (row 2) must have one type per column.');
  return names.map((n, i) => {
    const type = types[i]?.text ?? '';
    if (!TYPES.has(type))
      throw new Error(
        `Row 2 names the type of each column (S, N, B, BOOL, NULL, L, M, SS, NS, BS or *); ${echoValue(type)} is not one.`,
      );
    return { name: n.text, type: type as ColumnType };
  });
}

export function itemFromRow(row: CsvField[], columns: CsvColumn[]): Item {
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
