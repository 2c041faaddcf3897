import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import type { KeySchema } from '../../src/shared/ipc/tables';
import {
  type EntitySource,
  SchemaAccumulator,
  type SchemaAccumulatorOptions,
  type SchemaState,
} from '../../src/main/schema/accumulator';
import { buildSchemaReport } from '../../src/main/schema/report';
import { splitWirePage } from '../../src/main/dynamo/query/wire-page';
import { WireFormatError } from '../../src/main/resultsets/wire-cursor';
import { reportHead } from '../support/schema-report-head';
import { record } from '../support/wire-record';

/**
 * The schema analysis from a response's bytes (addWire, wire-walk.ts) against the same analysis
 * of the items JSON.parse makes of those bytes (add): the same state, value for value, and the
 * same report, for hostile, escaped, non-ASCII and integer-like names, every type, text of every
 * format, paths past the exact count and past maxPaths, and bodies with whitespace.
 */
const keys: KeySchema = { partitionKey: { name: 'pk', type: 'S' }, sortKey: { name: 'sk', type: 'S' } };

const NAMES = [
  '__proto__',
  'constructor',
  'a.b',
  '#tag',
  'say "hi"',
  'tab\t',
  'é',
  'Ã©',
  '0',
  '7',
  'n',
  'type',
];
const name = fc.constantFrom(...NAMES);
const text = fc.oneof(
  fc.constantFrom(
    '',
    'x',
    '2024-05-01',
    '2024-05-01T10:00:00Z',
    '1700000000',
    '1700000000123',
    'a@b.io',
    'https://x.io/a',
    'ftp:x',
    '{"a":1}',
    '[1,2]',
    '{not json}',
    'é',
    'line\nbreak "quoted" \\ slash',
    '😀 emoji',
    '0b1c2d3e-0000-4000-8000-00000000000a',
    '0b1c2d3e-0000-4000-8000-00000000000z',
    'x'.repeat(300),
  ),
  fc.string({ maxLength: 12 }),
  fc.nat({ max: 500 }).map((i) => `id-${i}`),
);
const number = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.constantFrom(
    '0.5',
    '-2.25',
    '1700000000',
    '1700000000123',
    '1E+3',
    '12345678901234567890123456789012345678',
  ),
);
const binary = fc.uint8Array({ maxLength: 6 }).map((b) => Buffer.from(b).toString('base64'));

const { value } = fc.letrec<{ value: AttributeValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text.map((s) => ({ S: s })),
    number.map((n) => ({ N: n })),
    binary.map((b) => ({ B: b })),
    fc.boolean().map((b) => ({ BOOL: b })),
    fc.constant({ NULL: true as const }),
    fc.uniqueArray(text, { minLength: 1, maxLength: 4 }).map((ss) => ({ SS: ss })),
    fc.uniqueArray(number, { minLength: 1, maxLength: 4 }).map((ns) => ({ NS: ns })),
    fc.uniqueArray(binary, { minLength: 1, maxLength: 3 }).map((bs) => ({ BS: bs })),
    fc.array(tie('value'), { maxLength: 3 }).map((l) => ({ L: l })),
    fc
      .uniqueArray(fc.tuple(name, tie('value')), { maxLength: 3, selector: (e) => e[0] })
      .map((m) => ({ M: record(m) })),
  ),
}));

const itemArb = fc
  .tuple(
    fc.constantFrom('USER#1', 'USER#2', 'ORG#9', 'plain'),
    fc.constantFrom('PROFILE', 'ORDER#1', 'ORDER#2', 'LINE#3'),
    fc.uniqueArray(fc.tuple(name, value), { maxLength: 6, selector: (e) => e[0] }),
  )
  .map(([pk, sk, rest]) => record([['pk', { S: pk }], ['sk', { S: sk }], ...rest]));

/** A Scan response's body holding these items, as DynamoDB sends it or with whitespace. */
function body(items: Item[], spaced: boolean): Buffer {
  const page = { Count: items.length, Items: items, ScannedCount: items.length };
  return Buffer.from(spaced ? JSON.stringify(page, null, 1) : JSON.stringify(page));
}

/** The state with paths in one order: a wire walk may first meet them in another (see wire-walk.ts). */
function normalized(state: SchemaState): unknown {
  const byPath = (g: SchemaState['all']) => ({
    ...g,
    paths: [...g.paths].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  });
  return { ...state, all: byPath(state.all), entities: state.entities.map(byPath) };
}

