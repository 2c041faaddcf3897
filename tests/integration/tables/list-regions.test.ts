import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Connection } from '../../../src/shared/ipc/connection';
import type { RegionListing } from '../../../src/shared/ipc/table-regions';
import { tableHandlers } from '../../../src/main/ipc/handlers/tables';
import { operationHandlers } from '../../../src/main/ipc/handlers/operations';
import { itemsHarness, useAppClients, type ItemsHarness } from '../../support/items-context';
import { uniqueTableName } from '../../support/dynamo-local';
import { createKeyedTable } from '../../support/dynamo-tables';
import { startRegionProxy, type RegionProxy } from '../../support/region-proxy';
import { nextRequestId } from '../../support/table-admin';

// Every region of an account, with the app's own client factory and the real SDK: the SDK's
// AWS_ENDPOINT_URL_DYNAMODB points every region at a proxy in front of DynamoDB Local, which keeps
// one database per signed region. The connection itself has no endpoint, as an AWS one would not.
let h: ItemsHarness;
let proxy: RegionProxy;
const account: Connection = {
  id: 'account',
  label: 'Account',
  color: '#1f6feb',
  kind: 'keys',
  region: 'eu-west-1',
  readOnly: true,
  isProduction: false,
  hasStoredKeys: true,
};

function regionClient(region: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint: inject('dynamoEndpoint'),
    region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

async function tableIn(region: string, prefix: string, items: number): Promise<string> {
  const client = regionClient(region);
  const name = await createKeyedTable(client, uniqueTableName(prefix), { items });
  client.destroy();
  return name;
}

beforeAll(async () => {
  proxy = await startRegionProxy(inject('dynamoEndpoint'), {
    answers: {
      'me-south-1': {
        status: 400,
        type: 'UnrecognizedClientException',
        message: 'The security token included in the request is invalid.',
      },
      'ap-south-1': {
        status: 400,
        type: 'AccessDeniedException',
        message: 'User is not authorized to perform: dynamodb:ListTables',
      },
    },
    hang: ['sa-east-1'],
  });
  process.env.AWS_ENDPOINT_URL_DYNAMODB = proxy.endpoint;
  h = itemsHarness(inject('dynamoEndpoint'), { ...tableHandlers, ...operationHandlers });
  await h.ctx.connections.save(account);
  useAppClients(h);
});
afterAll(async () => {
  delete process.env.AWS_ENDPOINT_URL_DYNAMODB;
  await h.close();
  await proxy.close();
});

async function listRegions(connectionId: string, regions?: string[], cancelAfterStart = false) {
  const requestId = nextRequestId('regions');
  const finished = h.waitFor(requestId);
  const started = await h.call<{ started: boolean; regions: string[] }>('tables:listRegions', {
    connectionId,
    requestId,
    ...(regions ? { regions } : {}),
  });
  if (!started.ok) throw new Error(started.error.message);
  if (cancelAfterStart) await h.call('ops:cancel', { requestId });
  const { last, events } = await finished;
  return { regions: started.value.regions, last, events };
}

describe('tables:listRegions', () => {
  it('lists each region its own tables, with counts, a failing region as a sentence, a not-enabled one left out', async () => {
    const dublin = await tableIn('eu-west-1', 'dublin', 3);
    const sydney = await tableIn('ap-southeast-2', 'sydney', 1);
    const { regions, last, events } = await listRegions('account', [
      'eu-west-1',
      'ap-southeast-2',
      'ap-south-1',
      'me-south-1',
    ]);
    expect(regions).toEqual(['eu-west-1', 'ap-southeast-2', 'ap-south-1', 'me-south-1']);
    expect(last.type, JSON.stringify(last)).toBe('done');
    const listing = (last.type === 'done' ? last.value : undefined) as RegionListing;
    const byRegion = new Map(listing.regions.map((r) => [r.region, r]));
    const names = (region: string) => byRegion.get(region)?.tables?.map((t) => t.name) ?? [];
    expect(names('eu-west-1')).toContain(dublin);
    expect(names('eu-west-1')).not.toContain(sydney);
    expect(names('ap-southeast-2')).toContain(sydney);
    expect(names('ap-southeast-2')).not.toContain(dublin);
    expect(byRegion.get('eu-west-1')?.tables?.find((t) => t.name === dublin)).toMatchObject({
      status: 'ACTIVE',
      itemCount: 3,
    });
    expect(byRegion.get('ap-south-1')).toMatchObject({ error: { code: 'AccessDeniedException' } });
    expect(byRegion.get('ap-south-1')?.tables).toBeUndefined();
    expect(byRegion.get('ap-south-1')?.error?.message).toMatch(/^ap-south-1: /);
    expect(byRegion.get('me-south-1')).toEqual({ region: 'me-south-1', isNotEnabled: true });
    const messages = events.flatMap((e) => (e.type === 'progress' ? [e.progress.message] : []));
    expect(messages.at(-1)).toBe('4 of 4 regions answered…');
  });

  it('asks every region when none is chosen, and a cancel ends it while one region hangs', async () => {
    const { regions, last } = await listRegions('account', undefined, true);
    expect(regions).toContain('sa-east-1');
    expect(regions.length).toBeGreaterThan(20);
    expect(last.type).toBe('cancelled');
  });

  it('treats a DynamoDB Local connection as one region, whatever is asked', async () => {
    const table = await tableIn('us-east-1', 'localone', 0);
    const { regions, last } = await listRegions('local', ['eu-west-1', 'us-west-2']);
    expect(regions).toEqual(['us-east-1']);
    const listing = (last.type === 'done' ? last.value : undefined) as RegionListing;
    expect(listing.regions).toHaveLength(1);
    expect(listing.regions[0]?.tables?.map((t) => t.name)).toContain(table);
  });
});
