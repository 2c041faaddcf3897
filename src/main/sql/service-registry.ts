import type { CoreContext } from '../core/context';
import { SqlService } from './service';

const services = new WeakMap<CoreContext, SqlService>();

/**
 * One SQL service (one worker) per core. Kept here rather than on CoreContext so the SQL
 * workbench plugs in without widening the core's interface; the worker is unref'd while idle,
 * so it never keeps the process alive.
 */
export function sqlServiceFor(ctx: CoreContext): SqlService {
  let service = services.get(ctx);
  if (!service) {
    service = new SqlService({ clients: ctx.clients });
    services.set(ctx, service);
  }
  return service;
}

/** The core's SQL service if one was started (writes tell it to forget what it cached). */
export function runningSqlService(ctx: CoreContext): SqlService | undefined {
  return services.get(ctx);
}

export async function closeSqlService(ctx: CoreContext): Promise<void> {
  const service = services.get(ctx);
  services.delete(ctx);
  await service?.close();
}
