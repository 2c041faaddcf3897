import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { SqlWindow } from '../../../shared/ipc/sql';
import { windowSpan } from '../../../shared/ipc/window';
import type { ResultTable } from '../executor/result';
import { toTagged, typeName } from '../values/value';

interface Stored {
  result: ResultTable;
  connectionId: string;
  createdAt: number;
}

/** What one sql:window answers at most (the contract asks for no more; callers inside main neither). */
const MAX_SQL_WINDOW = 1000;

/** Results stay next to the data; the renderer asks for windows of at most 1,000 rows. */
export class ResultStore {
  private readonly results = new Map<string, Stored>();
  private nextId = 1;

  constructor(private readonly keep = 20) {}

  add(connectionId: string, result: ResultTable): string {
    const id = `sql-${Date.now().toString(36)}-${this.nextId++}`;
    this.results.set(id, { result, connectionId, createdAt: Date.now() });
    // Old results go first; each can hold references to large fetched tables.
    for (const oldest of this.results.keys()) {
      if (this.results.size <= this.keep) break;
      this.results.delete(oldest);
    }
    return id;
  }

  get(resultId: string): ResultTable {
    const stored = this.results.get(resultId);
    if (!stored) {
      throw new AppFailure(
        ErrorCodes.notFound,
        `This result is no longer available (only the last ${this.keep} are kept); run the query again.`,
      );
    }
    return stored.result;
  }

  window(resultId: string, offset: number, limit: number): SqlWindow {
    const result = this.get(resultId);
    const { start, end } = windowSpan(result.length, offset, limit, MAX_SQL_WINDOW);
    const rows = [];
    for (let i = start; i < end; i++) rows.push(result.row(i).map((v) => toTagged(v) ?? null));
    const { source } = result;
    const keys = source ? rows.map((_, k) => source.keyOf(start + k) ?? null) : undefined;
    return { total: result.length, offset, columns: result.columns, rows, ...(keys ? { keys } : {}) };
  }

  drop(resultId: string): boolean {
    return this.results.delete(resultId);
  }
}

/** The dominant type of each column in the first rows, for alignment and chart choice. */
export function columnTypes(result: ResultTable, sample = 1000): string[] {
  const counts = result.columns.map(() => new Map<string, number>());
  for (let i = 0; i < Math.min(sample, result.length); i++) {
    result.row(i).forEach((v, j) => {
      const type = typeName(v);
      if (type !== 'MISSING' && type !== 'NULL') counts[j]!.set(type, (counts[j]!.get(type) ?? 0) + 1);
    });
  }
  return counts.map((c) => {
    if (c.size === 0) return 'NULL';
    if (c.size > 1) return 'MIXED';
    return [...c.keys()][0]!;
  });
}
