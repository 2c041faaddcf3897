import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import { isNum, numToString } from '../../src/main/sql/values/decimal';
import { tableInfo } from '../../src/main/sql/executor/run-local';
import { Bytes, DMap, DSet, type Value } from '../../src/main/sql/values/value';

/**
 * sqllogictest-style files (tests/sql-logic/*.slt), written to be read by a person:
 *
 *   table Lines orderId:S lineNo:N        -- a table, its keys and their DynamoDB types
 *   {"orderId": "O001", "lineNo": 1, "total": 120.50}   -- one item per line (JSON; numbers exact)
 *
 *   query rowsort                         -- `rowsort`: rows compared in sorted order
 *   SELECT lineNo FROM Lines WHERE total BETWEEN 300 AND 100
 *   ----
 *   1 | 120.5                             -- one row per line, values joined by " | "
 *
 *   statement error not supported        -- the statement fails with a message matching this
 *   SELECT ...
 *
 * Values print as: NULL (a NULL or missing value), (empty) for '', numbers exactly, true/false,
 * lists and maps as JSON. `#` starts a comment line. Records are separated by blank lines.
 */
export interface SltTable {
  name: string;
  keys: { name: string; type: 'S' | 'N' }[];
  items: Item[];
}

export type SltRecord =
  | { kind: 'query'; sql: string; rowsort: boolean; expected: string[]; line: number }
  | { kind: 'error'; sql: string; pattern: RegExp; line: number };

export interface SltFile {
  name: string;
  tables: SltTable[];
  records: SltRecord[];
}

export const SLT_DIR = join(__dirname, '..', 'sql-logic');

/** Every .slt file of tests/sql-logic, parsed. */
export function loadSltFiles(dir = SLT_DIR): SltFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.slt'))
    .sort()
    .map((f) => parseSlt(f, readFileSync(join(dir, f), 'utf8')));
}

/** Numbers in item JSON keep their exact text: each becomes {"$n": "<text>"} before JSON.parse. */
function exactJson(text: string): unknown {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const number = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (number && !/[A-Za-z0-9_]/.test(text[i - 1] ?? '')) {
      out += `{"$n":"${number[0]}"}`;
      i += number[0].length;
      continue;
    }
    out += ch;
    i += 1;
  }
  return JSON.parse(out);
}

function toAttribute(v: unknown): AttributeValue {
  if (v === null) return { NULL: true };
  if (typeof v === 'string') return { S: v };
  if (typeof v === 'boolean') return { BOOL: v };
  if (Array.isArray(v)) return { L: v.map(toAttribute) };
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length === 1 && entries[0]![0] === '$n') return { N: entries[0]![1] as string };
  return { M: Object.fromEntries(entries.map(([k, x]) => [k, toAttribute(x)])) };
}

export function parseItem(text: string): Item {
  const m = toAttribute(exactJson(text));
  if (!('M' in m)) throw new Error(`An item must be a JSON object: ${text}`);
  return m.M;
}

export function parseSlt(name: string, text: string): SltFile {
  const lines = text.split('\n');
  const tables: SltTable[] = [];
  const records: SltRecord[] = [];
  let i = 0;
  const blank = (s: string | undefined): boolean => s === undefined || s.trim() === '';
  while (i < lines.length) {
    const line = lines[i]!;
    if (blank(line) || line.startsWith('#')) {
      i += 1;
      continue;
    }
    const start = i + 1;
    if (line.startsWith('table ')) {
      const [, tableName, ...keys] = line.trim().split(/\s+/);
      const table: SltTable = {
        name: tableName!,
        keys: keys.map((k) => {
          const [key, type] = k.split(':');
          return { name: key!, type: type === 'N' ? 'N' : 'S' };
        }),
        items: [],
      };
      for (i += 1; !blank(lines[i]); i++)
        if (!lines[i]!.startsWith('#')) table.items.push(parseItem(lines[i]!));
      tables.push(table);
      continue;
    }
    const sql: string[] = [];
    const header = line.trim();
    for (i += 1; !blank(lines[i]) && lines[i] !== '----'; i++) sql.push(lines[i]!);
    if (header.startsWith('statement error')) {
      records.push({
        kind: 'error',
        sql: sql.join('\n'),
        pattern: new RegExp(header.slice('statement error'.length).trim(), 'i'),
        line: start,
      });
      continue;
    }
    if (!header.startsWith('query')) throw new Error(`${name}:${start}: expected table, query or statement`);
    const expected: string[] = [];
    if (lines[i] === '----') for (i += 1; !blank(lines[i]); i++) expected.push(lines[i]!.trim());
    records.push({
      kind: 'query',
      sql: sql.join('\n'),
      rowsort: header.includes('rowsort'),
      expected,
      line: start,
    });
  }
  return { name, tables, records };
}

/** One engine value as the .slt files write it. */
export function renderValue(v: Value): string {
  if (v === null || v === undefined) return 'NULL';
  if (v === '') return '(empty)';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (isNum(v)) return numToString(v);
  return JSON.stringify(plain(v));
}

function plain(v: Value): unknown {
  if (v === undefined) return null;
  if (isNum(v)) return numToString(v);
  if (v instanceof Bytes) return v.base64;
  if (v instanceof DSet) return v.items.map((x) => plain(x));
  if (v instanceof DMap) return Object.fromEntries(Object.entries(v.entries).map(([k, x]) => [k, plain(x)]));
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

export function renderRows(rows: Value[][], rowsort: boolean): string[] {
  const out = rows.map((row) => row.map(renderValue).join(' | '));
  return rowsort ? out.sort() : out;
}

export function expectedRows(record: Extract<SltRecord, { kind: 'query' }>): string[] {
  return record.rowsort ? [...record.expected].sort() : record.expected;
}

/** A file's tables as the engine alone reads them: their keys, typed as the file says, and items. */
export function localTables(tables: SltTable[]) {
  return tables.map((t) => {
    const info = tableInfo(t.name, t.keys[0]!.name, t.keys[1]?.name);
    info.keys.partitionKey.type = t.keys[0]!.type;
    if (info.keys.sortKey) info.keys.sortKey.type = t.keys[1]!.type;
    return { info, items: t.items };
  });
}
