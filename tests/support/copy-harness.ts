import { CopyStore, newCopyId } from '../../src/main/dynamo/copy/copy-checkpoint';
import { newCheckpoint } from '../../src/main/dynamo/copy/copy-service';
import { copyStartInput, type CopyReport } from '../../src/shared/ipc/copy';
import { rawPutAll } from './copy-oracle';
import { uniqueTableName } from './dynamo-local';
import { createTable } from './dynamo-tables';
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

/**
 * A checkpoint as a process that died right after starting a copy leaves it: state `running`
 * on disk, nothing running in this process (a fresh core stands for the restarted app). The
 * source holds `rows` items; the target is created by the resume.
 */
export async function crashedCopy(
  h: ItemsHarness,
  endpoint: string,
  rows: number,
): Promise<{ copyId: string; source: string; target: string }> {
  const source = uniqueTableName('copyckpt');
  await createTable(h.client, source, { partitionKey: ['pk', 'S'] });
  await rawPutAll(
    endpoint,
    source,
    Array.from({ length: rows }, (_, i) => ({ pk: { S: `p${i}` }, v: { N: String(i) } })),
  );
  const target = uniqueTableName('copyckptdst');
  const { requestId: _r, ...settings } = copyStartInput.parse({
    requestId: 'crashed-copy',
    source: { connectionId: 'local', table: source },
    target: { connectionId: 'local', table: target, create: true },
  });
  const checkpoint = newCheckpoint(newCopyId(), settings);
  await new CopyStore(h.ctx.dataDir).save(checkpoint);
  return { copyId: checkpoint.copyId, source, target };
}
