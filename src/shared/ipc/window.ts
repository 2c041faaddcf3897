import { z } from 'zod';

/**
 * The one window protocol of results held in main: "rows [offset, offset + limit) of result R"
 * and its answer (the rows, the result's total and its column order). Result sets
 * (`resultsets:window`, rows are items) and SQL results (`sql:window`, rows are tagged values by
 * column) both extend these two shapes; the renderer reads both through one window cache
 * (renderer/ui/window-cache.ts). See docs/design/result-sets.md.
 */
/** A grid reads 100–200 rows at a time (a range copy up to this many); this bounds what one answer carries. */
export const WINDOW_LIMIT_MAX = 1000;

export const windowRangeShape = {
  offset: z.number().int().nonnegative(),
  limit: z.number().int().min(1).max(WINDOW_LIMIT_MAX),
};

export const windowAnswerShape = {
  /** Rows the result (or view) holds now: the grid's row count, which grows while a read streams. */
  total: z.number().int(),
  /** Where `rows` start: the asked offset. */
  offset: z.number().int(),
  /** The column order: attributes by frequency (keys first) for items, the SELECT list for SQL. */
  columns: z.array(z.string()),
};

/** The rows [start, end) a window of `total` rows answers, asked from `offset`, at most `max` of them. */
export function windowSpan(
  total: number,
  offset: number,
  limit: number,
  max: number,
): { start: number; end: number } {
  const start = Math.max(0, Math.min(Math.floor(offset), total));
  return { start, end: Math.min(total, start + Math.max(0, Math.min(Math.floor(limit), max))) };
}
