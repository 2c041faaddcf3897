import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import type { AttributeSchema } from '../../src/shared/ipc/schema';
import type { KeySchema } from '../../src/shared/ipc/tables';
import { type EntitySource, SchemaAccumulator, type SchemaState } from '../../src/main/schema/accumulator';
import { buildSchemaReport, type ReportHead } from '../../src/main/schema/report';
import { detectEntityViews, EntityLabels, entityLabelOf } from '../../src/main/sql/catalog/entity-detect';
import { itemSize } from '../../src/shared/dynamo/item-size';
import { type PathTally as Tally, tallyPaths } from '../support/schema-tally';
import { reportHead } from '../support/schema-report-head';
import { record } from '../support/wire-record';

const keys: KeySchema = { partitionKey: { name: 'pk', type: 'S' }, sortKey: { name: 'sk', type: 'S' } };

function head(entities: EntitySource = { kind: 'keys' }): ReportHead {
  const times = { startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.000Z' };
  return reportHead({ scanId: 'schema-test', table: 'T', keys, ...times }, entities);
}

function reportOf(items: Item[], entities: EntitySource = { kind: 'keys' }, split = 1) {
  const parts = Array.from({ length: split }, () => new SchemaAccumulator({ keys, entities }));
  items.forEach((item, i) => (parts[i % split] as SchemaAccumulator).add(item));
  const merged = new SchemaAccumulator({ keys, entities });
  // Through JSON, as a checkpoint stores each segment's state.
  for (const part of parts) merged.merge(JSON.parse(JSON.stringify(part.toJSON())) as SchemaState);
  return buildSchemaReport(merged, head(entities), ['pk', 'sk']);
}

// ---------- Generated items, hostile names included ----------

const NAMES = ['__proto__', 'constructor', 'toString', 'a.b', '#tag', '[0]', 'say "hi"', 'name', 'n', 'when'];
const name = fc.constantFrom(...NAMES);
const text = fc.constantFrom(
  '',
  'x',
  'y',
  '2024-05-01',
  '2024-05-01T10:00:00Z',
  'a@b.io',
  'https://x.io/a',
  '{"a":1}',
  'é',
);
const number = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(0.5, -2.25, 1700000000, 1700000000123),
);

const { value } = fc.letrec<{ value: AttributeValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text.map((s) => ({ S: s })),
    number.map((n) => ({ N: String(n) })),
    fc.boolean().map((b) => ({ BOOL: b })),
    fc.constant({ NULL: true as const }),
    fc.uniqueArray(text, { minLength: 1, maxLength: 4 }).map((ss) => ({ SS: ss })),
    fc.uniqueArray(number, { minLength: 1, maxLength: 4 }).map((ns) => ({ NS: ns.map(String) })),
    fc.array(tie('value'), { maxLength: 3 }).map((l) => ({ L: l })),
    fc
      .uniqueArray(fc.tuple(name, tie('value')), { maxLength: 3, selector: (e) => e[0] })
      .map((m) => ({ M: record(m) })),
  ),
}));

const itemArb = fc
  .tuple(
    fc.constantFrom('USER#1', 'USER#2', 'ORG#9'),
    fc.constantFrom('PROFILE', 'ORDER#1', 'ORDER#2', 'LINE#3'),
    fc.uniqueArray(fc.tuple(name, value), { maxLength: 5, selector: (e) => e[0] }),
  )
  .map(([pk, sk, rest]) => record([['pk', { S: pk }], ['sk', { S: sk }], ...rest]));

function expectMatches(attributes: AttributeSchema[], items: Item[]) {
  const tally = tallyPaths(items);
  expect(new Set(attributes.map((a) => a.path))).toEqual(new Set(tally.keys()));
  for (const a of attributes) {
    const t = tally.get(a.path) as Tally;
    expect(a.items, a.path).toBe(t.items.size);
    expect(a.types, a.path).toEqual(Object.fromEntries(t.types));
    expect(a.strings, a.path).toBe(t.strings);
    expect(a.distinct, a.path).toEqual({ count: t.distinct.size, isExact: true });
    if (t.numbers.length > 0) {
      expect(Number(a.number?.min), a.path).toBe(Math.min(...t.numbers));
      expect(Number(a.number?.max), a.path).toBe(Math.max(...t.numbers));
      expect(a.number?.integers, a.path).toBe(t.numbers.filter(Number.isInteger).length);
    } else expect(a.number).toBeUndefined();
    if (t.setSizes.length > 0)
      expect(a.setSize).toEqual({ min: Math.min(...t.setSizes), max: Math.max(...t.setSizes) });
  }
}

