import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { streamExportDownload } from '../../src/main/export-rows/export-download';
import { rowsSourceOf } from '../../src/main/export-rows/rows-source';
import { toSdkItem } from '../../src/main/dynamo/marshal';
import { queryHandlers } from '../../src/main/ipc/handlers/query';
import { parseDynamoJson } from '../../src/shared/dynamo/item-json';
import { everyTypeItem } from '../fixtures/items-every-type';
import { expectSameItem } from '../support/items-assert';
import { createItemsTable, itemsHarness, type ItemsHarness, runQuery } from '../support/items-context';

let h: ItemsHarness;
let server: Server;
let base: string;

beforeAll(async () => {
  h = itemsHarness(inject('dynamoEndpoint'), queryHandlers);
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    streamExportDownload((ids) => rowsSourceOf(h.ctx, ids), url.searchParams, response).catch(
      (error: unknown) => {
        response.statusCode = 400;
        response.end(error instanceof Error ? error.message : String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await h.close();
});

it('streams a result set as a JSON Lines download that parses back to the same items', async () => {
  const table = await createItemsTable(h.client, { prefix: 'download' });
  const item = everyTypeItem('dl#1');
  await h.client.send(new PutItemCommand({ TableName: table, Item: toSdkItem(item) }));
  const { resultSetId } = await runQuery(h, { table, spec: { mode: 'scan' } });
  const response = await fetch(`${base}/?resultSetId=${resultSetId}&format=jsonl&table=${table}`);
  expect(response.headers.get('content-type')).toBe('application/x-ndjson');
  expect(response.headers.get('content-disposition')).toMatch(
    new RegExp(`attachment; filename="${table}-.*\\.jsonl"`),
  );
  const lines = (await response.text()).trim().split('\n');
  expect(lines).toHaveLength(1);
  const line = JSON.parse(lines[0] ?? '') as { Item: unknown };
  expectSameItem(parseDynamoJson(JSON.stringify(line.Item)), item);
  const bad = await fetch(`${base}/?format=xml`);
  expect(bad.status).toBe(400);
  expect(await bad.text()).toMatch(/needs its rows \(resultSetId or sqlResultId\) and a format/);
});
