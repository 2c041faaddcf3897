import { describe, expect, it } from 'vitest';
import { SchemaAccumulator } from '../../src/main/schema/accumulator';
import {
  mergeExpectations,
  parseExpectationsFile,
  parseExpectFlag,
} from '../../src/main/migration/expectations';
import { buildReport, type TableKeyInfo } from '../../src/main/migration/report';
import { verdictOf, withExpectations } from '../../src/main/migration/verdict';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import type { DateSetting } from '../../src/shared/ipc/migration';

// The gate's rule: anything left to do (a data fix, or a model setting nobody acknowledged)
// is an action; an acknowledgement the data contradicts is one too.

const info: TableKeyInfo = {
  keys: { partitionKey: { name: 'pk', type: 'S' }, sortKey: { name: 'occurredAt', type: 'S' } },
  indexKeys: {},
};
const meta = {
  scanId: 's1',
  table: 'Events',
  startedAt: '2024-01-01T00:00:00.000Z',
  finishedAt: '2024-01-01T00:01:00.000Z',
  complete: true,
  segments: 1,
  tableItemCount: 0,
  consumedReadCapacity: 0,
};
const iso = (i: number) => ({ S: `2024-01-0${i}T10:00:00.000Z` });

function reportOf(items: Item[]) {
  const acc = SchemaAccumulator.findingsOnly({ keyAttributes: ['pk', 'occurredAt'] });
  acc.addAll(items);
  return buildReport(acc.findings, info, meta);
}

const isoTable = reportOf([
  { pk: { S: 'a' }, occurredAt: iso(1), shippedAt: iso(2) },
  { pk: { S: 'b' }, occurredAt: iso(3) },
]);

describe('a table whose Dates are all ISO strings', () => {
  it('needs no data fix but is still an action until the settings are acknowledged', () => {
    const v = isoTable.verdict;
    expect(v).toMatchObject({ needsFix: false, actionNeeded: true, acknowledged: [] });
    expect(v.requiredSettings).toEqual([
      { path: 'occurredAt', storage: 'iso' },
      { path: 'shippedAt', storage: 'iso' },
    ]);
    expect(v.line).toBe(
      "No data fix needed, but the models need a setting: store Dates as ISO strings at occurredAt, shippedAt (new ORM: defaultDateStorage 'iso' on that model), or convert them to epoch ms. Acknowledge it once the models have it.",
    );
  });

  it('stays an action while one of two settings is acknowledged', () => {
    const v = withExpectations(isoTable, [{ path: 'occurredAt', storage: 'iso' }]).verdict;
    expect(v.actionNeeded).toBe(true);
    expect(v.acknowledged).toEqual([{ path: 'occurredAt', storage: 'iso' }]);
    expect(v.settings).toEqual([
      "store Dates as ISO strings at shippedAt (new ORM: defaultDateStorage 'iso' on that model), or convert them to epoch ms",
    ]);
  });

  it('is ready once every setting is acknowledged, and says which', () => {
    const v = withExpectations(isoTable, [
      { path: 'occurredAt', storage: 'iso' },
      { path: 'shippedAt', storage: 'iso' },
    ]).verdict;
    expect(v).toMatchObject({ needsFix: false, actionNeeded: false, settings: [] });
    expect(v.line).toBe(
      'Ready: no data fix needed, and every model setting the data calls for is acknowledged. Acknowledged model settings: occurredAt ISO strings, shippedAt ISO strings.',
    );
  });

  it('is an action again when an acknowledgement contradicts the data', () => {
    const v = withExpectations(isoTable, [
      { path: 'occurredAt', storage: 'millis' },
      { path: 'shippedAt', storage: 'iso' },
    ]).verdict;
    expect(v.actionNeeded).toBe(true);
    expect(v.settings[0]).toBe(
      'occurredAt is acknowledged as epoch ms but holds ISO strings: correct the model or the acknowledgement',
    );
  });
});

