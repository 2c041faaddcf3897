import type { AttributeValue } from '../../../shared/dynamo/attribute-value';
import type { SqlResultSummary } from '../../../shared/ipc/sql';
import { ColumnResult } from '../executor/result';
import { fromTagged, type Value } from '../values/value';
import { columnTypes, type ResultStore } from './result-store';

export interface ExternalRows {
  connectionId: string;
  columns: string[];
  /** Row-major, tagged; null where the engine gave no value. */
  rows: (AttributeValue | null)[][];
  grouped: boolean;
  warnings: string[];
  elapsedMs: number;
}

/**
 * Rows another engine computed (Athena over an export) as a result of this store, so the grid,
 * charts and export read them through sql:window and transfer:export exactly as local results.
 */
export function addExternalResult(store: ResultStore, input: ExternalRows): SqlResultSummary {
  const data: Value[][] = input.columns.map((_, j) =>
    input.rows.map((row) => {
      const v = row[j];
      return v ? fromTagged(v) : null;
    }),
  );
  const result = new ColumnResult(input.columns, data, input.rows.length);
  const resultId = store.add(input.connectionId, result);
  return {
    resultId,
    columns: result.columns,
    columnTypes: columnTypes(result),
    total: result.length,
    grouped: input.grouped,
    warnings: input.warnings,
    elapsedMs: input.elapsedMs,
    fetches: [],
  };
}
