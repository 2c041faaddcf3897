import { NumberValueImpl, type NumberValue, unmarshall } from '@aws-sdk/util-dynamodb';
import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import { SchemaAccumulator } from '../../src/main/schema/accumulator';
import { generateModel, scopeOf } from '../../src/shared/schema/model-gen';
import { buildSchemaReport } from '../../src/main/schema/report';
import { reportHead } from '../support/schema-report-head';

const keys = { partitionKey: { name: 'pk', type: 'S' as const } };
const head = reportHead({ scanId: 'models', table: 'orders_table', keys });

function reportOf(items: Item[]) {
  const acc = new SchemaAccumulator({ keys, entities: { kind: 'keys' } });
  for (const item of items) acc.add(item);
  return buildSchemaReport(acc, head, ['pk']);
}

/** The generated Zod text, evaluated with the real zod. */
function zodOf(text: string): z.ZodType {
  const body = text
    .split('\n')
    .filter((line) => !line.startsWith('import ') && !line.startsWith('//'))
    .join('\n')
    .replace(/export const \w+ = /, 'return ');
  // The generated module's text is what a user pastes into their code: run it as that code runs.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const run = new Function('z', 'NumberValueImpl', body) as (
    zod: typeof z,
    numberValue: typeof NumberValueImpl,
  ) => z.ZodType;
  return run(z, NumberValueImpl);
}

// Names that are hard to write in code (quotes, dots, brackets); `__proto__` is covered apart,
// since unmarshall() builds plain objects by assignment and drops it.
const NAMES = ['constructor', 'toString', 'a.b', '#tag', '[0]', 'say "hi"', 'name', 'n'];
const { value } = fc.letrec<{ value: AttributeValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ maxLength: 4 }).map((s) => ({ S: s })),
    fc.integer({ min: -99, max: 99 }).map((n) => ({ N: String(n) })),
    fc.boolean().map((b) => ({ BOOL: b })),
    fc.constant({ NULL: true as const }),
    fc.uniqueArray(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 3 }).map((ss) => ({ SS: ss })),
    fc
      .uniqueArray(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 3 })
      .map((ns) => ({ NS: ns.map(String) })),
    fc.array(tie('value'), { maxLength: 3 }).map((l) => ({ L: l })),
    fc
      .uniqueArray(fc.tuple(fc.constantFrom(...NAMES), tie('value')), { maxLength: 3, selector: (e) => e[0] })
      .map((m) => ({ M: Object.fromEntries(m) })),
  ),
}));
const itemArb = fc
  .tuple(
    fc.uuid(),
    fc.uniqueArray(fc.tuple(fc.constantFrom(...NAMES), value), { maxLength: 5, selector: (e) => e[0] }),
  )
  .map(([id, rest]): Item => ({ pk: { S: id }, ...Object.fromEntries(rest) }));

/** The JSON form JSON Schema describes: sets as arrays, objects without a prototype (JSON has
 * none, and ajv would read an absent `constructor` from Object.prototype). */
const jsonForm = (v: unknown): unknown =>
  v instanceof Set
    ? [...v].map(jsonForm)
    : Array.isArray(v)
      ? v.map(jsonForm)
      : v && typeof v === 'object'
        ? Object.assign(
            Object.create(null) as object,
            Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonForm(x)])),
          )
        : v;

