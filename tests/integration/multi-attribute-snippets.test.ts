import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildReadRequest } from '../../src/shared/dynamo/read-request';
import { toAwsCli, toSdkV3Code } from '../../src/shared/dynamo/request-code';
import type { ReadSpec } from '../../src/shared/ipc/query';
import { uniqueTableName } from '../support/dynamo-local';
import { createHostileMultiKeyTable, HOSTILE_INDEX, HOSTILE_INDEX_INFO } from '../support/hostile-multi-key';
import { canonical, rawReadAll } from '../support/raw-dynamo';

// The "Copy as SDK v3 / AWS CLI" text for a Query on a 2 + 2 multi-attribute index with hostile
// names, run as written (node on the SDK code, the aws CLI on the command line) against DynamoDB
// Local, and compared with DynamoDB Local's own answer to the Query sent over raw HTTP.
const run = promisify(execFile);
let endpoint: string;
let table: string;
let dir: string;

const index = HOSTILE_INDEX_INFO;

beforeAll(async () => {
  endpoint = inject('dynamoEndpoint');
  table = uniqueTableName('snippets');
  await createHostileMultiKeyTable(endpoint, table, 48);
  // The SDK code imports @aws-sdk/client-dynamodb as pasted: it resolves through this link.
  dir = await mkdtemp(join(tmpdir(), 'dynotable-snippet-'));
  await symlink(join(process.cwd(), 'node_modules'), join(dir, 'node_modules'), 'dir');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const where = () => ({ region: 'us-east-1', endpoint, hasLocalKeys: true });
const paging = { pageSize: 5, maxItems: 1000, untilMatches: true };
/**
 * The SDK code in one page: its parser drops a `__proto__` attribute from LastEvaluatedKey too,
 * so with this index a second page is refused ("The provided starting key is invalid"), an SDK
 * limit the pasted code cannot get around. The CLI pages by 5.
 */
const onePage = { ...paging, pageSize: 100 };

const cases: [string, ReadSpec, string, Record<string, unknown>][] = [
  [
    'every partition attribute',
    { mode: 'query', index: HOSTILE_INDEX, partitionKey: { S: 't1' }, morePartitionKeys: [{ S: 'eu' }] },
    '#p = :p AND #a = :a',
    { ':p': { S: 't1' }, ':a': { S: 'eu' } },
  ],
  [
    'both partition attributes, = on the first sort attribute and a range on the second',
    {
      mode: 'query',
      index: HOSTILE_INDEX,
      partitionKey: { S: 't1' },
      morePartitionKeys: [{ S: 'us' }],
      sortKey: { op: '=', value: { S: 'd0' } },
      moreSortKeys: [{ op: 'between', value: { N: '5' }, value2: { N: '40' } }],
      descending: true,
    },
    '#p = :p AND #a = :a AND #x = :x AND #z BETWEEN :lo AND :hi',
    { ':p': { S: 't1' }, ':a': { S: 'us' }, ':x': { S: 'd0' }, ':lo': { N: '5' }, ':hi': { N: '40' } },
  ],
];

describe('code snippets for a Query on a multi-attribute index', () => {
  it.each(cases)(
    'name %s in the key condition, and run as written',
    async (_, spec, condition, values) => {
      const request = buildReadRequest(
        { table, keys: { partitionKey: { name: 'id', type: 'S' } }, indexes: [index] },
        spec,
      );
      const direct = await rawReadAll(endpoint, 'Query', {
        TableName: table,
        IndexName: HOSTILE_INDEX,
        KeyConditionExpression: condition,
        ExpressionAttributeNames: Object.fromEntries(
          Object.entries({ '#p': '__proto__', '#a': 'a.b', '#x': '#x', '#z': '[0]' }).filter(([p]) =>
            condition.includes(p),
          ),
        ),
        ExpressionAttributeValues: values,
        ...(spec.descending ? { ScanIndexForward: false } : {}),
      });
      expect(direct.length).toBeGreaterThan(0);
      // Every partition attribute with =, the sort attributes left to right, each by placeholder.
      const names = request.input.ExpressionAttributeNames as Record<string, string>;
      const keyCondition = String(request.input.KeyConditionExpression);
      const named = Object.entries(names)
        .filter(([placeholder]) => keyCondition.includes(placeholder))
        .sort(([a], [b]) => keyCondition.indexOf(a) - keyCondition.indexOf(b))
        .map(([, name]) => name);
      expect(named).toEqual(spec.sortKey ? ['__proto__', 'a.b', '#x', '[0]'] : ['__proto__', 'a.b']);

      const code = toSdkV3Code(request, where(), onePage);
      const file = join(dir, `query-${Math.random().toString(36).slice(2)}.mjs`);
      await writeFile(file, code);
      const sdk = await run(process.execPath, [file], { cwd: dir, timeout: 60_000 });
      const sdkItems = JSON.parse(sdk.stdout) as unknown[];
      // The SDK's own parser builds each item by assignment, so an attribute named __proto__
      // never reaches the printed items (DynoTable's reads keep it; pasted code cannot): compared
      // without it, in DynamoDB's order (descending where asked).
      const withoutProto = direct.map((item) =>
        Object.fromEntries(Object.entries(item).filter(([name]) => name !== '__proto__')),
      );

      expect(sdkItems.map((i) => canonical(i))).toEqual(withoutProto.map((i) => canonical(i)));

      const cli = toAwsCli(request, where(), paging);
      const shell = await run('bash', ['-c', cli], { timeout: 60_000 });
      const cliItems = (JSON.parse(shell.stdout) as { Items: unknown[] }).Items;
      expect(cliItems.map((i) => canonical(i))).toEqual(direct.map((i) => canonical(i)));
    },
    120_000,
  );
});
