import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { emptySchemaState, SchemaAccumulator, type SchemaState } from '../../src/main/schema/accumulator';
import { buildReport } from '../../src/main/migration/report';
import { preflightReportMeta } from '../support/preflight-report-meta';

const meta = preflightReportMeta('T');
const keys = { partitionKey: { name: 'pk', type: 'S' as const } };
const info = { keys, indexKeys: {}, ttlAttribute: 'expires' };
const NOW = 1_800_000_000;

/** An item whose names are JavaScript's own: attribute names are data. */
function user(i: number): Item {
  const item: Item = { pk: { S: `USER#${String(i).padStart(2, '0')}` } };
  Object.defineProperty(item, '__proto__', {
    value: { S: i % 2 === 0 ? 'true' : 'false' },
    enumerable: true,
    writable: true,
    configurable: true,
  });
  if (i !== 7) item.constructor = { M: { city: { S: 'Madrid' }, zip: { S: '28001' } } } as never;
  if (i === 3) item.constructor = { M: { city: { S: 'Sevilla' } } } as never;
  item.expires = { N: String(i < 2 ? NOW - 60 : NOW + 60) };
  return item;
}

const items = Array.from({ length: 12 }, (_, i) => user(i));

function report(parts: Item[][]) {
  const options = { keyAttributes: ['pk'], ttlAttribute: 'expires', nowSeconds: NOW, sampleLimit: 3 };
  const merged = SchemaAccumulator.findingsOnly(options);
  for (const part of parts) {
    const a = SchemaAccumulator.findingsOnly(options);
    a.addAll(part);
    // As a checkpoint stores and reloads it.
    const stored = JSON.parse(JSON.stringify(a.findings)) as SchemaState['findings'];
    merged.merge({ ...emptySchemaState(), findings: stored });
  }
  return buildReport(merged.findings, info, meta).findings ?? [];
}

describe('findings of older releases across segments', () => {
  it('merge to the same counts and sample keys in any split and order, names like __proto__ included', () => {
    const whole = report([items]);
    const split = report([
      items.filter((_, i) => i % 3 === 2).reverse(),
      items.filter((_, i) => i % 3 === 0),
      items.filter((_, i) => i % 3 === 1).reverse(),
    ]);
    expect(split).toEqual(whole);
    expect(whole.map((f) => [f.kind, f.entity, f.path, f.items, f.sampleKeys.map((k) => k.pk)])).toEqual([
      ['booleanAsString', 'USER', '__proto__', 12, ['USER#00', 'USER#01', 'USER#02']],
      ['ttlExpiredPresent', 'USER', 'expires', 2, ['USER#00', 'USER#01']],
      ['upsertResidue', 'USER', 'constructor', 1, ['USER#07']],
      ['mapTruncated', 'USER', 'constructor.zip', 1, ['USER#03']],
    ]);
  });
});
