import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromPlain, toModelItem } from '../../src/main/agent/plain-values';
import { SchemaAccumulator } from '../../src/main/schema/accumulator';
import { formatPath } from '../../src/main/migration/paths';
import { fromTagged, toTagged } from '../../src/main/sql/values/value';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import { formatDynamoJson, parseDynamoJson } from '../../src/shared/dynamo/item-json';
import { defineOwn, parseKeepingProtoKeys } from '../../src/shared/dynamo/proto-keys';
import { itemSchema } from '../../src/shared/dynamo/attribute-value';
import { canonical } from '../support/raw-dynamo';

const NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '\u200b',
  'a.b',
  '#x',
  'a:b',
  '[0]',
  'x'.repeat(255),
];
const name = fc.constantFrom(...NAMES);

function record<T>(entries: [string, T][]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [n, v] of entries) defineOwn(out, n, v);
  return out;
}

const leaf: fc.Arbitrary<AttributeValue> = fc.oneof(
  fc.string({ maxLength: 8 }).map((S) => ({ S })),
  fc.constantFrom('0', '7', '-1.5').map((N) => ({ N })),
  fc.boolean().map((BOOL) => ({ BOOL })),
  fc.constant({ NULL: true as const }),
);
const map = (value: fc.Arbitrary<AttributeValue>, max: number) =>
  fc.uniqueArray(fc.tuple(name, value), { maxLength: max, selector: ([n]) => n }).map(record);
const value = fc.oneof(
  leaf,
  map(leaf, 4).map((M) => ({ M })),
);
const item = map(value, 6);

const options = { numRuns: 50, seed: 11 };

describe('hostile attribute names as data, off the network', () => {
  it('the editor JSON and the contract schema keep every name', () => {
    fc.assert(
      fc.property(item, (i) => {
        expect(canonical(parseDynamoJson(formatDynamoJson(i)))).toBe(canonical(i));
        expect(canonical(parseKeepingProtoKeys(itemSchema, JSON.parse(JSON.stringify(i))))).toBe(
          canonical(i),
        );
      }),
      options,
    );
  });

  it('SQL values and the agent plain values keep every name', () => {
    fc.assert(
      fc.property(item, (i) => {
        expect(canonical(toTagged(fromTagged({ M: i })))).toBe(canonical({ M: i }));
        const plain = toModelItem(i);
        expect(Object.keys(plain).sort()).toEqual(Object.keys(i).sort());
        expect(Object.keys((fromPlain(plain) as { M: Item }).M).sort()).toEqual(Object.keys(i).sort());
      }),
      options,
    );
  });

  it('the migration accumulator finds a date under any name, top level and nested', () => {
    fc.assert(
      fc.property(name, name, (top, inner) => {
        const iso = { S: '2024-05-01T10:00:00.000Z' };
        const acc = SchemaAccumulator.findingsOnly({ keyAttributes: ['pk'] });
        acc.add(
          record<AttributeValue>([
            ['pk', { S: 'p' }],
            [top, { M: record([[inner, iso]]) }],
          ]),
        );
        acc.add(
          record<AttributeValue>([
            ['pk', { S: 'q' }],
            [top, iso],
          ]),
        );
        const topPath = formatPath([top]);
        const nestedPath = formatPath([top, inner]);
        expect(Object.prototype.hasOwnProperty.call(acc.findings.paths, topPath)).toBe(true);
        expect(Object.prototype.hasOwnProperty.call(acc.findings.paths, nestedPath)).toBe(true);
        expect(acc.findings.paths[topPath]?.iso).toBe(1);
        expect(acc.findings.paths[nestedPath]?.iso).toBe(1);
      }),
      options,
    );
  });
});
