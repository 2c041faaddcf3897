import type { CopyReport } from '../../src/shared/ipc/copy';
import type { ItemsHarness } from './items-context';

let counter = 0;

/** Starts a copy through the dispatcher and resolves with its report; a refusal or an error throws with its code. */
export async function runCopyOperation(
  h: ItemsHarness,
  payload: Record<string, unknown>,
): Promise<CopyReport> {
  const requestId = `copy_${++counter}_${Date.now()}`;
  const done = h.waitFor(requestId);
  const started = await h.call<{ copyId: string }>('copy:start', { ...payload, requestId });
  if (!started.ok) throw Object.assign(new Error(started.error.message), { code: started.error.code });
  const { last } = await done;
  if (last.type === 'error') throw Object.assign(new Error(last.error.message), { code: last.error.code });
  if (last.type !== 'done') throw new Error(`ended with ${last.type}`);
  return last.value as CopyReport;
}
