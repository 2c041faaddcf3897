import { describe, expect, it } from 'vitest';
import type { MigrationReport } from '../../src/shared/ipc/migration';
import { exportReport, toCsv, toMarkdown } from '../../src/main/migration/export';
import { verdictOf } from '../../src/main/migration/verdict';

const dotted = {
  name: 'a,"b".c',
  items: 3,
  parentMissing: 1,
  sameAsNested: 1,
  differsFromNested: 1,
  missingParentMap: 1,
  parentNotMap: 0,
  sampleKeys: [{ pk: '=cmd|x', sk: 1 }],
};
const date = {
  path: 'createdAt',
  iso: 2,
  isoDateOnly: 0,
  epochMillis: 1,
  epochSeconds: 0,
  mixed: true,
  isKey: false,
  indexKeyOf: ['byDay'],
  timeNamed: true,
  sampleKeys: [{ pk: 'p1', sk: 2 }],
  sampleKeysByKind: { iso: [{ pk: 'p1', sk: 2 }], epochMillis: [], epochSeconds: [] },
};
const report: MigrationReport = {
  scanId: 'scan-1',
  table: 'Orders',
  keys: { partitionKey: { name: 'pk', type: 'S' }, sortKey: { name: 'sk', type: 'N' } },
  startedAt: '2026-11-06T09:00:00.000Z',
  finishedAt: '2026-11-06T09:04:12.000Z',
  complete: true,
  segments: 4,
  itemsScanned: 10,
  tableItemCount: 10,
  consumedReadCapacity: 1.5,
  dottedAttributes: [dotted],
  dateAttributes: [date],
  untrackedPaths: 0,
  verdict: verdictOf({
    dottedAttributes: [dotted],
    dateAttributes: [date],
    complete: true,
    itemsScanned: 10,
  }),
};

describe('report exports', () => {
  it('CSV: one row per finding, quoted where needed, with formula-looking cells defused', () => {
    const lines = toCsv(report).split('\r\n');
    expect(lines[0]).toBe(
      'finding,name,items,parentMissing,sameAsNested,differsFromNested,iso,epochMillis,epochSeconds,mixed,isKey,indexKeyOf,needsFix,sampleKeys,entity,detail',
    );
    expect(lines[1]).toBe('dotted,"a,""b"".c",3,1,1,1,,,,,,,true,"[{""pk"":""=cmd|x"",""sk"":1}]",,');
    expect(lines[2]).toBe('date,createdAt,3,,,,2,1,0,true,false,byDay,true,"[{""pk"":""p1"",""sk"":2}]",,');
    expect(lines).toHaveLength(4); // trailing CRLF
  });

  it('Markdown: the verdict, a table per finding kind and a checklist', () => {
    const md = toMarkdown(report);
    expect(md).toContain('# Migration pre-flight: Orders');
    expect(md).toContain('**Needs fixing**');
    expect(md).toContain('| Attribute | Items | No nested value | Same as nested | Differs | Sample keys |');
    expect(md).toContain('| `createdAt` | 2 | 1 | 0 | **yes** | index key (byDay) |');
    expect(md).toMatch(/- \[ \] Fix: make createdAt one type \(2 ISO strings, 1 epoch ms\)/);
    expect(md).not.toContain('throttled');
    expect(toMarkdown({ ...report, throttledRequests: 3 })).toContain(
      '- Read capacity consumed: 1.5 RCU over 4 segment(s); DynamoDB throttled 3 request(s), which were retried slower',
    );
  });

  it('JSON is the report itself, with a file name from the table and time', () => {
    const out = exportReport(report, 'json');
    expect(JSON.parse(out.content)).toEqual(report);
    expect(out.fileName).toBe('migration-Orders-2026-11-06-09-04-12.json');
    expect(exportReport(report, 'csv').mimeType).toBe('text/csv');
  });

  it('the verdict separates data fixes from settings, and says when a scan was partial', () => {
    const isoOnly = { ...date, epochMillis: 0, mixed: false };
    const settingsOnly = verdictOf({
      dottedAttributes: [],
      dateAttributes: [isoOnly],
      complete: false,
      itemsScanned: 5,
    });
    expect(settingsOnly.needsFix).toBe(false);
    expect(settingsOnly.actionNeeded).toBe(true);
    expect(settingsOnly.line).toMatch(
      /^Partial scan \(5 items, not the whole table\): No data fix needed, but the models need a setting: store Dates as ISO strings at createdAt/,
    );
  });
});