function both(items: Item[], options: SchemaAccumulatorOptions, spaced: boolean, pages = 1) {
  const parsed = new SchemaAccumulator(options);
  const wire = new SchemaAccumulator(options);
  const per = Math.ceil(items.length / pages) || 1;
  for (let i = 0; i < items.length; i += per) {
    const page = splitWirePage(body(items.slice(i, i + per), spaced));
    parsed.addAll(page.items);
    wire.addWire(page.items);
  }
  return { parsed, wire };
}

function reportOf(acc: SchemaAccumulator, entities: EntitySource) {
  const head = reportHead({ scanId: 'wire', table: 'T', keys }, entities);
  return JSON.parse(JSON.stringify(buildSchemaReport(acc, head, ['pk', 'sk']))) as unknown;
}

describe('the schema analysis from the wire bytes', () => {
  it('gives the state and report the parsed items give', () => {
    const entitiesArb = fc.constantFrom<EntitySource>({ kind: 'keys' }, { kind: 'attribute', name: 'type' });
    fc.assert(
      fc.property(
        fc.array(itemArb, { maxLength: 40 }),
        entitiesArb,
        fc.boolean(),
        fc.constantFrom(undefined, 3),
        fc.integer({ min: 1, max: 3 }),
        (items, entities, spaced, maxPaths, pages) => {
          const options = { keys, entities, ...(maxPaths ? { maxPaths } : {}) };
          const { parsed, wire } = both(items, options, spaced, pages);
          expect(normalized(wire.toJSON())).toEqual(normalized(parsed.toJSON()));
          expect(reportOf(wire, entities)).toEqual(reportOf(parsed, entities));
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);

  it('counts a path of many distinct values into the same sketch', () => {
    const items: Item[] = Array.from({ length: 500 }, (_, i) => ({
      pk: { S: `ORDER#${i}` },
      sk: { S: 'LINE' },
      note: { S: i % 7 === 0 ? `café ${i}` : `delivery after the 5th, ref ${i}` },
      when: { S: i % 3 === 0 ? `2024-01-${String((i % 28) + 1).padStart(2, '0')}` : `late ${i}` },
      tags: { SS: [`t${i}`, `u${i % 90}`] },
    }));
    const { parsed, wire } = both(items, { keys, entities: { kind: 'keys' } }, false, 4);
    const state = wire.toJSON();
    expect(state.all.paths.find((p) => p.path === 'note')?.exact).toBeNull();
    expect(normalized(state)).toEqual(normalized(parsed.toJSON()));
  });

  it('reads index key shapes from the key attributes it parses', () => {
    const options: SchemaAccumulatorOptions = {
      keys,
      entities: { kind: 'keys' },
      indexes: [
        {
          name: 'byOwner',
          kind: 'LSI',
          keys: { partitionKey: keys.partitionKey, sortKey: { name: 'owner', type: 'S' } },
        },
      ],
    };
    const items: Item[] = Array.from({ length: 60 }, (_, i) => ({
      pk: { S: `USER#${i % 4}` },
      sk: { S: `ORDER#${i}` },
      ...(i % 2 === 0 ? { owner: { S: `OWNER#${i % 5}` } } : {}),
      total: { N: String(i * 3) },
    }));
    const { parsed, wire } = both(items, options, false);
    const state = wire.toJSON();
    expect(state.all.indexPatterns?.length).toBeGreaterThan(0);
    expect(normalized(state)).toEqual(normalized(parsed.toJSON()));
  });

  it('says where a body stops being DynamoDB JSON', () => {
    const page = splitWirePage(Buffer.from('{"Items":[{"pk":{"S":"a"},"x":{"Q":"1"}}],"Count":1}'));
    const acc = new SchemaAccumulator({ keys, entities: { kind: 'keys' } });
    expect(() => acc.addWire(page.items)).toThrow(/unknown type "Q"/);
  });

  it('calls a malformed escape in a string, a number or a name an unreadable answer, not a defect', () => {
    for (const attr of ['"x":{"S":"a\\x"}', '"x":{"N":"1\\q"}', '"x\\q":{"S":"a"}']) {
      const page = splitWirePage(Buffer.from(`{"Items":[{"pk":{"S":"a"},${attr}}],"Count":1}`));
      const acc = new SchemaAccumulator({ keys, entities: { kind: 'keys' } });
      expect(() => acc.addWire(page.items), attr).toThrow(WireFormatError);
    }
  });
});
