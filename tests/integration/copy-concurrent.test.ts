import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { copyHandlers } from '../../src/main/ipc/handlers/copy';
import { runCopyOperation } from '../support/copy-harness';
import { rawPutAll, rawScanAll } from '../support/copy-oracle';
import { uniqueTableName } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';
import { itemsHarness, type ItemsHarness } from '../support/items-context';
import { canonical, rawDynamo } from '../support/raw-dynamo';

// The conflict policies while another client writes the same keys of the target during the
// copy. Whichever lands first, the end state is fixed for skip and newer-wins (the other writer's
// item, version 100, is never replaced by the source's version 1); for overwrite each contested
// key holds one of the two items whole, never a mix. The oracle is DynamoDB Local's raw wire JSON.
let h: ItemsHarness;
let endpoint: string;

const COUNT = 300;
type Raw = Record<string, unknown>;
const sourceItem = (i: number): Raw => ({
  pk: { S: `K#${i}` },
  version: { N: '1' },
  from: { S: 'source' },
  body: { S: 'x'.repeat(100) },
});
const writerItem = (i: number): Raw => ({
  pk: { S: `K#${i}` },
  version: { N: '100' },
  from: { S: 'writer' },
});
/** Every tenth key, in an order that spreads them over the copy's segments. */
const contested = Array.from({ length: COUNT / 10 }, (_, i) => i * 10).sort(
  (a, b) => ((a * 7919) % 31) - ((b * 7919) % 31),
);

async function tables(): Promise<{ source: string; target: string }> {
  const source = uniqueTableName('concsrc');
  const target = uniqueTableName('concdst');
  await createTable(h.client, source, { partitionKey: ['pk', 'S'] });
  await createTable(h.client, target, { partitionKey: ['pk', 'S'] });
  await rawPutAll(
    endpoint,
    source,
    Array.from({ length: COUNT }, (_, i) => sourceItem(i)),
  );
  return { source, target };
}

/** Copies at 60 items/s while the other writer puts the contested keys, unconditionally. */
async function copyWhileWriting(policy: Record<string, unknown>) {
  const { source, target } = await tables();
  const state = { copying: true }; // an object: set in a callback, which narrowing cannot follow
  const copied = runCopyOperation(h, {
    source: { connectionId: 'local', table: source },
    target: { connectionId: 'local', table: target },
    conflict: policy,
    segments: 3,
    writeRate: 60,
  }).finally(() => (state.copying = false));
  let during = 0;
  for (const i of contested) {
    await rawDynamo(endpoint, 'PutItem', { TableName: target, Item: writerItem(i) });
    if (state.copying) during++;
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  const report = await copied;
  const stored = new Map((await rawScanAll(endpoint, target)).map((item) => [canonical(item.pk), item]));
  return { report, stored, during };
}

beforeAll(() => {
  endpoint = inject('dynamoEndpoint');
  h = itemsHarness(endpoint, copyHandlers);
});

afterAll(() => h.close());

describe('conflict policies under a concurrent writer', () => {
  it.each([
    ['skip', { policy: 'skip' }],
    ['newer-wins', { policy: 'newer', attribute: 'version' }],
  ])(
    '%s never replaces the other writer’s item, whichever lands first',
    async (_name, policy) => {
      const { report, stored, during } = await copyWhileWriting(policy);
      // The writer really ran while the copy did (most of its puts landed mid-copy).
      expect(during).toBeGreaterThan(contested.length / 2);
      expect(stored.size).toBe(COUNT);
      for (let i = 0; i < COUNT; i++) {
        const want = contested.includes(i) ? writerItem(i) : sourceItem(i);
        expect(canonical(stored.get(canonical({ S: `K#${i}` })))).toBe(canonical(want));
      }
      expect(report.itemsRead).toBe(COUNT);
      expect(report.itemsWritten + report.itemsSkipped).toBe(COUNT);
      expect(report.itemsFailed).toBe(0);
      // Every skip is a contested key the writer reached first; the verification (which may run
      // before the writer's last puts) names only contested keys.
      expect(report.itemsSkipped).toBeLessThanOrEqual(contested.length);
      expect(report.itemsSkipped).toBeGreaterThan(0);
      const named = report.verified?.differingKeys.map((k) => canonical(k.pk)) ?? [];
      expect(named.length).toBeGreaterThan(0);
      for (const key of named) expect(contested.map((i) => canonical({ S: `K#${i}` }))).toContain(key);
    },
    120_000,
  );

  it('overwrite leaves each contested key holding one whole item, the source’s or the writer’s', async () => {
    const { report, stored, during } = await copyWhileWriting({ policy: 'overwrite' });
    expect(during).toBeGreaterThan(contested.length / 2);
    expect(report).toMatchObject({ itemsRead: COUNT, itemsWritten: COUNT, itemsSkipped: 0, itemsFailed: 0 });
    expect(stored.size).toBe(COUNT);
    for (let i = 0; i < COUNT; i++) {
      const got = canonical(stored.get(canonical({ S: `K#${i}` })));
      if (!contested.includes(i)) expect(got).toBe(canonical(sourceItem(i)));
      else expect([canonical(sourceItem(i)), canonical(writerItem(i))]).toContain(got);
    }
    for (const key of report.verified?.differingKeys ?? [])
      expect(contested.map((i) => canonical({ S: `K#${i}` }))).toContain(canonical(key.pk));
  }, 120_000);
});
