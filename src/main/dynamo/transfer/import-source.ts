import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { itemSchema, type Item } from '../../../shared/dynamo/attribute-value';
import { echoValue } from '../../../shared/dynamo/echo-value';
import { safeParseKeepingProtoKeys } from '../../../shared/dynamo/proto-keys';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { TransferFormat } from '../../../shared/ipc/transfer';
import { csvFieldRecords, type CsvField } from '../../csv/csv-text';
import { itemFromRow, parseColumns, type CsvColumn } from '../../csv/item-csv';

export type ImportEntry = { line: number; item: Item } | { line: number; error: string };
/** A file (`name`: what the user calls it, when the path's own name is not it: an upload's) or text. */
export type ImportSource = { path: string; name?: string } | { text: string };

/** The file's name as the user knows it: an upload's own name, not the server's id for it. */
export function fileName(source: ImportSource): string {
  if (!('path' in source)) return 'the pasted text';
  return source.name ?? path.basename(source.path);
}

/** A whole DynamoDB-JSON document is parsed at once, so it is capped; JSON Lines and CSV stream. */
const MAX_JSON_DOCUMENT_BYTES = 256 * 1024 * 1024;

async function* textChunks(source: ImportSource): AsyncGenerator<string> {
  if ('text' in source) {
    yield source.text;
    return;
  }
  const stream = createReadStream(source.path, { encoding: 'utf8', highWaterMark: 1024 * 1024 });
  for await (const chunk of stream) yield chunk as string;
}

/**
 * Where JSON.parse gave up, without the text it quotes: V8's messages carry a snippet of the
 * input ("Unexpected token 'r', "root:x:0:0"..."), and an error must never echo a file's content.
 */
export function jsonSyntaxProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  if (/end of JSON input/i.test(message)) return 'not valid JSON: it ends too early';
  const at = /at position (\d+)/.exec(message)?.[1];
  return at === undefined
    ? 'not valid JSON'
    : `not valid JSON (the problem is at character ${Number(at) + 1})`;
}

function tagged(value: unknown, line: number): ImportEntry {
  const parsed = safeParseKeepingProtoKeys(itemSchema, value);
  if (parsed.success) return { line, item: parsed.data };
  const issue = parsed.error.issues[0];
  // The path holds attribute names from the file: quoted and capped, never echoed at length.
  const where =
    issue && issue.path.length > 0 ? ` at ${echoValue(issue.path.map(String).join('.'), 64)}` : '';
  return {
    line,
    error: `This is not an item in DynamoDB JSON${where}: ${issue?.message ?? 'unknown problem'}.`,
  };
}

const TYPE_TAGS = new Set(['S', 'N', 'B', 'BOOL', 'NULL', 'L', 'M', 'SS', 'NS', 'BS']);

/**
 * DynamoDB's S3 export wraps each item as {"Item": {...}}, but an item whose one attribute is
 * named Item looks the same from its keys. The shape decides: the wrapper's value is an item (a
 * map of typed values), a bare attribute's is one typed value, and no value is both (a typed
 * value's one key is a type tag whose contents are never themselves a typed value).
 */
function exportWrapped(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'Item') return value;
  const inner = (value as { Item: unknown }).Item;
  if (safeParseKeepingProtoKeys(itemSchema, inner).success) return inner;
  if (safeParseKeepingProtoKeys(itemSchema, value).success) return value;
  // Neither reads: the error speaks of the reading the line resembles more.
  const innerKeys = inner && typeof inner === 'object' ? Object.keys(inner) : [];
  const looksTyped = innerKeys.length === 1 && TYPE_TAGS.has(innerKeys[0] ?? '');
  return looksTyped ? value : inner;
}