describe('schema accumulator against an independent tally', () => {
  it('counts items, types, strings, numbers, set sizes and distinct values per path, hostile names too', () => {
    fc.assert(
      fc.property(fc.array(itemArb, { maxLength: 25 }), fc.integer({ min: 1, max: 4 }), (items, split) => {
        const report = reportOf(items, { kind: 'keys' }, split);
        expect(report.itemsScanned).toBe(items.length);
        expectMatches(report.attributes, items);
        for (const entity of report.entities) {
          const members = items.filter((i) => entityItems(entity.conditions ?? [], i));
          expect(entity.items, entity.name).toBe(members.length);
          expectMatches(entity.attributes, members);
        }
      }),
      { numRuns: 80 },
    );
  }, 60_000);

  it('gives every merge order and split the same report', () => {
    fc.assert(
      fc.property(fc.array(itemArb, { minLength: 1, maxLength: 30 }), (items) => {
        const one = reportOf(items, { kind: 'keys' }, 1);
        const three = reportOf([...items].reverse(), { kind: 'keys' }, 3);
        expect(three.attributes).toEqual(one.attributes);
        expect(three.entities).toEqual(one.entities);
      }),
      { numRuns: 40 },
    );
  }, 60_000);

  it('resumes from a saved state and adds more items as one unbroken pass would', () => {
    fc.assert(
      fc.property(fc.array(itemArb, { minLength: 1, maxLength: 30 }), fc.nat(), (items, at) => {
        const cut = at % (items.length + 1);
        const first = new SchemaAccumulator({ keys, entities: { kind: 'keys' } });
        first.addAll(items.slice(0, cut));
        // A stopped scan's checkpoint, read back from JSON, then the rest of the items.
        const saved = JSON.parse(JSON.stringify(first.toJSON())) as SchemaState;
        const resumed = new SchemaAccumulator({ keys, entities: { kind: 'keys' } }, saved);
        resumed.addAll(items.slice(cut));
        const report = buildSchemaReport(resumed, head(), ['pk', 'sk']);
        const one = reportOf(items);
        expect(report.itemsScanned).toBe(items.length);
        expect(report.attributes).toEqual(one.attributes);
        expect(report.entities).toEqual(one.entities);
        expectMatches(report.attributes, items);
      }),
      { numRuns: 40 },
    );
  }, 60_000);

  it('counts items of entities past the bound in "all items" only', () => {
    const many: Item[] = Array.from({ length: 12 }, (_, i) => ({
      pk: { S: `E${i}#1` },
      sk: { S: 'X' },
      n: { N: String(i) },
    }));
    const acc = new SchemaAccumulator({ keys, entities: { kind: 'keys' }, maxEntities: 5 });
    acc.addAll(many);
    const report = buildSchemaReport(acc, head(), ['pk', 'sk']);
    expect(report.entities).toHaveLength(5);
    expect(report.untrackedEntityItems).toBe(7);
    expectMatches(report.attributes, many);
  });
});

function entityItems(
  conditions: { attribute: string; op: string; values: AttributeValue[] }[],
  item: Item,
): boolean {
  return conditions.every((c) => {
    const v = (item[c.attribute] as { S?: string } | undefined)?.S ?? '';
    const want = (c.values[0] as { S: string }).S;
    return c.op === '=' ? v === want : v.startsWith(want);
  });
}

describe('entities', () => {
  const items: Item[] = [
    { pk: { S: 'USER#1' }, sk: { S: 'PROFILE' }, type: { S: 'User' }, name: { S: 'Ann' } },
    { pk: { S: 'USER#2' }, sk: { S: 'PROFILE' }, type: { S: 'User' }, name: { S: 'Bo' } },
    { pk: { S: 'USER#1' }, sk: { S: 'ORDER#1' }, total: { N: '10' } },
    { pk: { S: 'USER#1' }, sk: { S: 'ORDER#2' }, total: { N: '12.5' } },
    { pk: { S: 'USER#2' }, sk: { S: 'ORDER#3' }, total: { S: '12' } },
  ];

  it('names entities as SQL names its views of the same items', () => {
    const report = reportOf(items);
    const sql = detectEntityViews({ name: 'T', keys, indexes: [], itemCount: 5, sizeBytes: 0 }, items);
    expect(report.entities.map((e) => e.name).sort()).toEqual(sql.map((v) => v.name).sort());
    const orders = report.entities.find((e) => e.name === 'orders');
    expect(orders?.items).toBe(3);
    expect(orders?.keyPattern).toBe('pk=USER#… sk=ORDER#…');
    expect(orders?.attributes.find((a) => a.path === 'total')?.types).toEqual({ N: 2, S: 1 });
    expect(report.warnings.some((w) => w.kind === 'mixedTypes' && w.path === 'total')).toBe(true);
  });

  it('groups by a type attribute the user picks', () => {
    const report = reportOf(items, { kind: 'attribute', name: 'type' });
    expect(report.entities.map((e) => [e.name, e.items])).toEqual([
      ['(no type)', 3],
      ['User', 2],
    ]);
  });
});

