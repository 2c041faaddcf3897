import type { OperationEvent } from '../../../src/shared/ipc';
import type { BrowserCore } from '../browser-core';
import { type ExportServer, startExportServer } from './export-server';
import { type LocalS3, startLocalS3 } from './s3-local';

export interface ExportStack {
  s3: LocalS3;
  /** DynamoDB (DynamoDB Local behind it) with exports and imports, and S3 on the same endpoint. */
  server: ExportServer;
  stop(): Promise<void>;
}

/**
 * What every export test starts: s3rver with the tests' buckets, and the export server in front
 * of the run's DynamoDB Local writing exports into it. `holdMs` keeps an export IN_PROGRESS that
 * long, so progress can be seen.
 */
export async function startExportStack(
  dynamoEndpoint: string,
  options: { buckets: string[]; holdMs?: number },
): Promise<ExportStack> {
  const s3 = await startLocalS3();
  for (const bucket of options.buckets) await s3.createBucket(bucket);
  const server = await startExportServer({
    dynamoEndpoint,
    s3Endpoint: s3.endpoint,
    ...(options.holdMs === undefined ? {} : { holdMs: options.holdMs }),
  });
  return {
    s3,
    server,
    async stop() {
      await server.stop();
      await s3.stop();
    },
  };
}

let counter = 0;
export const uniqueRequestId = (prefix: string): string => `${prefix}_${++counter}_${Date.now()}`;

/**
 * Starts a long channel (exports:start, exports:open, imports:start, sql:run…) under a new
 * requestId and waits for its end, which must be `done`.
 */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names what done.value holds
export async function runToDone<T>(
  app: BrowserCore,
  channel: string,
  payload: Record<string, unknown>,
): Promise<{ started: Record<string, unknown>; last: OperationEvent; events: OperationEvent[]; value: T }> {
  const id = uniqueRequestId(channel.replace(':', '_'));
  const done = app.waitFor(id);
  const started = await app.call<Record<string, unknown>>(channel, { ...payload, requestId: id });
  if (!started.ok) throw Object.assign(new Error(started.error.message), { code: started.error.code });
  const { last, events } = await done;
  if (last.type !== 'done') throw new Error(`${channel} ended ${last.type}: ${JSON.stringify(last)}`);
  return { started: started.value, last, events, value: last.value as T };
}
