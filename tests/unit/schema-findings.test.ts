import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { SchemaAccumulator, type SchemaState } from '../../src/main/schema/accumulator';
import { buildReport } from '../../src/main/migration/report';
import { preflightReportMeta } from '../support/preflight-report-meta';

const meta = preflightReportMeta('T');

const keys = { partitionKey: { name: 'pk', type: 'S' as const } };
const items: Item[] = Array.from({ length: 30 }, (_, i) => ({
  pk: { S: `p${i}` },
  createdAt: i % 3 === 0 ? { S: new Date(1.7e12 + i).toISOString() } : { N: String(1.7e12 + i) },
  profile: { M: { birthday: { S: '1990-04-01' } } },
  ...(i % 5 === 0 ? { 'address.city': { S: 'Valencia' } } : {}),
}));

describe('the pre-flight findings inside the Schema view’s own walk', () => {
  it('counts the same dates and dotted names as the pre-flight’s findings-only accumulator, and merges them', () => {
    const preflight = SchemaAccumulator.findingsOnly({ keyAttributes: ['pk'] });
    preflight.addAll(items);
    const parts = [0, 1].map(
      () => new SchemaAccumulator({ keys, entities: { kind: 'keys' }, findings: { keyAttributes: ['pk'] } }),
    );
    items.forEach((item, i) => parts[i % 2]?.add(item));
    const merged = new SchemaAccumulator({
      keys,
      entities: { kind: 'keys' },
      findings: { keyAttributes: ['pk'] },
    });
    for (const p of parts) merged.merge(JSON.parse(JSON.stringify(p.toJSON())) as SchemaState);
    // No list on these paths, so the two ways of writing them agree.
    const info = { keys, indexKeys: {} };
    expect(buildReport(merged.findings, info, meta)).toEqual(buildReport(preflight.findings, info, meta));
    expect(merged.findings.paths.createdAt).toMatchObject({ iso: 10, epochMillis: 20 });
    expect(merged.findings.dotted['address.city']?.items).toBe(6);
    // The Schema view's own statistics are still there.
    expect(merged.toJSON().all.items).toBe(30);
  });

  it('says so when asked for findings it was not told to keep', () => {
    expect(() => new SchemaAccumulator({ keys, entities: { kind: 'keys' } }).findings).toThrow(
      /no pre-flight findings/,
    );
  });
});