describe('formats, ranges and warnings', () => {
  it('reads string formats, epoch numbers and the most common values', () => {
    const rows: Item[] = [
      {
        pk: { S: 'a' },
        when: { S: '2024-05-01T10:00:00.000Z' },
        id: { S: '0b0e7f4c-3f59-4c7c-9d1e-1a2b3c4d5e6f' },
        at: { N: '1700000000' },
      },
      { pk: { S: 'b' }, when: { S: '2024-05-01' }, id: { S: 'x@y.org' }, at: { N: '1700000000123' } },
      { pk: { S: 'c' }, when: { N: '1714557600' }, id: { S: 'https://example.com/a?b' }, at: { N: '42.5' } },
      { pk: { S: 'd' }, when: { S: '1714557600' }, id: { S: '{"a":[1]}' }, at: { N: '-3' } },
      { pk: { S: 'e' }, 'a.b': { S: 'dotted' } },
    ];
    const report = reportOf(rows);
    const by = (path: string) => report.attributes.find((a) => a.path === path) as AttributeSchema;
    expect(by('when').formats).toEqual({ isoDateTime: 1, isoDate: 1, epochString: 1 });
    expect(by('when').yearHistogram).toEqual([{ label: '2024', count: 4 }]);
    expect(by('id').formats).toEqual({ uuid: 1, email: 1, url: 1, json: 1 });
    expect(by('at').number).toEqual({
      min: '-3',
      max: '1700000000123',
      count: 4,
      integers: 3,
      epochSeconds: 1,
      epochMillis: 1,
    });
    expect(by('"a.b"').items).toBe(1);
    expect(by('pk').topValues?.length).toBe(5);
    const kinds = report.warnings.map((w) => `${w.kind}:${w.path}`);
    expect(kinds).toContain('isoAndEpoch:when');
    expect(kinds).not.toContain('mixedTypes:when');
    expect(kinds).toContain('dottedName:"a.b"');
  });

  it('switches to the sketch past 64 distinct values and stops listing common values', () => {
    const rows: Item[] = Array.from({ length: 500 }, (_, i) => ({
      pk: { S: `p${i}` },
      k: { N: String(i % 7) },
    }));
    const report = reportOf(rows, { kind: 'keys' }, 2);
    const pk = report.attributes.find((a) => a.path === 'pk') as AttributeSchema;
    expect(pk.distinct.isExact).toBe(false);
    expect(Math.abs(pk.distinct.count - 500)).toBeLessThan(500 * 0.08);
    expect(pk.topValues).toBeUndefined();
    const k = report.attributes.find((a) => a.path === 'k') as AttributeSchema;
    expect(k.distinct).toEqual({ count: 7, isExact: true });
    expect(k.topValues?.[0]).toEqual({ type: 'N', value: '0', count: 72 });
  });
});

describe('item sizes and entity labels over a stream of items', () => {
  it('sizes items by their UTF-8 bytes on paths past the exact count, ASCII or not', () => {
    // pk and text are distinct in every item: both paths go to the sketch after 64 values.
    const rows: Item[] = Array.from({ length: 200 }, (_, i) => ({
      pk: { S: `USER#${i}` },
      text: { S: i % 2 === 0 ? 'é'.repeat(i) + '😀' : 'a'.repeat(i) },
    }));
    const acc = new SchemaAccumulator({
      keys: { partitionKey: keys.partitionKey },
      entities: { kind: 'keys' },
    });
    acc.addAll(rows);
    const largest = Math.max(...rows.map(itemSize));
    expect(largest).toBe(2 + 8 + 4 + 2 * 198 + 4); // "pk" + "USER#198" + "text" + 198 é + 😀
    expect(acc.toJSON().entities[0]?.maxItemBytes).toBe(largest);
    expect(acc.toJSON().all.maxItemBytes).toBe(largest);
  });

  it('labels each item as entityLabelOf does, whatever the order of prefixes', () => {
    const stream: [string, string | undefined][] = [
      ['USER#1', 'PROFILE'],
      ['USER#1', 'ORDER#9'],
      ['USERX#2', 'META'],
      ['USER#a#b', undefined],
      ['USER', 'ORDER#1'],
      ['USER', 'lower'],
      ['ORG#7', 'ORDER#2'],
      ['ORG#7', ''],
      ['9#x', 'PROFILE'],
      ['USER#3', 'ORDERX#1'],
    ];
    const labels = new EntityLabels('pk', 'sk');
    // Strings only: the tagged form is the SDK's there.
    const item = ([pk, sk]: [string, string | undefined]): Record<string, { S: string }> => ({
      pk: { S: pk },
      ...(sk === undefined ? {} : { sk: { S: sk } }),
    });
    expect(stream.map((s) => labels.of(item(s)))).toEqual([
      'const:USER:PROFILE',
      'sk:ORDER',
      'const:USERX:META',
      'pk:USER',
      'sk:ORDER',
      undefined,
      'sk:ORDER',
      'pk:ORG',
      undefined,
      'sk:ORDERX',
    ]);
    // Each label as a fresh reader gives it, item by item.
    expect(stream.map((s) => entityLabelOf(item(s), 'pk', 'sk'))).toEqual(
      stream.map((s) => labels.of(item(s))),
    );
  });
});
