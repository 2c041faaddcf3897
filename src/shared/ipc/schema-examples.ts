import type { ChannelExample } from './examples';
import type { SchemaReport, schemaChannels } from './schema';

type SchemaExamples = { [C in keyof typeof schemaChannels]: ChannelExample<C> };

const report: SchemaReport = {
  scanId: 'schema-m1x2y3-1a2b3c4d',
  table: 'DynoTableSample',
  keys: { partitionKey: { name: 'PK', type: 'S' }, sortKey: { name: 'SK', type: 'S' } },
  startedAt: '2026-11-06T09:00:00.000Z',
  finishedAt: '2026-11-06T09:00:01.200Z',
  sampled: true,
  complete: false,
  itemsScanned: 996,
  tableItemCount: 2_000_000,
  draw: {
    mode: 'sample',
    totalSegments: 80_000,
    segments: [112, 2_031, 5_870],
    pageLimit: 25,
    pages: 40,
    consumedReadCapacity: 20.5,
    throttledRequests: 0,
    description:
      '996 items from the first page (up to 25 items) of 40 random segments of 80,000 Scan segments of the table, 20.5 RCU.',
  },
  entitySource: { kind: 'keys' },
  entities: [
    {
      name: 'orders',
      keyPattern: 'PK=USER#… SK=ORDER#…',
      keyPatterns: [{ pattern: 'PK=USER#… SK=ORDER#…', count: 610 }],
      conditions: [{ attribute: 'SK', op: 'begins_with', values: [{ S: 'ORDER#' }] }],
      items: 610,
      maxItemBytes: 1_840,
      untrackedPaths: 0,
      attributes: [
        {
          path: 'placedAt',
          items: 610,
          share: 1,
          values: 610,
          types: { S: 598, N: 12 },
          formats: { isoDateTime: 598 },
          strings: 598,
          length: { min: 24, max: 24 },
          lengthHistogram: [{ label: '16–31', count: 598 }],
          number: {
            min: '1704067200',
            max: '1735689599',
            count: 12,
            integers: 12,
            epochSeconds: 12,
            epochMillis: 0,
          },
          numberHistogram: [{ label: '1G–10G', count: 12 }],
          yearHistogram: [{ label: '2024', count: 610 }],
          distinct: { count: 604, isExact: false },
        },
      ],
    },
  ],
  attributes: [
    {
      path: 'status',
      items: 610,
      share: 0.61,
      values: 610,
      types: { S: 610 },
      formats: {},
      strings: 610,
      length: { min: 7, max: 9 },
      distinct: { count: 3, isExact: true },
      topValues: [
        { type: 'S', value: 'SHIPPED', count: 402 },
        { type: 'S', value: 'PLACED', count: 150 },
        { type: 'S', value: 'DELIVERED', count: 58 },
      ],
    },
  ],
  maxItemBytes: 1_840,
  warnings: [
    {
      kind: 'isoAndEpoch',
      path: 'placedAt',
      detail:
        'Dates stored two ways: 598 ISO strings next to 12 epoch values; code reading one breaks on the other.',
    },
  ],
  untrackedPaths: 0,
  untrackedEntityItems: 0,
};

export const schemaExamples: SchemaExamples = {
  'schema:analyze': {
    summary:
      'Reads a table or index to describe every attribute path it holds, per entity: a sample (the first page of random Scan segments) or a full scan.',
    input: {
      connectionId: 'playground',
      table: 'DynoTableSample',
      requestId: 'schema_7Hq2LmX9',
      mode: 'sample',
      sampleSize: 1000,
      segments: 40,
    },
    output: { scanId: 'schema-m1x2y3-1a2b3c4d' },
    notes:
      'An operation: progress events, then done (value { scanId }), cancelled or error (cursor = the scan id to resume). mode "full" scans every item at the read limit (`limit`, as the pre-flight takes it) and checkpoints every 5 s; `resumeScanId` continues a stopped one. `typeAttribute` groups entities by that attribute instead of key prefixes.',
  },
  'schema:report': {
    summary:
      'The report of a schema read: how the sample was drawn, entities, every path with its type shares, formats, ranges and distinct values, and warnings.',
    input: { scanId: 'schema-m1x2y3-1a2b3c4d' },
    output: report,
    notes: 'A stopped full scan reports what it read so far (complete: false).',
  },
  'schema:scans': {
    summary: 'The schema reads of one table (or index), newest first.',
    input: { connectionId: 'playground', table: 'DynoTableSample' },
    output: [
      {
        scanId: 'schema-m1x2y3-1a2b3c4d',
        connectionId: 'playground',
        table: 'DynoTableSample',
        mode: 'sample',
        state: 'done',
        requestId: 'schema_7Hq2LmX9',
        startedAt: '2026-11-06T09:00:00.000Z',
        itemsScanned: 996,
      },
    ],
  },
};
