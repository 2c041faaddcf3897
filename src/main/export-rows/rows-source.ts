import type { Item } from '../../shared/dynamo/attribute-value';
import { defineOwn } from '../../shared/dynamo/proto-keys';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { ResultSetStore } from '../resultsets/types';
import type { CoreContext } from '../core/context';
import type { SqlService } from '../sql/service';
import { sqlServiceFor } from '../sql/service-registry';

/** Both stores answer windows of at most this many rows. */
const WINDOW = 1000;

/**
 * The rows an export writes, whoever holds them (a result set, a SQL result, a whole-table
 * export's spool): items in order, a window at a time, so a million rows never sit in memory at
 * once. One writer per format (export-chunks.ts) reads every source.
 */
export interface RowsSource {
  /** Rows the export writes, for progress. */
  total: number;
  /** Attribute names written first (the table's key, then the read index's). */
  keyNames: readonly string[];
  /**
   * A SQL result's columns in SELECT order: every row has each (a missing value is null in JSON,
   * an empty cell in CSV), and the CSV is a plain table. Absent for items, whose attributes vary.
   */
  columns?: readonly string[];
  /** The rows in order; a typed CSV reads them twice (columns and types first). */
  batches(signal?: AbortSignal): AsyncIterable<Item[]>;
}

/** A result set's rows, or the selected ones (row indexes). */
export async function resultSetRows(
  store: ResultSetStore,
  resultSetId: string,
  selected?: readonly number[],
): Promise<RowsSource> {
  const { total, viewKeys } = await store.window(resultSetId, 0, 0);
  const wanted = selected ? [...new Set(selected)].sort((a, b) => a - b) : undefined;
  return {
    total: wanted ? wanted.length : total,
    keyNames: viewKeys ?? [],
    async *batches(signal) {
      if (wanted) {
        for (let i = 0; i < wanted.length && !signal?.aborted;) {
          const offset = wanted[i] ?? 0;
          const window = await store.window(resultSetId, offset, WINDOW);
          const picked: Item[] = [];
          while (i < wanted.length && (wanted[i] ?? 0) < offset + WINDOW) {
            const row = window.rows[(wanted[i] ?? 0) - offset];
            if (row) picked.push(row);
            i++;
          }
          yield picked;
        }
        return;
      }
      for (let offset = 0; !signal?.aborted; offset += WINDOW) {
        const window = await store.window(resultSetId, offset, WINDOW);
        if (window.rows.length === 0) return;
        yield window.rows;
        if (offset + window.rows.length >= window.total) return;
      }
    },
  };
}

/**
 * A SQL result's rows, read from the SQL worker in windows of tagged values and made items by
 * column name (names are unique in a result: a second "a" is "a_2"), `__proto__` included.
 */
export async function sqlResultRows(
  service: SqlService,
  resultId: string,
  selected?: readonly number[],
): Promise<RowsSource> {
  if (selected)
    throw new AppFailure(ErrorCodes.invalidInput, 'A SQL result is exported whole; leave out rows.');
  const { total, columns } = await service.window(resultId, 0, 0);
  return {
    total,
    keyNames: [],
    columns,
    async *batches(signal) {
      for (let offset = 0; offset < total && !signal?.aborted; offset += WINDOW) {
        const window = await service.window(resultId, offset, WINDOW);
        yield window.rows.map((row) => {
          const item: Item = {};
          row.forEach((value, j) => {
            if (value !== null) defineOwn(item, columns[j] ?? '', value);
          });
          return item;
        });
      }
    },
  };
}

/** The source an export names: `resultSetId` (with an optional selection) or `sqlResultId`. */
export function rowsSourceOf(
  ctx: CoreContext,
  input: {
    resultSetId?: string | null | undefined;
    sqlResultId?: string | null | undefined;
    rows?: readonly number[] | undefined;
  },
): Promise<RowsSource> {
  const { resultSetId, sqlResultId } = input;
  if (resultSetId && !sqlResultId) return resultSetRows(ctx.resultSets, resultSetId, input.rows);
  if (sqlResultId && !resultSetId) return sqlResultRows(sqlServiceFor(ctx), sqlResultId, input.rows);
  throw new AppFailure(
    ErrorCodes.invalidInput,
    'Say which rows to export: a result set (resultSetId) or a SQL result (sqlResultId), one of them.',
  );
}