describe('the rule over kinds of storage', () => {
  const finding = (over: Partial<Parameters<typeof verdictOf>[0]['dateAttributes'][number]>) => ({
    path: 'createdAt',
    iso: 0,
    isoDateOnly: 0,
    epochMillis: 0,
    epochSeconds: 0,
    mixed: false,
    isKey: false,
    indexKeyOf: [],
    timeNamed: true,
    sampleKeys: [],
    sampleKeysByKind: { iso: [], epochMillis: [], epochSeconds: [] },
    ...over,
  });
  const verdict = (over: Parameters<typeof finding>[0], expectations: DateSetting[] = []) =>
    verdictOf({
      dottedAttributes: [],
      dateAttributes: [finding(over)],
      complete: true,
      itemsScanned: 3,
      expectations,
    });

  it('epoch ms is the default: nothing to do, nothing to acknowledge', () => {
    expect(verdict({ epochMillis: 3 })).toMatchObject({ actionNeeded: false, requiredSettings: [] });
  });
  it('epoch seconds need a setting, acknowledged as "seconds"', () => {
    expect(verdict({ epochSeconds: 3 }).actionNeeded).toBe(true);
    expect(verdict({ epochSeconds: 3 }, [{ path: 'createdAt', storage: 'seconds' }]).actionNeeded).toBe(
      false,
    );
  });
  it('a mixed path needs a data fix whatever is acknowledged', () => {
    const v = verdict({ iso: 1, epochMillis: 2, mixed: true }, [{ path: 'createdAt', storage: 'iso' }]);
    expect(v).toMatchObject({ needsFix: true, actionNeeded: true });
  });
});

describe('set members', () => {
  it('counts ISO strings in a string set and epoch numbers in a number set at the set path', () => {
    const report = reportOf([
      {
        pk: { S: 'a' },
        occurredAt: { N: '1704448800000' },
        remindAt: { SS: ['2024-01-05T10:00:00.000Z', '2024-01-06', 'not a date'] },
        pingedAt: { NS: ['1704448800000', '1704448800001'] },
        sizes: { NS: ['1700000000'] },
      },
    ]);
    const byPath = new Map(report.dateAttributes.map((d) => [d.path, d]));
    expect(byPath.get('remindAt')).toMatchObject({ iso: 2, isoDateOnly: 1, setMembers: 2, mixed: false });
    expect(byPath.get('pingedAt')).toMatchObject({ epochMillis: 2, setMembers: 2 });
    // An epoch-sized number in a set whose name is no time is not a Date, as for scalars.
    expect(byPath.has('sizes')).toBe(false);
    expect(report.verdict.settings[0]).toContain('ISO strings at remindAt (set members)');
  });

  it('merges set counts across segments', () => {
    const a = SchemaAccumulator.findingsOnly({ keyAttributes: ['pk'] });
    a.add({ pk: { S: 'a' }, remindAt: { SS: ['2024-01-05'] } });
    const b = SchemaAccumulator.findingsOnly({ keyAttributes: ['pk'] });
    b.add({ pk: { S: 'b' }, remindAt: { SS: ['2024-01-06', '2024-01-07'] } });
    a.merge(b.toJSON());
    expect(buildReport(a.findings, info, meta).dateAttributes[0]).toMatchObject({ iso: 3, setMembers: 3 });
    // Into a segment that never saw the path (as the final merge of every scan does).
    const merged = SchemaAccumulator.findingsOnly({ keyAttributes: ['pk'] });
    merged.merge(a.toJSON());
    expect(buildReport(merged.findings, info, meta).dateAttributes[0]).toMatchObject({
      iso: 3,
      setMembers: 3,
    });
  });
});

describe('acknowledgements from the command line and a file', () => {
  it('reads PATH=STORAGE, splitting at the last "="', () => {
    expect(parseExpectFlag('occurredAt=iso')).toEqual({ path: 'occurredAt', storage: 'iso' });
    expect(parseExpectFlag('["a=b"]=seconds')).toEqual({ path: '["a=b"]', storage: 'seconds' });
    expect(() => parseExpectFlag('occurredAt')).toThrow(/--expect wants PATH=STORAGE/);
    expect(() => parseExpectFlag('occurredAt=date')).toThrow(/not "occurredAt=date"/);
  });

  it('reads a file, refuses it for another table, keeps __proto__ as a path', () => {
    const text = JSON.stringify({
      table: 'Events',
      dateStorage: [
        { path: 'occurredAt', storage: 'iso' },
        { path: '__proto__', storage: 'seconds' },
      ],
    });
    expect(parseExpectationsFile(text, 'e.json', 'Events')).toEqual([
      { path: 'occurredAt', storage: 'iso' },
      { path: '__proto__', storage: 'seconds' },
    ]);
    expect(() => parseExpectationsFile(text, 'e.json', 'Orders')).toThrow(
      'The expectations file e.json is for the table Events, not Orders.',
    );
    expect(() => parseExpectationsFile('{"dates":{}}', 'e.json', 'Events')).toThrow(
      /does not have the expected shape/,
    );
    expect(() => parseExpectationsFile('{', 'e.json', 'Events')).toThrow(
      'The expectations file e.json is not valid JSON.',
    );
  });

  it('a flag wins over the file for the same path', () => {
    expect(mergeExpectations([{ path: 'a', storage: 'iso' }], [{ path: 'a', storage: 'millis' }])).toEqual([
      { path: 'a', storage: 'millis' },
    ]);
  });
});
