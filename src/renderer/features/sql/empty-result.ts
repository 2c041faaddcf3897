import type { SqlResultSummary } from '../../../shared/ipc/sql';
import { countOf } from '../../ui/format';

/**
 * What a result of no rows says under its counts: the grid alone showed column names over white
 * space, which reads as still loading. The items read are DynamoDB's figures, so "none of them
 * matched" points at the statement's conditions, not at an empty table.
 */
export function emptyResultNote(summary: SqlResultSummary): string | undefined {
  if (summary.total > 0) return undefined;
  if (summary.athena) return 'No rows: Athena ran the statement over the export and nothing matched it.';
  const read = summary.fetches.reduce((sum, fetch) => sum + fetch.items, 0);
  if (read === 0) return 'No rows: the tables the statement reads returned no items.';
  return `No rows: none of the ${countOf(read, 'item')} read matched the statement's conditions (WHERE, JOIN … ON, HAVING).`;
}
