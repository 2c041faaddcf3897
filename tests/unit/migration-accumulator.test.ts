import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { SchemaAccumulator, type SchemaState } from '../../src/main/schema/accumulator';
import { buildReport, type TableKeyInfo } from '../../src/main/migration/report';

const info: TableKeyInfo = {
  keys: { partitionKey: { name: 'pk', type: 'S' }, sortKey: { name: 'sk', type: 'N' } },
  indexKeys: { gsiDate: ['byDate'] },
};
const keyAttributes = ['pk', 'sk'];
const meta = {
  scanId: 's1',
  table: 'T',
  startedAt: '2024-01-01T00:00:00.000Z',
  finishedAt: '2024-01-01T00:01:00.000Z',
  complete: true,
  segments: 1,
  tableItemCount: 0,
  consumedReadCapacity: 0,
};

const S = (s: string) => ({ S: s });
const N = (n: string | number) => ({ N: String(n) });
const M = (m: Item) => ({ M: m });

function item(i: number, rest: Item): Item {
  return { pk: S(`p${String(i).padStart(3, '0')}`), sk: N(i), ...rest };
}

function reportOf(items: Item[]) {
  const acc = SchemaAccumulator.findingsOnly({ keyAttributes });
  acc.addAll(items);
  return buildReport(acc.findings, info, meta);
}

describe('dotted attribute names', () => {
  it('counts each top-level dotted name and compares it with the nested path', () => {
    const report = reportOf([
      item(1, { 'address.city': S('Valencia'), address: M({ city: S('Valencia') }) }), // same
      item(2, { 'address.city': S('Valencia'), address: M({ city: S('Madrid') }) }), // differs
      item(3, { 'address.city': S('Valencia') }), // parent map missing
      item(4, { 'address.city': S('Valencia'), address: M({ zip: S('46001') }) }), // key missing
      item(5, { 'address.city': S('Valencia'), address: S('not a map') }), // parent not a map
      item(6, { 'a.b.c': N(1), a: M({ b: M({ c: N('1.0') }) }) }), // same, numbers compared as numbers
      item(7, { tags: { SS: ['x', 'y'] }, 'x.tags': { SS: ['b', 'a'] }, x: M({ tags: { SS: ['a', 'b'] } }) }), // sets: no order
      item(8, { meta: M({ 'not.a.finding': S('nested keys with dots are fine') }) }),
    ]);
    expect(report.dottedAttributes).toEqual([
      {
        name: 'a.b.c',
        items: 1,
        parentMissing: 0,
        sameAsNested: 1,
        differsFromNested: 0,
        missingParentMap: 0,
        parentNotMap: 0,
        sampleKeys: [{ pk: 'p006', sk: 6 }],
      },
      {
        name: 'address.city',
        items: 5,
        parentMissing: 3,
        sameAsNested: 1,
        differsFromNested: 1,
        missingParentMap: 1,
        parentNotMap: 1,
        sampleKeys: [1, 2, 3, 4, 5].map((i) => ({ pk: `p00${i}`, sk: i })),
      },
      {
        name: 'x.tags',
        items: 1,
        parentMissing: 0,
        sameAsNested: 1,
        differsFromNested: 0,
        missingParentMap: 0,
        parentNotMap: 0,
        sampleKeys: [{ pk: 'p007', sk: 7 }],
      },
    ]);
    expect(report.verdict.needsFix).toBe(true);
  });
});

