import type { Progress } from '../../../shared/ipc/operations';
import { deleteView, loadViews, saveView } from '../../sql/files/view-store';
import {
  appendHistory,
  deleteQuery,
  listSavedQueries,
  readHistory,
  saveQuery,
} from '../../sql/files/query-files';
import { scanLimitOf } from '../../sql/sql-settings';
import { sqlServiceFor } from '../../sql/service-registry';
import type { Handler } from '../dispatcher';
import type { OperationOutcome } from '../../core/operations';

type SqlChannel =
  | 'sql:catalog'
  | 'sql:plan'
  | 'sql:run'
  | 'sql:window'
  | 'sql:drop'
  | 'sql:views'
  | 'sql:saveView'
  | 'sql:deleteView'
  | 'sql:history'
  | 'sql:savedQueries'
  | 'sql:saveQuery'
  | 'sql:deleteQuery'
  | 'sql:cache'
  | 'sql:clearCache';

/**
 * The SQL workbench. Statements run in the SQL worker (src/main/sql/service.ts); these handlers
 * only pass them on, add the connection's user-defined views, and keep history and saved
 * queries as plain .sql files under the data folder.
 */
export const sqlHandlers: { [C in SqlChannel]: Handler<C> } = {
  'sql:catalog': async ({ connectionId, refresh }, ctx) =>
    sqlServiceFor(ctx).catalog(connectionId, await loadViews(ctx.dataDir, connectionId), refresh),
  'sql:plan': async ({ connectionId, sql, maxItems }, ctx) =>
    sqlServiceFor(ctx).plan(connectionId, sql, await loadViews(ctx.dataDir, connectionId), maxItems),
  'sql:run': async ({ connectionId, sql, requestId, refresh, maxItems, local }, ctx) => {
    const views = await loadViews(ctx.dataDir, connectionId);
    const scanLimit = local ? 'local' : await scanLimitOf(ctx.dataDir, connectionId);
    ctx.operations.start(requestId, async (run): Promise<OperationOutcome<'sql:run'>> => {
      let last: Progress = { items: 0, pages: 0, consumedCapacity: 0 };
      const summary = await sqlServiceFor(ctx).run(connectionId, sql, views, {
        refresh,
        maxItems,
        scanLimit,
        signal: run.signal,
        onProgress: (progress) => {
          last = progress;
          run.emit({ type: 'progress', progress });
        },
      });
      // History records statements that ran; a failed parse is not worth keeping.
      await appendHistory(ctx.dataDir, connectionId, sql).catch(() => undefined);
      return { progress: { ...last, items: summary.total, message: 'Done' }, value: summary };
    });
    return { started: true };
  },
  'sql:window': ({ resultId, offset, limit }, ctx) => sqlServiceFor(ctx).window(resultId, offset, limit),
  'sql:drop': async ({ resultId }, ctx) => ({ dropped: await sqlServiceFor(ctx).drop(resultId) }),
  'sql:views': ({ connectionId }, ctx) => loadViews(ctx.dataDir, connectionId),
  'sql:saveView': ({ connectionId, view }, ctx) => saveView(ctx.dataDir, connectionId, view),
  'sql:deleteView': ({ connectionId, name }, ctx) => deleteView(ctx.dataDir, connectionId, name),
  'sql:history': ({ connectionId }, ctx) => readHistory(ctx.dataDir, connectionId),
  'sql:savedQueries': ({ connectionId }, ctx) => listSavedQueries(ctx.dataDir, connectionId),
  'sql:saveQuery': ({ connectionId, name, sql }, ctx) => saveQuery(ctx.dataDir, connectionId, name, sql),
  'sql:deleteQuery': async ({ connectionId, name }, ctx) => ({
    deleted: await deleteQuery(ctx.dataDir, connectionId, name),
  }),
  'sql:cache': ({ connectionId }, ctx) => sqlServiceFor(ctx).cacheList(connectionId),
  'sql:clearCache': async ({ connectionId }, ctx) => ({
    cleared: await sqlServiceFor(ctx).cacheClear(connectionId),
  }),
};
