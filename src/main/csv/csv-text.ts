import { once } from 'node:events';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

/**
 * DynoTable's one CSV dialect, on csv-stringify / csv-parse: RFC 4180 with CRLF records, an
 * empty unquoted cell for "no value" and "" for an empty string, and every text cell guarded
 * against spreadsheet formulas. Every CSV the app, the browser download and the CLI write goes
 * through `csvRecords`; every CSV they read goes through `csvParser`.
 */
export type CsvCell = string | undefined;

/**
 * OWASP's CSV-injection advice: a cell a spreadsheet would evaluate (= + - @, tab, CR, and the
 * full-width forms some spreadsheets fold to them) gets a leading apostrophe, which spreadsheets
 * read as "this is text" and do not show. A cell that already starts with an apostrophe gets one
 * too, so reading strips exactly one and every string comes back as it was. A plain negative
 * number is left alone: it is a value, not a formula, and `'-5` would turn numbers into text.
 */
const FORMULA_START = /^['=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const PLAIN_NEGATIVE = /^-\d+(\.\d+)?([eE][-+]?\d+)?$/;

export function guardCell(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NEGATIVE.test(text) ? `'${text}` : text;
}

export function unguardCell(text: string): string {
  return text.startsWith("'") ? text.slice(1) : text;
}

const STRINGIFY_OPTIONS = {
  record_delimiter: '\r\n',
  // Naming a record delimiter turns off quoting of a lone CR or LF inside a cell; readers split there.
  quote_record_delimiter: true,
  // undefined stays an empty unquoted cell; '' must be written "" so it reads back as a string.
  cast: { string: (value: string) => (value === '' ? { value, quoted_empty: true } : guardCell(value)) },
} as const;

/** Records as CSV text, each ended by CRLF. */
export function csvRecords(records: readonly (readonly CsvCell[])[]): string {
  if (records.length === 0) return '';
  return stringify(records as CsvCell[][], STRINGIFY_OPTIONS);
}

/**
 * A field as read: its text with the formula guard taken off, or null for an empty unquoted
 * cell. The quotes are the only way "" (an empty string) differs from a missing value.
 */
export type CsvField = string | null;

/**
 * csv-parse tells a quoted field from an unquoted one only through its `cast` hook, which builds
 * three context objects per field and made a 100,000-row import six times slower than the
 * hand-written reader it replaced (tests/bench/csv-import.bench.ts, docs/PERFORMANCE.md). So the
 * parser hands back each record's raw text (free), and only a record holding an empty field has
 * its raw text walked to see which of its empty fields were written "".
 */
const PARSE_OPTIONS = {
  bom: true,
  // Left to itself csv-parse guesses the record delimiter from the first one it meets, even a CR
  // inside a quoted cell, and then misreads every CRLF after it.
  record_delimiter: ['\r\n', '\n', '\r'],
  // A short or long row is the reader's to report with its line, not a parse error for the file.
  relax_column_count: true,
  // A stray quote inside an unquoted cell (a hand-edited file) is text, as the old reader took it.
  relax_quotes: true,
  raw: true,
};

interface RawRecord {
  record: string[];
  raw: string;
}

/** Indexes of the fields written as "" in one record's raw text. */
function quotedEmptyFields(raw: string): Set<number> {
  const found = new Set<number>();
  let index = 0;
  let at = 0;
  while (at < raw.length) {
    if (raw[at] === '"') {
      let close = raw.indexOf('"', at + 1);
      while (close !== -1 && raw[close + 1] === '"') close = raw.indexOf('"', close + 2);
      if (close === at + 1) found.add(index);
      if (close === -1) break;
      at = close + 1;
    }
    const comma = raw.indexOf(',', at);
    if (comma === -1) break;
    at = comma + 1;
    index++;
  }
  return found;
}

function fieldsOf({ record, raw }: RawRecord): CsvField[] {
  let quotedEmpty: Set<number> | undefined;
  const fields: CsvField[] = new Array<CsvField>(record.length);
  for (let i = 0; i < record.length; i++) {
    const text = record[i] ?? '';
    if (text !== '') fields[i] = unguardCell(text);
    else fields[i] = (quotedEmpty ??= quotedEmptyFields(raw)).has(i) ? '' : null;
  }
  return fields;
}

/** Reads CSV text as it streams in: write chunks, iterate records of CsvField. */
export async function* csvFieldRecords(chunks: AsyncIterable<string>): AsyncGenerator<CsvField[]> {
  const parser = parse(PARSE_OPTIONS);
  const feed = (async () => {
    try {
      for await (const chunk of chunks) if (!parser.write(chunk)) await once(parser, 'drain');
      parser.end();
    } catch (error) {
      parser.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  try {
    for await (const raw of parser as AsyncIterable<RawRecord>) yield fieldsOf(raw);
  } finally {
    parser.destroy();
    await feed;
  }
}

/** A whole CSV text at once (small inputs and tests). */
export function parseCsv(text: string): CsvField[][] {
  // With `raw: true` each record comes as { record, raw }; the typings do not follow the option.
  const records = parseSync(text, PARSE_OPTIONS) as unknown as RawRecord[];
  return records.map(fieldsOf);
}
