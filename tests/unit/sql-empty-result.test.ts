import { describe, expect, it } from 'vitest';
import type { SqlResultSummary } from '../../src/shared/ipc/sql';
import { emptyResultNote } from '../../src/renderer/features/sql/empty-result';

// What the SQL workbench says when a statement returns no rows (the grid alone showed its column
// names over white space): the walk's JOIN of users and orders on a key orders do not hold.

const summary = (total: number, items: number[]): SqlResultSummary => ({
  resultId: 'r1',
  columns: ['name', 'total', 'status'],
  columnTypes: ['NULL', 'NULL', 'NULL'],
  total,
  grouped: false,
  warnings: [],
  elapsedMs: 70,
  fetches: items.map((n, i) => ({
    id: `f${i}`,
    table: 'DynoTableSample',
    operation: 'Scan',
    items: n,
    pages: 1,
    consumedCapacity: 10.5,
    cached: false,
    fetchedAt: '2026-12-07T16:00:00.000Z',
    truncated: false,
  })),
});

describe('a SQL result of no rows', () => {
  it('says how many items were read and that none matched the conditions', () => {
    expect(emptyResultNote(summary(0, [140, 40]))).toBe(
      "No rows: none of the 180 items read matched the statement's conditions (WHERE, JOIN … ON, HAVING).",
    );
  });

  it('says the tables returned nothing when no item was read', () => {
    expect(emptyResultNote(summary(0, [0]))).toBe(
      'No rows: the tables the statement reads returned no items.',
    );
  });

  it('says nothing when rows came back', () => {
    expect(emptyResultNote(summary(40, [40]))).toBeUndefined();
  });
});