describe('date storage', () => {
  it('finds ISO strings and epochs on every path, nested maps and lists included', () => {
    const report = reportOf([
      item(1, {
        createdAt: S('2024-01-05T10:00:00.000Z'),
        events: { L: [M({ at: S('2024-01-05') }), M({ at: N(1704448800000) })] },
      }),
      item(2, { createdAt: N(1704448800000), profile: M({ birthday: S('1990-04-01') }) }),
      item(3, { createdAt: N(1704448800), updatedAt: N(1704448800000) }),
      item(4, { price: N(1704448800), note: S('paid on 2024-01-05'), ref: S('2024-01-05T10:00:00') }),
    ]);
    const byPath = Object.fromEntries(report.dateAttributes.map((d) => [d.path, d]));
    expect(Object.keys(byPath).sort()).toEqual([
      'createdAt',
      'events[0].at',
      'events[1].at',
      'profile.birthday',
      'updatedAt',
    ]);
    expect(byPath.createdAt).toMatchObject({
      iso: 1,
      epochMillis: 1,
      epochSeconds: 1,
      mixed: true,
      isKey: false,
      timeNamed: true,
    });
    expect(byPath['events[0].at']).toMatchObject({ iso: 1, isoDateOnly: 1, mixed: false });
    // events[1].at holds only a number, but its name ("at") says it is a time.
    expect(byPath['events[1].at']).toMatchObject({ iso: 0, epochMillis: 1, mixed: false, timeNamed: true });
    expect(byPath['profile.birthday']).toMatchObject({ iso: 1, timeNamed: false });
    expect(byPath.updatedAt).toMatchObject({ iso: 0, epochMillis: 1, mixed: false });
    expect(report.dateAttributes[0]?.path).toBe('createdAt'); // mixed first
    expect(report.verdict.mustFix).toHaveLength(1);
    expect(report.verdict.settings.join(' ')).toContain('profile.birthday');
  });

  it('counts epoch-sized numbers on a path that also holds ISO strings, whatever its name', () => {
    const report = reportOf([
      item(1, { when_: S('2024-01-05T00:00:00Z') }),
      item(2, { when_: N(1704412800000) }),
    ]);
    expect(report.dateAttributes).toMatchObject([
      { path: 'when_', iso: 1, epochMillis: 1, mixed: true, timeNamed: false },
    ]);
  });

  it('flags key and index-key attributes', () => {
    const keyInfo: TableKeyInfo = {
      keys: { partitionKey: { name: 'day', type: 'S' } },
      indexKeys: { gsiDate: ['byDate'] },
    };
    const acc = SchemaAccumulator.findingsOnly({ keyAttributes: ['day'] });
    acc.addAll([
      { day: S('2024-01-05'), gsiDate: S('2024-01-05T00:00:00Z'), nested: M({ day: S('2024-01-06') }) },
    ]);
    const report = buildReport(acc.findings, keyInfo, meta);
    const byPath = Object.fromEntries(report.dateAttributes.map((d) => [d.path, d]));
    expect(byPath.day).toMatchObject({ isKey: true, indexKeyOf: [] });
    expect(byPath.gsiDate).toMatchObject({ isKey: false, indexKeyOf: ['byDate'] });
    expect(byPath['nested.day']).toMatchObject({ isKey: false, indexKeyOf: [] });
  });

  it('says "ready" when there is nothing to fix or set', () => {
    const report = reportOf([item(1, { createdAt: N(1704448800000), price: N(1704448800) })]);
    expect(report.verdict).toMatchObject({ needsFix: false, mustFix: [], settings: [] });
    expect(report.verdict.line).toMatch(/^Ready/);
  });
});

describe('merging', () => {
  const items: Item[] = [];
  for (let i = 0; i < 60; i++) {
    items.push(
      item(i, {
        ...(i % 3 === 0 ? { 'a.b': N(i), a: M({ b: N(i % 2 === 0 ? i : -1) }) } : {}),
        createdAt: i % 4 === 0 ? S(new Date(1.7e12 + i).toISOString()) : N(1.7e12 + i),
        list: { L: [S('2024-01-05'), N(i)] },
      }),
    );
  }

  it('gives the same report however the items are split, ordered and persisted', () => {
    const whole = SchemaAccumulator.findingsOnly({ keyAttributes });
    whole.addAll(items);
    const parts = [0, 1, 2, 3].map(() => SchemaAccumulator.findingsOnly({ keyAttributes }));
    [...items].reverse().forEach((it, i) => parts[i % 4]?.add(it));
    const merged = SchemaAccumulator.findingsOnly({ keyAttributes });
    for (const part of parts) merged.merge(JSON.parse(JSON.stringify(part.toJSON())) as SchemaState);
    expect(buildReport(merged.findings, info, meta)).toEqual(buildReport(whole.findings, info, meta));
    expect(merged.findings.items).toBe(60);
  });

  it('keeps samples bounded and the smallest keys', () => {
    const acc = SchemaAccumulator.findingsOnly({ keyAttributes, sampleLimit: 3 });
    acc.addAll([...items].reverse());
    const report = buildReport(acc.findings, info, meta);
    expect(report.dottedAttributes[0]?.sampleKeys).toEqual([0, 3, 6].map((i) => ({ pk: `p00${i}`, sk: i })));
  });

  it('stops tracking new paths past the bound and says how many it dropped', () => {
    const acc = SchemaAccumulator.findingsOnly({ keyAttributes, maxPaths: 2 });
    acc.add(item(1, { aAt: N(1.7e12), bAt: N(1.7e12), cAt: N(1.7e12), dAt: N(1.7e12) }));
    expect(Object.keys(acc.findings.paths)).toHaveLength(2);
    expect(acc.findings.untrackedPaths).toBe(2);
  });
});
