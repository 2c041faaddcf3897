import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { copyHandlers } from '../../src/main/ipc/handlers/copy';
import { runCopyOperation } from '../support/copy-harness';
import { canonicalItems, rawPutAll, rawScanAll } from '../support/copy-oracle';
import { uniqueTableName } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';
import { itemsHarness, type ItemsHarness } from '../support/items-context';

let h: ItemsHarness;
let endpoint: string;
let dataDir: string;
const copy = (payload: Record<string, unknown>) => runCopyOperation(h, payload);

async function table(provisioned?: { read: number; write: number }): Promise<string> {
  const name = uniqueTableName('copylimit');
  await createTable(h.client, name, {
    partitionKey: ['pk', 'S'],
    ...(provisioned
      ? {
          options: {
            BillingMode: 'PROVISIONED',
            ProvisionedThroughput: {
              ReadCapacityUnits: provisioned.read,
              WriteCapacityUnits: provisioned.write,
            },
          },
        }
      : {}),
  });
  await rawPutAll(
    endpoint,
    name,
    Array.from({ length: 40 }, (_, i) => ({ pk: { S: `item#${i}` }, n: { N: String(i) } })),
  );
  return name;
}

beforeAll(() => {
  endpoint = inject('dynamoEndpoint');
  h = itemsHarness(endpoint, copyHandlers);
  dataDir = mkdtempSync(path.join(tmpdir(), 'dynotable-copylimits-'));
  (h.ctx as { dataDir: string }).dataDir = dataDir;
});

afterAll(async () => {
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('copy rates as a share of capacity', () => {
  it('takes a share of the provisioned RCU and WCU from the tables’ descriptions', async () => {
    const source = await table({ read: 40, write: 60 });
    const target = uniqueTableName('copylimitdst');
    const report = await copy({
      source: { connectionId: 'local', table: source },
      target: { connectionId: 'local', table: target, create: true },
      readShare: 0.5,
      writeShare: 0.25,
    });
    expect(report.notes).toContain(
      `Read at most 50% of ${source}'s 40 provisioned read capacity units (RCU): 20 per second, counted from DynamoDB's ConsumedCapacity.`,
    );
    // The target was created from the source's definition, so it has the source's 60 WCU.
    expect(report.notes).toContain(
      `Wrote at most 25% of ${target}'s 60 provisioned write capacity units (WCU): 15 per second, counted from DynamoDB's ConsumedCapacity.`,
    );
    expect(report).toMatchObject({ itemsWritten: 40, itemsFailed: 0 });
    expect(report.verified?.checksumsMatch).toBe(true);
    expect(canonicalItems(await rawScanAll(endpoint, target))).toEqual(
      canonicalItems(await rawScanAll(endpoint, source)),
    );
  });

  it('refuses a share of an on-demand table with a sentence, before creating the target', async () => {
    const source = await table();
    const target = uniqueTableName('copylimitod');
    await expect(
      copy({
        source: { connectionId: 'local', table: source },
        target: { connectionId: 'local', table: target, create: true },
        readShare: 0.5,
      }),
    ).rejects.toMatchObject({
      code: 'InvalidInput',
      message: expect.stringContaining(`${source} is on-demand`) as unknown,
    });
    await expect(rawScanAll(endpoint, target)).rejects.toThrow();
  });

  it('refuses a rate and a share for one side before anything is created', async () => {
    const source = await table();
    const target = uniqueTableName('copylimitboth');
    await expect(
      copy({
        source: { connectionId: 'local', table: source },
        target: { connectionId: 'local', table: target, create: true },
        writeRate: 100,
        writeShare: 0.5,
      }),
    ).rejects.toMatchObject({
      code: 'InvalidInput',
      message: expect.stringContaining('not both') as unknown,
    });
    await expect(rawScanAll(endpoint, target)).rejects.toThrow();
  });
});