describe('models generated from a read', () => {
  it('the Zod schema parses, and the JSON Schema validates, every item it was generated from', () => {
    fc.assert(
      fc.property(fc.array(itemArb, { minLength: 1, maxLength: 20 }), (items) => {
        const report = reportOf(items);
        const schema = zodOf(generateModel(scopeOf(report), 'zod', 'a test'));
        const validate = new Ajv2020({ strict: false }).compile(
          JSON.parse(generateModel(scopeOf(report), 'json-schema', 'a test')) as object,
        );
        for (const item of items) {
          const plain = unmarshall(item as never);
          expect(schema.safeParse(plain).success).toBe(true);
          expect(validate(jsonForm(plain)), JSON.stringify(validate.errors)).toBe(true);
        }
      }),
      { numRuns: 30 },
    );
  }, 60_000);

  it('marks rare attributes optional and writes mixed types as a commented union', () => {
    const report = reportOf([
      { pk: { S: 'a' }, total: { N: '1' }, 'a.b': { S: 'x' }, lines: { L: [{ M: { sku: { S: 'A' } } }] } },
      { pk: { S: 'b' }, total: { S: '2' }, lines: { L: [{ M: { sku: { S: 'B' }, qty: { N: '2' } } }] } },
    ]);
    const ts = generateModel(scopeOf(report), 'ts', 'a test');
    expect(ts).toContain('export interface OrdersTable {');
    expect(ts).toContain('"a.b"?: string;');
    expect(ts).toContain('/** Several types: N 1, S 1. */');
    expect(ts).toMatch(/total: (number \| string|string \| number);/);
    expect(ts).toContain('lines: Array<{\n    qty?: number;\n    sku: string;\n  }>;');
    const zod = zodOf(generateModel(scopeOf(report), 'zod', 'a test'));
    expect(zod.safeParse({ pk: 'c', total: true, lines: [] }).success).toBe(false);
  });

  it('keeps a __proto__ attribute as a property of the JSON Schema', () => {
    const item = JSON.parse('{"pk": {"S": "a"}, "__proto__": {"S": "x"}}') as Item;
    const schema = JSON.parse(generateModel(scopeOf(reportOf([item])), 'json-schema', 'a test')) as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(schema.properties)).toEqual(['__proto__', 'pk']);
    expect(schema.required).toContain('__proto__');
  });

  it('never types a number a double would change as number: bigint past 2^53, NumberValue for long decimals', () => {
    const big = '12345678901234567890123456789012345678';
    const nines = `-${'9'.repeat(38)}`;
    const integers: Item[] = [
      { pk: { S: 'a' }, balance: { N: big }, qty: { N: '2' } },
      { pk: { S: 'b' }, balance: { N: nines }, qty: { N: '3' } },
      { pk: { S: 'c' }, balance: { N: '7' }, qty: { N: '4' } },
    ];
    const ts = generateModel(scopeOf(reportOf(integers)), 'ts', 'a test');
    expect(ts).toContain('balance: number | bigint;');
    expect(ts).toContain('qty: number;');
    expect(ts).toContain('// balance hold integers past 2^53, which unmarshall() gives as bigint.');
    const zodInts = zodOf(generateModel(scopeOf(reportOf(integers)), 'zod', 'a test'));
    for (const item of integers) expect(zodInts.safeParse(unmarshall(item as never)).success).toBe(true);
    expect((unmarshall(integers[0] as never) as { balance: unknown }).balance).toBe(BigInt(big));

    const decimals: Item[] = [
      { pk: { S: 'a' }, price: { N: '0.12345678901234567890123' }, qty: { N: '2' } },
      { pk: { S: 'b' }, price: { N: '1.5' }, qty: { N: '3' } },
    ];
    const wrapped = generateModel(scopeOf(reportOf(decimals)), 'ts', 'a test');
    expect(wrapped).toContain('price: NumberValue;');
    expect(wrapped).toContain('qty: NumberValue;');
    expect(wrapped).toContain('unmarshall(item, { wrapNumbers: true })');
    expect(wrapped).toContain("import type { NumberValue } from '@aws-sdk/util-dynamodb';");
    const zodWrapped = zodOf(generateModel(scopeOf(reportOf(decimals)), 'zod', 'a test'));
    for (const item of decimals) {
      const exact = unmarshall(item as never, { wrapNumbers: true }) as { price: NumberValue };
      expect(zodWrapped.safeParse(exact).success).toBe(true);
    }
    // The digits survive the way the model says to read them.
    const first = unmarshall(decimals[0] as never, { wrapNumbers: true }) as { price: NumberValue };
    expect(first.price.value).toBe('0.12345678901234567890123');
    const json = JSON.parse(generateModel(scopeOf(reportOf(integers)), 'json-schema', 'a test')) as {
      properties: Record<string, { type: string; description?: string }>;
    };
    expect(json.properties.balance?.type).toBe('integer');
    expect(json.properties.balance?.description).toMatch(/parser that keeps numbers exact/);
    expect(json.properties.qty).toEqual({ type: 'number' });
  });
});
