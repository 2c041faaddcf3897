import { createUnavailableSecretStore } from '../../src/main/aws/secret-store';
import type { CoreContext } from '../../src/main/core/context';
import { createCore } from '../../src/main/create-core';
import type { Connection } from '../../src/shared/ipc/connection';
import type { OperationEvent } from '../../src/shared/ipc/operations';

/**
 * The real core on a data folder of the test's own, as DynoTable starts on one: a second call on
 * the same folder is DynoTable after a restart (the first core's running jobs are not its own).
 */
export function coreOn(dataDir: string): CoreContext {
  return createCore({
    mode: 'desktop',
    version: 'test',
    dataDir,
    secrets: createUnavailableSecretStore(),
    openUrl: () => Promise.resolve(),
  });
}

/** The keys a default-chain connection finds in the environment, as a CI job's would. */
export const localKeys = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' } as const;

/** Puts localKeys in process.env; the answer puts back what was there. */
export function useLocalKeys(): () => void {
  const before = Object.fromEntries(Object.keys(localKeys).map((name) => [name, process.env[name]]));
  Object.assign(process.env, localKeys);
  return () => {
    for (const [name, value] of Object.entries(before))
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
  };
}

/** A saved default-chain connection to `endpoint` (DynamoDB Local, or a proxy in front of it). */
export function saveLocalConnection(ctx: CoreContext, endpoint: string): Promise<Connection> {
  return ctx.connections.save({
    color: '#1f6feb',
    kind: 'default-chain',
    region: 'us-east-1',
    endpoint,
    isProduction: false,
    label: 'Local',
    readOnly: false,
  });
}

/** The one ending (done, cancelled or error) of the operation `requestId` on this core. */
export function operationEnded(ctx: CoreContext, requestId: string): Promise<OperationEvent> {
  return new Promise((resolve) => {
    const off = ctx.events.subscribe((event) => {
      if (event.requestId !== requestId || event.type === 'progress' || event.type === 'page') return;
      off();
      resolve(event);
    });
  });
}

/** Polls `probe` until it answers something, for observable state a test waits on (never a sleep). */
export async function until<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
