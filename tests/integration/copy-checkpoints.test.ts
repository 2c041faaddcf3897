import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { copyHandlers } from '../../src/main/ipc/handlers/copy';
import type { CopyCheckpointSummary, CopyList, CopyReport } from '../../src/shared/ipc/copy';
import { runCli } from '../support/cli-run';
import { crashedCopy as crashedCopyIn } from '../support/copy-harness';
import { tableChecksum } from '../support/copy-oracle';
import { itemsHarness, type ItemsHarness } from '../support/items-context';

let h: ItemsHarness;
let endpoint: string;

const crashedCopy = () => crashedCopyIn(h, endpoint, 30);

async function listed(): Promise<CopyCheckpointSummary[]> {
  const answer = await h.call<CopyList>('copy:list', {});
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value.copies;
}

beforeAll(() => {
  endpoint = inject('dynamoEndpoint');
  h = itemsHarness(endpoint, copyHandlers);
});

afterAll(() => h.close());

describe('unfinished copies after a restart', () => {
  it('lists a copy cut off by a crash as stopped, resumes it to the end, then lists it complete', async () => {
    const { copyId, source, target } = await crashedCopy();
    expect((await listed()).find((c) => c.copyId === copyId)).toMatchObject({
      state: 'stopped',
      source: { table: source },
      target: { table: target },
    });
    const requestId = 'resume-crashed-copy';
    const done = h.waitFor(requestId);
    const started = await h.call('copy:resume', { requestId, copyId });
    expect(started.ok).toBe(true);
    const { last } = await done;
    expect(last.type).toBe('done');
    expect((last as { value: CopyReport }).value).toMatchObject({ itemsWritten: 30, complete: true });
    expect(await tableChecksum(endpoint, target)).toEqual(await tableChecksum(endpoint, source));
    expect((await listed()).find((c) => c.copyId === copyId)?.state).toBe('complete');
  });

  it('discards an unfinished copy: it leaves the list and cannot be resumed', async () => {
    const { copyId } = await crashedCopy();
    expect(await h.call('copy:discard', { copyId })).toMatchObject({ ok: true, value: { discarded: true } });
    expect((await listed()).some((c) => c.copyId === copyId)).toBe(false);
    expect(await h.call('copy:resume', { requestId: 'gone-copy-1', copyId })).toMatchObject({
      ok: false,
      error: { code: 'NotFound' },
    });
  });

  it('the CLI lists the unfinished copies from disk and discards one by id', async () => {
    const { copyId, source } = await crashedCopy();
    const env = { DYNOTABLE_DATA_DIR: h.ctx.dataDir };
    const list = await runCli(['copy', '--list'], env);
    expect(list.code).toBe(0);
    const copies = JSON.parse(list.stdout) as CopyCheckpointSummary[];
    expect(copies.find((c) => c.copyId === copyId)).toMatchObject({
      state: 'stopped',
      source: { table: source },
    });
    const discarded = await runCli(['copy', '--discard', copyId], env);
    expect(discarded.code).toBe(0);
    const after = JSON.parse((await runCli(['copy', '--list'], env)).stdout) as CopyCheckpointSummary[];
    expect(after.some((c) => c.copyId === copyId)).toBe(false);
    const again = await runCli(['copy', '--discard', copyId], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`There is no copy ${copyId}`);
  });
});
