import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../support/cli-run';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems } from '../support/dynamo-tables';
import { tallyPaths } from '../support/schema-tally';

const endpoint = inject('dynamoEndpoint');
const client = localClient(endpoint);
afterAll(() => client.destroy());

const cli = (args: string[]) => runCli(args, { AWS_REGION: 'us-east-1' });

interface PipelineAttribute {
  path: string;
  items: number;
  types: Record<string, number>;
  distinct: number;
  min?: string;
  max?: string;
}

describe('dynotable schema', () => {
  const items = [
    ...Array.from({ length: 30 }, (_, i) => ({
      PK: { S: `USER#${i}` },
      SK: { S: `ORDER#${i}` },
      total: i % 3 === 0 ? { S: String(i) } : { N: String(i * 2) },
      lines: { L: [{ M: { sku: { S: `SKU-${i % 4}` } } }] },
    })),
    ...Array.from({ length: 10 }, (_, i) => ({
      PK: { S: `USER#${i}` },
      SK: { S: 'PROFILE' },
      'address.city': { S: 'Kyoto' },
    })),
  ];
  let table = '';

  beforeAll(async () => {
    table = await createTable(client, uniqueTableName('schcli'), {
      partitionKey: ['PK', 'S'],
      sortKey: ['SK', 'S'],
    });
    await putItems(client, table, items);
  });

  it('prints the JSON of a full scan, counts equal to a tally of what was written', async () => {
    const run = await cli(['schema', '--table', table, '--endpoint', endpoint, '--full', '--quiet']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as {
      itemsScanned: number;
      sampled: boolean;
      attributes: PipelineAttribute[];
      entities: { name: string; items: number; keyPattern: string }[];
      warnings: { kind: string; path: string }[];
    };
    expect(out.itemsScanned).toBe(40);
    expect(out.sampled).toBe(false);
    const tally = tallyPaths(items);
    expect(out.attributes.map((a) => a.path).sort()).toEqual([...tally.keys()].sort());
    for (const a of out.attributes) {
      expect(a.items, a.path).toBe(tally.get(a.path)?.items.size);
      expect(a.types, a.path).toEqual(Object.fromEntries(tally.get(a.path)?.types ?? []));
    }
    const total = out.attributes.find((a) => a.path === 'total');
    expect([total?.min, total?.max]).toEqual(['2', '58']);
    expect(out.attributes.find((a) => a.path === 'lines[].sku')?.distinct).toBe(4);
    expect(out.entities.map((e) => [e.name, e.items, e.keyPattern])).toEqual([
      ['orders', 30, 'PK=USER#… SK=ORDER#…'],
      ['users', 10, 'PK=USER#… SK=PROFILE'],
    ]);
    expect(out.warnings.map((w) => `${w.kind} ${w.path}`)).toEqual(
      expect.arrayContaining(['mixedTypes total', 'dottedName "address.city"']),
    );
  });

  it('narrows to one entity as Markdown, and refuses an unknown entity in one line with exit 2', async () => {
    const md = await cli([
      'schema',
      '--table',
      table,
      '--endpoint',
      endpoint,
      '--entity',
      'users',
      '--format',
      'md',
      '--quiet',
    ]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('## users (10 items, PK=USER#… SK=PROFILE)');
    expect(md.stdout).toContain('| `"address.city"` | 10 | 100% | S 10 |');
    expect(md.stdout).not.toContain('## orders');
    const zod = await cli([
      'schema',
      '--table',
      table,
      '--endpoint',
      endpoint,
      '--entity',
      'users',
      '--format',
      'zod',
      '--quiet',
    ]);
    expect(zod.code).toBe(0);
    expect(zod.stdout).toContain('export const userSchema = z.looseObject({');
    expect(zod.stdout).toContain('"address.city": z.string(),');
    const orm = await cli(['schema', '--table', table, '--endpoint', endpoint, '--format', 'orm', '--quiet']);
    expect(orm.code).toBe(0);
    expect(orm.stdout).toContain("import {hashKey, rangeKey} from 'dynotable-orm/zod';");
    expect(orm.stdout).toMatch(
      /export const User = model\(\n {2}'User',\n {2}z\.object\(\{\n {4}PK: hashKey\(z\.string\(\)\), \/\/ key template USER#…/,
    );
    expect(orm.stdout).toContain('export const Order = model(');
    const bad = await cli([
      'schema',
      '--table',
      table,
      '--endpoint',
      endpoint,
      '--entity',
      'nope',
      '--quiet',
    ]);
    expect(bad.code).toBe(2);
    expect(
      bad.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('dynotable')),
    ).toEqual([
      expect.stringMatching(
        /^dynotable schema: No entity named nope was found; the read found orders, users\./,
      ),
    ]);
  });
});
