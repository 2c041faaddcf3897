import { countOf } from '../../ui/format';
import type { ItemsTableState } from './store';

type ReadState = Pick<ItemsTableState, 'status' | 'fetched' | 'viewTotal' | 'cursor' | 'lastRead'>;

/**
 * What a grid with no rows says above its header once its read has ended (nothing while it reads
 * or shows rows). The grid alone showed a header and white space, the same for an empty table, a
 * filter nothing matched and a Query of a missing key.
 */
export function noRowsSentence(state: ReadState, table: string): string | undefined {
  if (state.status === 'running' || !state.lastRead) return undefined;
  if ((state.viewTotal ?? state.fetched) > 0) return undefined;
  if (state.fetched > 0)
    return `None of the ${countOf(state.fetched, 'item')} read matches the filter box or the chosen types: clear them to see every item read.`;
  // A read that failed or was stopped says so itself; it has not shown the table empty.
  if (state.status !== 'done') return undefined;
  const { spec } = state.lastRead;
  // A filter applies after each page is read: a later page can still hold what it asks for.
  const more = state.cursor ? ' Load more reads the next pages, which may still hold matches.' : '';
  if ((spec.filter?.items.length ?? 0) > 0 || spec.raw?.filter)
    return `No item read so far matches the filter.${more}`;
  const source = spec.index ? `The index ${spec.index}` : table;
  if (spec.mode === 'query' || spec.raw?.keyCondition)
    return `${source} has no item with this partition key${spec.sortKey ? ' and sort key condition' : ''}.${more}`;
  return `${source} holds no items yet. New item adds one; Import… loads them from a CSV or JSON file.${more}`;
}
