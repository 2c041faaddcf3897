import { describe, expect, it } from 'vitest';
import { classifyEpoch, classifyIso, EpochKind, IsoKind } from '../../src/main/migration/classify';
import { formatPath, parsePath } from '../../src/main/migration/paths';
import { isTimeName } from '../../src/shared/schema/time-names';

describe('ISO-8601 strings', () => {
  it.each([
    ['2024-01-05', IsoKind.date],
    ['2024-02-29', IsoKind.date],
    ['2024-01-05T10:20:30Z', IsoKind.dateTime],
    ['2024-01-05T10:20:30.123Z', IsoKind.dateTime],
    ['2024-01-05T10:20:30.123456789Z', IsoKind.dateTime],
    ['2024-01-05T10:20Z', IsoKind.dateTime],
    ['2024-01-05T10:20:30+02:00', IsoKind.dateTime],
    ['2024-01-05T10:20:30.5-0530', IsoKind.dateTime],
    [new Date(0).toISOString(), IsoKind.dateTime],
  ])('%s is an ISO date', (text, kind) => {
    expect(classifyIso(text)).toBe(kind);
  });

  it.each([
    'due 2024-01-05',
    '2024-01-05 is the day',
    '2024-01-05T10:20:30', // local time, no zone: not an instant
    '2024-13-01',
    '2023-02-29',
    '2024-04-31',
    '2024-01-05T24:00:00Z',
    '2024-1-5',
    '20240105',
    'order-2024-01-05',
    '2024-01-05T10:20:30.123Zextra',
    'abcd-ef-gh',
    '',
  ])('%j is not', (text) => {
    expect(classifyIso(text)).toBe(IsoKind.none);
  });
});

describe('epoch numbers', () => {
  it.each([
    ['1700000000', EpochKind.seconds],
    ['1700000000.25', EpochKind.seconds],
    ['100000000', EpochKind.seconds],
    ['1700000000000', EpochKind.millis],
    ['10000000000', EpochKind.millis],
    ['1.7e12', EpochKind.millis],
    ['42', EpochKind.none],
    ['-1700000000', EpochKind.none],
    ['17000000000000', EpochKind.none],
    ['1700000000000.5', EpochKind.none],
    ['99999999', EpochKind.none],
  ])('%s → %i', (text, kind) => {
    expect(classifyEpoch(text)).toBe(kind);
  });
});

describe('time names', () => {
  it.each([
    'createdAt',
    'updatedAt',
    'birthDate',
    'startTime',
    'created_at',
    'timestamp',
    'ts',
    'createdOn',
    'lastSeenTimestamp',
    'ttl',
  ])('%s says time', (name) => expect(isTimeName(name)).toBe(true));
  it.each(['price', 'cat', 'format', 'data', 'status', 'amount', 'count'])('%s does not', (name) =>
    expect(isTimeName(name)).toBe(false),
  );
});

describe('paths', () => {
  it('writes map steps with dots, list steps as [n], odd names quoted, and reads them back', () => {
    const cases: (string | number)[][] = [
      ['createdAt'],
      ['a', 'b'],
      ['events', 0, 'at'],
      ['a.b'],
      ['meta', 'x.y', 2],
      ['q"[', 'z'],
    ];
    const written = cases.map((steps) => formatPath(steps));
    expect(written).toEqual(['createdAt', 'a.b', 'events[0].at', '["a.b"]', 'meta["x.y"][2]', '["q\\"["].z']);
    expect(written.map(parsePath)).toEqual(cases);
  });

  it('refuses text it would never write', () => {
    expect(() => parsePath('.a')).toThrow();
    expect(() => parsePath('a[x]')).toThrow();
    expect(() => parsePath('')).toThrow();
  });
});
