import { describe, expect, it } from 'vitest';
import { HealthAccumulator } from '../../src/main/health/accumulator';
import { projectionPlans } from '../../src/main/health/index-findings';
import { tableReadsOf } from '../../src/main/health/index-reads';
import { pricesFor } from '../../src/main/health/pricing';
import { buildHealthReport, type Observed } from '../../src/main/health/report';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type { TableSummary } from '../../src/shared/ipc/tables';
import { tableSummary } from '../support/table-summary';

const summary = (over: Partial<TableSummary> = {}): TableSummary =>
  tableSummary('Orders', {
    keys: { partitionKey: { name: 'pk', type: 'S' }, sortKey: { name: 'sk', type: 'S' } },
    ...over,
  });

const start = '2026-12-05T00:00:00.000Z';
const end = '2026-12-06T00:00:00.000Z';
const observed = (capacity: Observed['capacity'] = []): Observed => ({
  cloudWatch: { state: 'ok', window: '24h', start, end, periodSeconds: 900 },
  capacity,
  insights: { state: 'enabled', mostAccessed: [], mostThrottled: [] },
});

function report(
  s: TableSummary,
  acc: HealthAccumulator,
  mode: 'sample' | 'full',
  more: Partial<Parameters<typeof buildHealthReport>[0]> = {},
) {
  return buildHealthReport({
    reportId: 'r',
    connectionId: 'c',
    summary: s,
    raw: { Table: {} },
    acc,
    mode,
    description: '',
    consumed: 0,
    window: '24h',
    observed: observed(),
    evidence: undefined,
    region: 'us-east-1',
    ...more,
  });
}

describe('item collections near the 10 GB LSI limit', () => {
  const lsi = summary({
    indexes: [
      {
        name: 'byDate',
        kind: 'LSI',
        keys: { partitionKey: { name: 'pk', type: 'S' }, sortKey: { name: 'd', type: 'S' } },
        projection: 'ALL',
      },
    ],
  });
  const acc = new HealthAccumulator('pk', 'sk', undefined);
  // 100 items of about 300 KB under one key: 29 MB read.
  for (let i = 0; i < 100; i++)
    acc.add({ pk: { S: 'T#1' }, sk: { S: `${i}` }, b: { S: 'x'.repeat(300_000) } });

  it('says a sample is an estimate from N of M items, and by how much it was scaled', () => {
    const r = report({ ...lsi, itemCount: 40_000 }, acc, 'sample');
    const f = r.findings.find((x) => x.id === 'keys.collection.T#1');
    expect(f?.title).toContain('estimated from a sample');
    expect(f?.evidence).toContain('an estimate from 100 of 40,000 items');
    expect(f?.evidence).toContain('scaled by 400');
    expect(r.keys.largeCollections[0]).toMatchObject({ key: 'T#1', isExact: false });
  });

  it('gives the measured size on a full read, and no finding below 8 GB', () => {
    const r = report({ ...lsi, itemCount: 40_000 }, acc, 'full');
    expect(r.keys.largeCollections).toEqual([]);
    expect(r.findings.some((x) => x.id.startsWith('keys.collection'))).toBe(false);
  });
});

describe('prices by region', () => {
  it('prices a known region by its own list and names it; an unknown region is not priced', () => {
    expect(pricesFor('eu-west-1')?.place).toBe('Europe (Ireland)');
    expect(pricesFor('__proto__')).toBeUndefined();
    const acc = new HealthAccumulator('pk', 'sk', undefined);
    const ireland = report(summary({ sizeBytes: 10 * 1024 ** 3 }), acc, 'full', { region: 'eu-west-1' });
    const virginia = report(summary({ sizeBytes: 10 * 1024 ** 3 }), acc, 'full', { region: 'us-east-1' });
    expect(ireland.cost.prices).toContain('Europe (Ireland) (eu-west-1)');
    expect(ireland.cost.storageMonthly).toBeCloseTo(2.83, 2);
    expect(virginia.cost.storageMonthly).toBeCloseTo(2.5, 2);
    const unknown = report(summary({ sizeBytes: 10 * 1024 ** 3 }), acc, 'full', { region: 'me-central-1' });
    expect(unknown.cost.storageMonthly).toBeUndefined();
    expect(unknown.cost.prices).toContain('no DynamoDB prices for me-central-1');
  });
});

describe('the reads an index serves, from SQL text', () => {
  it('names the attributes of the SELECTs over the table, and which ones filter', () => {
    const [read] = tableReadsOf(
      'SELECT o.total, "note.text" FROM Orders o WHERE o.status = \'open\' ORDER BY createdAt',
      'orders',
    );
    expect([...read!.attributes].sort()).toEqual(['createdAt', 'note.text', 'status', 'total']);
    expect([...read!.filtered]).toEqual(['status']);
    expect(read!.readsAll).toBe(false);
    expect(tableReadsOf('SELECT * FROM Orders WHERE status = 1', 'Orders')[0]?.readsAll).toBe(true);
    expect(tableReadsOf('SELECT a FROM Other WHERE status = 1', 'Orders')).toEqual([]);
    expect(tableReadsOf('SELEKT nonsense', 'Orders')).toEqual([]);
  });

  it('proposes INCLUDE of what the reads use, and measures the saving on the items in the index', () => {
    const s = summary({
      indexes: [
        {
          name: 'byStatus',
          kind: 'GSI',
          keys: { partitionKey: { name: 'status', type: 'S' } },
          projection: 'ALL',
        },
      ],
      sizeBytes: 0,
    });
    const evidence = {
      source: 'test',
      reads: tableReadsOf("SELECT total FROM Orders WHERE status = 'open'", 'Orders'),
    };
    const plans = projectionPlans(s, evidence);
    expect(plans).toHaveLength(1);
    expect([...plans[0]!.proposed]).toEqual(['total']);
    const acc = new HealthAccumulator('pk', 'sk', undefined, 0, plans);
    const item = (i: number): Item => ({
      pk: { S: `p${i}` },
      sk: { S: 's' },
      status: { S: 'open' },
      total: { N: '5' },
      body: { S: 'x'.repeat(3000) },
    });
    for (let i = 0; i < 10; i++) acc.add(item(i));
    acc.add({ pk: { S: 'none' }, sk: { S: 's' }, body: { S: 'y' } });
    expect(acc.projections[0]).toMatchObject({ items: 10, currentWriteUnits: 30, proposedWriteUnits: 10 });
    const r = report(s, acc, 'full', { evidence });
    const f = r.findings.find((x) => x.id === 'indexes.projection.byStatus');
    expect(f?.title).toBe('Index byStatus projects more than its recorded reads use: INCLUDE would do');
    expect(f?.evidence).toContain('1 SELECT in test filter on status');
    expect(f?.action?.kind).toBe('show-change');
    expect(f?.action?.kind === 'show-change' && f.action.cloudFormation).toContain(
      'NonKeyAttributes: ["total"]',
    );
    // A SELECT * of the index's key reads everything: nothing to narrow.
    expect(
      projectionPlans(s, {
        source: 'test',
        reads: tableReadsOf("SELECT * FROM Orders WHERE status = 'x'", 'Orders'),
      }),
    ).toEqual([]);
  });
});
