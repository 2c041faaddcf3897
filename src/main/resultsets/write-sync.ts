import { RESULT_SETS_REQUEST_ID, WRITTEN_REQUEST_ID } from '../../shared/ipc/operations';
import type { WriteSource } from '../../shared/ipc/write-source';
import type { CoreContext } from '../core/context';
import type { WrittenItem } from './types';
import { runningSqlService } from '../sql/service-registry';

let seq = 0;
let writtenSeq = 0;

/**
 * Tells the result-set store what DynamoDB now holds for items DynoTable wrote, and every window
 * which result sets changed (a `resultsets` event), so the grids that show them read them again.
 * Never throws: the write itself succeeded, and a result set the worker lost is not its failure.
 */
export async function recordWrites(
  ctx: CoreContext,
  connectionId: string,
  table: string,
  writes: WrittenItem[],
  source?: WriteSource,
): Promise<void> {
  if (writes.length === 0) return;
  // What our write stored is named with its source; what a refused write found stored
  // (isRefresh) is someone else's change, so it names none.
  const publish = (items: WrittenItem[], by?: WriteSource): void => {
    if (items.length === 0) return;
    ctx.events.publish({
      type: 'written',
      requestId: WRITTEN_REQUEST_ID,
      seq: writtenSeq++,
      connectionId,
      table,
      ...(by ? { source: by } : {}),
      items: items.map(({ key, item }) => ({ key, item })),
    });
  };
  publish(
    writes.filter((w) => !w.isRefresh),
    source,
  );
  publish(writes.filter((w) => w.isRefresh === true));
  // SQL answers later queries from what it fetched: a table DynoTable wrote to is read again.
  await runningSqlService(ctx)
    ?.cacheClear(connectionId, table)
    .catch(() => undefined);
  try {
    const changes = await ctx.resultSets.applyWrites({ connectionId, table, writes });
    if (changes.length > 0)
      ctx.events.publish({ type: 'resultsets', requestId: RESULT_SETS_REQUEST_ID, seq: seq++, changes });
  } catch {
    // Nothing to do: the next read shows the table as it is.
  }
}
