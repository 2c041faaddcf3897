import { unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { SchemaAccumulator } from '../../src/main/schema/accumulator';
import { buildSchemaReport } from '../../src/main/schema/report';
import { reportHead } from '../support/schema-report-head';
import { generateOrmModel } from '../../src/shared/schema/orm-model';

const keys = {
  partitionKey: { name: 'PK', type: 'S' as const },
  sortKey: { name: 'SK', type: 'S' as const },
};
const indexes = [
  {
    name: 'GSI1',
    kind: 'GSI' as const,
    keys: {
      partitionKey: { name: 'GSI1PK', type: 'S' as const },
      sortKey: { name: 'GSI1SK', type: 'S' as const },
    },
  },
];
const head = reportHead({ scanId: 'orm', table: 'shop', keys, indexes });

const iso = (i: number) => new Date(Date.UTC(2024, 0, 1 + i)).toISOString();
const users: Item[] = Array.from({ length: 12 }, (_, i) => ({
  PK: { S: `USER#u${i}` },
  SK: { S: `PROFILE#u${i}` },
  name: { S: `user ${i}` },
  createdAt: { S: iso(i) },
  ...(i % 3 === 0 ? { nickname: { S: 'n' } } : {}),
}));
const orders: Item[] = Array.from({ length: 20 }, (_, i) => ({
  PK: { S: `USER#u${i % 12}` },
  SK: { S: `ORDER#o${i}` },
  GSI1PK: { S: `STATUS#${i % 2 ? 'PAID' : 'OPEN'}` },
  GSI1SK: { S: `DATE#${iso(i)}` },
  total: i % 4 === 0 ? { S: String(i) } : { N: String(i * 10) },
  placedAt: { N: String(Date.UTC(2024, 1, 1 + i)) },
  // Epoch-looking, but a price: the pre-flight takes epoch numbers for dates only under time names.
  price: { N: String(1_700_000_000 + i * 1000) },
}));

function reportOf(items: Item[]) {
  const acc = new SchemaAccumulator({ keys, entities: { kind: 'keys' }, indexes });
  for (const item of items) acc.add(item);
  return buildSchemaReport(acc, head, ['PK', 'SK', 'GSI1PK', 'GSI1SK']);
}

interface Model {
  name: string;
  schema: z.ZodType;
  options?: { defaultDateStorage?: string };
  keys: Map<string, 'hash' | 'range'>;
}

/** Runs the generated module with the ORM's entry points as recorders and the real zod. */
function modelsOf(text: string): Model[] {
  const models: Model[] = [];
  const marks = new Map<z.ZodType, 'hash' | 'range'>();
  const body = text
    .split('\n')
    .filter((line) => !line.startsWith('import '))
    .join('\n')
    .replace(/export const /g, 'const ');
  const model = (name: string, schema: z.ZodObject, options?: Model['options']) => {
    const keyMarks = new Map<string, 'hash' | 'range'>();
    for (const [field, s] of Object.entries(schema.shape)) {
      const mark = marks.get(s as z.ZodType);
      if (mark) keyMarks.set(field, mark);
    }
    models.push({ name, schema, options, keys: keyMarks });
  };
  const hashKey = (s: z.ZodType) => (marks.set(s, 'hash'), s);
  const rangeKey = (s: z.ZodType) => (marks.set(s, 'range'), s);
  // The generated module's text is what a user pastes into their code: run it as that code runs.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const run = new Function('model', 'hashKey', 'rangeKey', 'z', body) as (...args: unknown[]) => void;
  run(model, hashKey, rangeKey, z);
  return models;
}

/** An item as the ORM hands it over: the model's Date fields as Dates. */
function asOrmItem(item: Item, dateFields: string[]): Record<string, unknown> {
  const plain = unmarshall(item as never) as Record<string, unknown>;
  for (const f of dateFields) if (f in plain) plain[f] = new Date(plain[f] as string | number);
  return plain;
}

describe('dynotable-orm model', () => {
  const report = reportOf([...users, ...orders]);
  const text = generateOrmModel(report, undefined, 'a test');
  const models = modelsOf(text);
  if (process.env.SHOW_ORM) console.log(text);

  it('one model per entity, keys marked, the key templates and the GSI named', () => {
    expect(models.map((m) => m.name).sort()).toEqual(['Order', 'Profile']);
    for (const m of models)
      expect([...m.keys]).toEqual([
        ['PK', 'hash'],
        ['SK', 'range'],
      ]);
    expect(text).toContain('SK: rangeKey(z.string()), // key template ORDER#…');
    expect(text).toContain('GSI1PK: z.string(), // GSI1 key, template STATUS#…');
    expect(text).toContain('// GSI GSI1: GSI1PK / GSI1SK (GSI1PK=STATUS#… GSI1SK=DATE#…, 20 items)');
    expect(text).toMatch(
      /import \{model\} from 'dynotable-orm';\nimport \{hashKey, rangeKey\} from 'dynotable-orm\/zod';/,
    );
  });

  it('Date storage as observed: ISO strings give defaultDateStorage iso, epoch milliseconds the default', () => {
    const user = models.find((m) => m.name === 'Profile')!;
    const order = models.find((m) => m.name === 'Order')!;
    expect(user.options).toEqual({ defaultDateStorage: 'iso' });
    expect(order.options).toBeUndefined();
    expect(text).toContain('createdAt: z.date(), // stored as ISO strings 12');
    expect(text).toContain('placedAt: z.date(), // stored as epoch milliseconds 20');
    expect(text).toContain('price: z.number(),');
    expect(text).not.toMatch(/price: z\.date\(\)/);
  });

  it('every item of each entity parses; presence decides optional, mixed types are a union with counts', () => {
    const user = models.find((m) => m.name === 'Profile')!;
    const order = models.find((m) => m.name === 'Order')!;
    for (const item of users)
      expect(user.schema.safeParse(asOrmItem(item, ['createdAt'])).success).toBe(true);
    for (const item of orders)
      expect(order.schema.safeParse(asOrmItem(item, ['placedAt'])).success).toBe(true);
    expect(user.schema.safeParse({ ...asOrmItem(users[1]!, ['createdAt']), name: undefined }).success).toBe(
      false,
    );
    expect(text).toContain('nickname: z.string().optional(), // in 4 of 12 items');
    expect(text).toContain('total: z.union([z.number(), z.string()]), // several types: S 5, N 15');
  });

  it('one entity alone', () => {
    const only = modelsOf(generateOrmModel(report, 'profiles', 'a test'));
    expect(only.map((m) => m.name)).toEqual(['Profile']);
  });
});
