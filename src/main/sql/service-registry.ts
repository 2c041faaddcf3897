import type { CoreContext, ServiceSlot } from '../core/context';
import { openedExports } from '../exports/opened-exports';
import { SqlService } from './service';

/** The SQL workbench's service: one worker thread, unref'd while idle, stopped by shutdownCore. */
const sqlSlot: ServiceSlot<SqlService> = {
  name: 'sql',
  create: (ctx) => new SqlService({ clients: ctx.clients, exports: () => openedExports(ctx).locations() }),
  close: (service) => service.close(),
};

/** The core's SQL service (ctx.services owns it and shutdownCore closes it). */
export function sqlServiceFor(ctx: CoreContext): SqlService {
  return ctx.services.get(sqlSlot);
}

/** The core's SQL service if one was started (writes tell it to forget what it cached). */
export function runningSqlService(ctx: CoreContext): SqlService | undefined {
  return ctx.services.running(sqlSlot);
}

/**
 * SQL's catalog keeps table names for minutes: a table DynoTable created or deleted (a table
 * change, a copy's new target, an S3 import) is announced to it before the operation ends, so the
 * workbench's catalog asked for after `done` has it (or no longer has it). Whether or not the
 * change succeeded: a refused or unanswered one may have been applied. Never fails: the table
 * change itself is what the user asked for.
 */
export async function announceTableChange(
  ctx: CoreContext,
  connectionId: string,
  table: string,
): Promise<void> {
  await runningSqlService(ctx)
    ?.tableChanged(connectionId, table)
    .catch(() => undefined);
}
