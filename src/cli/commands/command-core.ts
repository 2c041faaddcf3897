import { randomUUID } from 'node:crypto';
import type { AdHocConnections, AdHocFlags } from '../../main/aws/ad-hoc-client';
import type { CoreContext } from '../../main/core/context';
import { AppFailure } from '../../shared/errors';
import type { Connection } from '../../shared/ipc/connection';
import type { Progress } from '../../shared/ipc/operations';
import { UsageError } from './types';

/** Flags that name a connection: a saved one by name, or one made of profile/region/endpoint. */
export interface ConnectionFlags extends AdHocFlags {
  connection?: string | undefined;
}

/** A connection saved in DynoTable, by its id or its name, as the connections list shows it. */
export async function savedConnection(
  ctx: CoreContext,
  name: string,
  flag = '--connection',
): Promise<Connection> {
  const saved = (await ctx.connections.list()).find((c) => c.id === name || c.label === name);
  if (!saved)
    throw new UsageError(
      `${flag}: no saved connection is named "${name}"; DynoTable's connections list shows them.`,
    );
  return saved;
}

/**
 * The connection a command's flags name: a saved one (`--connection`, whose read-only and
 * production flags hold) or, from `--profile/--region/--endpoint`, one that lives in this core's
 * memory only. `prefix` is copy's `from-`/`to-`.
 */
export async function connectionOf(
  ctx: CoreContext,
  adHoc: AdHocConnections,
  flags: ConnectionFlags,
  prefix = '',
): Promise<Connection> {
  if (flags.connection === undefined) return adHoc.add(flags);
  if (flags.profile !== undefined || flags.region !== undefined || flags.endpoint !== undefined)
    throw new UsageError(
      `Give either --${prefix}connection or --${prefix}profile/--${prefix}region/--${prefix}endpoint, not both.`,
    );
  return savedConnection(ctx, flags.connection, `--${prefix}connection`);
}

export type OperationEnd = { type: 'done'; value: unknown } | { type: 'cancelled'; progress: Progress };

/**
 * Starts the app's long work through its service (`start` receives the requestId) and waits for
 * the one event that ends it, the way a window does; progress lines go to `onProgress`. An
 * error ending is thrown as the AppFailure it carries, code and all; `signal` (Ctrl+C) cancels
 * the operation like the app's Cancel button.
 */
export async function runOperation(
  ctx: CoreContext,
  start: (requestId: string) => Promise<unknown>,
  options: { signal: AbortSignal; onProgress?: (progress: Progress) => void },
): Promise<OperationEnd> {
  const requestId = `cli-${randomUUID()}`;
  let unsubscribe = (): void => undefined;
  const ended = new Promise<OperationEnd>((resolve, reject) => {
    unsubscribe = ctx.events.subscribe((event) => {
      if (event.requestId !== requestId) return;
      if (event.type === 'progress') options.onProgress?.(event.progress);
      else if (event.type === 'done') resolve({ type: 'done', value: event.value });
      else if (event.type === 'cancelled') resolve({ type: 'cancelled', progress: event.progress });
      else if (event.type === 'error')
        reject(
          new AppFailure(event.error.code, event.error.message, event.error.retryable, event.error.details),
        );
    });
  });
  const cancel = (): void => void ctx.operations.cancel(requestId);
  options.signal.addEventListener('abort', cancel, { once: true });
  try {
    await start(requestId);
    if (options.signal.aborted) cancel();
    return await ended;
  } finally {
    options.signal.removeEventListener('abort', cancel);
    unsubscribe();
  }
}
