import type { CoreContext } from '../core/context';
import type { SqlService } from './service';

/** The core's SQL service (ctx.services owns it and shutdownCore closes it). */
export function sqlServiceFor(ctx: CoreContext): SqlService {
  return ctx.services.sql();
}

/** The core's SQL service if one was started (writes tell it to forget what it cached). */
export function runningSqlService(ctx: CoreContext): SqlService | undefined {
  return ctx.services.runningSql();
}
