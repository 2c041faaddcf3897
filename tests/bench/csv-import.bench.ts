/**
 * Importing a 100,000-row CSV (`npm run bench -- csv-import`; env CSV_ROWS, CSV_RUNS): the reader
 * DynoTable uses (csv-parse, streaming, through readImport as transfer:import runs it) against
 * the hand-written parser it replaced (tests/bench/csv-reference.ts) decoding the same rows into
 * the same items, in the same process. Reported as a ratio (library / old), median of the runs.
 */
import { performance } from 'node:perf_hooks';
import {
  addColumns,
  itemCsvHeader,
  itemCsvRows,
  itemFromRow,
  parseColumns,
  type ColumnType,
} from '../../src/main/csv/item-csv';
import { readImport } from '../../src/main/dynamo/transfer/import-source';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { OldCsvParser, type OldCsvField } from './csv-reference';

const ROWS = Number(process.env.CSV_ROWS ?? 100_000);
const RUNS = Number(process.env.CSV_RUNS ?? 5);
const CHUNK = 1024 * 1024;

function sampleItem(i: number): Item {
  return {
    pk: { S: `customer#${i % 997}` },
    sk: { S: `order#${String(i).padStart(8, '0')}` },
    amount: { N: (i * 7.13).toFixed(2) },
    note: { S: i % 10 === 0 ? `said "hi", then\nleft` : `plain note ${i}` },
    formula: { S: i % 50 === 0 ? '=SUM(A1:A2)' : 'ok' },
    tags: { SS: ['a', `t${i % 7}`] },
    active: { BOOL: i % 2 === 0 },
    ...(i % 3 === 0 ? { optional: { S: '' } } : {}),
  };
}

function buildCsv(): string {
  const items = Array.from({ length: ROWS }, (_, i) => sampleItem(i));
  const columns = new Map<string, ColumnType>();
  for (const item of items) addColumns(columns, item);
  const list = [...columns].map(([name, type]) => ({ name, type }));
  return itemCsvHeader(list) + itemCsvRows(items, list);
}

async function library(csv: string): Promise<number> {
  let count = 0;
  for await (const entry of readImport({ text: csv }, 'csv')) if ('item' in entry) count++;
  return count;
}

function old(csv: string): number {
  const parser = new OldCsvParser();
  const toField = (f: OldCsvField) => (f.text === '' && !f.quoted ? null : f.text);
  let names: OldCsvField[] | undefined;
  let columns: ReturnType<typeof parseColumns> | undefined;
  let count = 0;
  const handle = (row: OldCsvField[]) => {
    if (!names) return void (names = row);
    if (!columns) return void (columns = parseColumns(names.map(toField), row.map(toField)));
    itemFromRow(row.map(toField), columns);
    count++;
  };
  for (let at = 0; at < csv.length; at += CHUNK)
    for (const row of parser.push(csv.slice(at, at + CHUNK))) handle(row);
  for (const row of parser.end()) handle(row);
  return count;
}

async function time(run: () => Promise<number> | number): Promise<number> {
  globalThis.gc?.();
  const start = performance.now();
  const count = await run();
  if (count !== ROWS) throw new Error(`read ${count} of ${ROWS} rows`);
  return performance.now() - start;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const csv = buildCsv();
  const libraryTimes: number[] = [];
  const oldTimes: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    // Alternate the order so warm-up and a neighbour's load fall on both.
    if (run % 2 === 0) {
      libraryTimes.push(await time(() => library(csv)));
      oldTimes.push(await time(() => old(csv)));
    } else {
      oldTimes.push(await time(() => old(csv)));
      libraryTimes.push(await time(() => library(csv)));
    }
  }
  const lib = median(libraryTimes);
  const ref = median(oldTimes);
  process.stdout.write(
    `CSV import of ${ROWS.toLocaleString('en-US')} rows (${(csv.length / 1e6).toFixed(1)} MB): csv-parse ${lib.toFixed(0)} ms, old parser ${ref.toFixed(0)} ms, ratio ${(lib / ref).toFixed(2)} (median of ${RUNS})\n`,
  );
}

void main();
