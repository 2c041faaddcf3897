import { startSsoSignIn } from '../../../src/main/aws/sso-sign-in';
import { EventBus } from '../../../src/main/core/events';
import { OperationRegistry } from '../../../src/main/core/operations';
import type { Connection } from '../../../src/shared/ipc/connection';
import type { OperationEvent } from '../../../src/shared/ipc/operations';

export type ProgressEvent = Extract<OperationEvent, { type: 'progress' }>;

/**
 * Runs a sign-in the way create-core does (OperationRegistry + EventBus) and resolves with all
 * of its events once it ends. `onProgress` plays the user reading the dialog; `cancel` is the
 * dialog's Cancel button.
 */
export function runSsoSignIn(
  connection: Connection,
  ctx: Parameters<typeof startSsoSignIn>[2],
  onProgress?: (event: ProgressEvent, cancel: () => void) => Promise<void> | void,
): Promise<OperationEvent[]> {
  const bus = new EventBus();
  const operations = new OperationRegistry(bus);
  const events: OperationEvent[] = [];
  const requestId = 'sign-in-0001';
  return new Promise((resolve) => {
    bus.subscribe((event) => {
      events.push(event);
      if (event.type === 'progress') void onProgress?.(event, () => operations.cancel(requestId));
      if (event.type === 'done' || event.type === 'error' || event.type === 'cancelled') resolve(events);
    });
    operations.start(requestId, (run) => startSsoSignIn(connection, run, ctx));
  });
}
