import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { copyHandlers } from '../../src/main/ipc/handlers/copy';
import type { CopyReport } from '../../src/shared/ipc/copy';
import type { OperationEvent } from '../../src/shared/ipc';
import { rawPutAll, tableChecksum } from '../support/copy-oracle';
import { uniqueTableName } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';
import { faultyHarness, type FaultyHarness } from '../support/faulty-harness';

// The copy against DynamoDB's refusals that DynamoDB Local never sends, through the app's own
// clients (adaptive retry, five attempts) and a server that answers some calls with the real
// wire errors; the oracle is DynamoDB Local's raw wire JSON of both tables.
let h: FaultyHarness;
let upstream: string;
let dataDir: string;
let counter = 0;

async function sourceWith(count: number): Promise<string> {
  const table = uniqueTableName('faultsrc');
  await createTable(h.client, table, { partitionKey: ['pk', 'S'] });
  await rawPutAll(
    upstream,
    table,
    Array.from({ length: count }, (_, i) => ({ pk: { S: `K#${i}` }, n: { N: `${i}.50` }, b: { B: 'AAE=' } })),
  );
  return table;
}

async function run(channel: string, payload: Record<string, unknown>): Promise<OperationEvent> {
  const requestId = `copyfault_${++counter}_${Date.now()}`;
  const done = h.waitFor(requestId);
  const started = await h.call(channel, { ...payload, requestId });
  if (!started.ok) throw new Error(started.error.message);
  return (await done).last;
}

beforeAll(async () => {
  upstream = inject('dynamoEndpoint');
  h = await faultyHarness(upstream, copyHandlers);
  dataDir = mkdtempSync(path.join(tmpdir(), 'dynotable-copy-faults-'));
  (h.ctx as { dataDir: string }).dataDir = dataDir;
});

afterAll(async () => {
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('copy under faults', () => {
  it('rides out throttled BatchWriteItem calls and still copies every item', async () => {
    const source = await sourceWith(120);
    const target = uniqueTableName('faultdst');
    h.faulty.script({ operation: 'BatchWriteItem', fault: 'provisioned-throughput', every: 2, next: 6 });
    const last = await run('copy:start', {
      source: { connectionId: 'local', table: source },
      target: { connectionId: 'local', table: target, create: true },
      segments: 2,
    });
    h.faulty.heal();
    expect(last.type).toBe('done');
    expect(h.faulty.refused('BatchWriteItem').length).toBeGreaterThanOrEqual(3);
    const report = (last as { value: CopyReport }).value;
    expect(report).toMatchObject({ itemsWritten: 120, itemsFailed: 0 });
    expect(report.verified?.checksumsMatch).toBe(true);
    expect(await tableChecksum(upstream, target)).toEqual(await tableChecksum(upstream, source));
  });

  it('stops on expired credentials with a checkpoint, and a resume ends with exactly the source items', async () => {
    const source = await sourceWith(300);
    const target = uniqueTableName('faultexp');
    // Let some batches land first, then every call is refused as a real expired session would be.
    h.faulty.script({ operation: 'BatchWriteItem', fault: 'expired-token', after: 3 });
    const started = await h.call<{ copyId: string }>('copy:start', {
      requestId: `copyfault_${++counter}_${Date.now()}`,
      source: { connectionId: 'local', table: source },
      target: { connectionId: 'local', table: target, create: true },
      segments: 1,
    });
    if (!started.ok) throw new Error(started.error.message);
    const copyId = started.value.copyId;
    const listed = async () => {
      const list = await h.call<{ copies: { copyId: string; state: string; itemsWritten: number }[] }>(
        'copy:list',
        {},
      );
      return list.ok ? list.value.copies.find((c) => c.copyId === copyId) : undefined;
    };
    await expect.poll(async () => (await listed())?.state, { timeout: 60_000 }).toBe('stopped');
    const stopped = await listed();
    expect(stopped?.itemsWritten).toBeLessThan(300);
    h.faulty.heal();

    const last = await run('copy:resume', { copyId });
    expect(last.type).toBe('done');
    const report = (last as { value: CopyReport }).value;
    expect(report).toMatchObject({ complete: true, itemsRead: 300, itemsWritten: 300, itemsFailed: 0 });
    expect(report.verified?.checksumsMatch).toBe(true);
    expect(await tableChecksum(upstream, target)).toEqual(await tableChecksum(upstream, source));
  });
});