async function* jsonLines(source: ImportSource): AsyncGenerator<ImportEntry> {
  let rest = '';
  let line = 0;
  const entry = (text: string): ImportEntry | undefined => {
    line++;
    if (text.trim() === '') return undefined;
    try {
      return tagged(exportWrapped(JSON.parse(text)), line);
    } catch (error) {
      return {
        line,
        error: `${jsonSyntaxProblem(error)}; each line must hold one item in DynamoDB JSON, such as {"Item": {"pk": {"S": "a"}}}`,
      };
    }
  };
  for await (const chunk of textChunks(source)) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const text of lines) {
      const e = entry(text);
      if (e) yield e;
    }
  }
  const last = entry(rest);
  if (last) yield last;
}

async function* jsonDocument(source: ImportSource): AsyncGenerator<ImportEntry> {
  if ('path' in source && (await stat(source.path)).size > MAX_JSON_DOCUMENT_BYTES) {
    throw new AppFailure(
      ErrorCodes.invalidInput,
      'This DynamoDB-JSON file is over 256 MB. Export it as JSON Lines, which DynoTable reads as a stream.',
    );
  }
  let text = '';
  for await (const chunk of textChunks(source)) text += chunk;
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `The file cannot be read as DynamoDB JSON: it is ${jsonSyntaxProblem(error)}. Choose a file exported as DynamoDB JSON, or pick the format it is in.`,
    );
  }
  const items = Array.isArray(document) ? document : (document as { Items?: unknown } | null)?.Items;
  if (!Array.isArray(items))
    throw new AppFailure(
      ErrorCodes.invalidInput,
      'Expected {"Items": [...]} (as the AWS CLI prints a scan) or a JSON array of items.',
    );
  for (const [i, value] of items.entries()) yield tagged(value, i + 1);
}

async function* csvRows(source: ImportSource): AsyncGenerator<ImportEntry> {
  let columns: CsvColumn[] | undefined;
  let names: CsvField[] | undefined;
  let line = 0;
  const handle = (row: CsvField[]): ImportEntry | undefined => {
    line++;
    if (!names) return void (names = row);
    if (!columns) {
      try {
        columns = parseColumns(names, row);
      } catch {
        // The codec's sentence quotes the cell; the file may not be the user's to show.
        throw new AppFailure(
          ErrorCodes.invalidInput,
          'The file is not a DynoTable CSV: its second row must name the type of each column (S, N, B, BOOL, NULL, L, M, SS, NS, BS or *). Export a CSV from DynoTable, or pick the format the file is in.',
        );
      }
      return undefined;
    }
    if (row.length === 1 && row[0] === null) return undefined;
    try {
      return { line, item: itemFromRow(row, columns) };
    } catch (error) {
      return { line, error: error instanceof Error ? error.message : String(error) };
    }
  };
  try {
    for await (const row of csvFieldRecords(textChunks(source))) {
      const e = handle(row);
      if (e) yield e;
    }
  } catch (error) {
    throw error instanceof AppFailure ? error : unreadableCsv(error);
  }
  if (!columns)
    throw new AppFailure(
      ErrorCodes.invalidInput,
      'A DynoTable CSV starts with a row of names and a row of types.',
    );
}

/** csv-parse's own message quotes the line it stopped at; keep its code and where, not the text. */
function unreadableCsv(error: unknown): AppFailure {
  const details = error as { code?: unknown; lines?: unknown };
  const where = typeof details.lines === 'number' ? ` near line ${details.lines}` : '';
  const code = typeof details.code === 'string' ? details.code : 'CSV_INVALID';
  const why =
    code === 'CSV_QUOTE_NOT_CLOSED'
      ? 'a quoted cell is never closed'
      : code === 'CSV_INVALID_CLOSING_QUOTE'
        ? 'a quote inside a quoted cell is not doubled'
        : 'it is not valid CSV';
  return new AppFailure(
    ErrorCodes.invalidInput,
    `The file cannot be read as CSV${where}: ${why}. Export a CSV from DynoTable, or pick the format the file is in.`,
    false,
    { csvCode: code },
  );
}

export function readImport(source: ImportSource, format: TransferFormat): AsyncGenerator<ImportEntry> {
  if (format === 'jsonl') return jsonLines(source);
  if (format === 'csv') return csvRows(source);
  return jsonDocument(source);
}
