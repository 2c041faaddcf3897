import { describe, expect, it } from 'vitest';
import { add, divide, modulo, multiply, subtract } from '../../src/main/sql/values/arith';
import {
  compareNum,
  Decimal,
  numToString,
  parseDynamoNumber,
  parseNum,
} from '../../src/main/sql/values/decimal';
import { ExactSum } from '../../src/main/sql/values/exact-sum';
import { hashKey, sqlCompare, sqlEquals } from '../../src/main/sql/values/compare';
import { scaled } from '../fixtures/sql-fixture';

const n = (text: string) => parseNum(text)!;
const text = (v: ReturnType<typeof n> | undefined) => (v === undefined ? undefined : numToString(v));

/** Deterministic pseudo-random decimals with 1..38 digits and exponents across DynamoDB's range. */
function* decimals(count: number, seed = 7): Generator<string> {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) & 0x7fffffff);
  for (let i = 0; i < count; i++) {
    const digits = 1 + (next() % 38);
    let d = String(1 + (next() % 9));
    while (d.length < digits) d += String(next() % 10);
    const exp = (next() % 60) - 30;
    yield `${next() % 2 ? '-' : ''}${d}E${exp}`;
  }
}

describe('exact decimals', () => {
  it('keeps one representation per value, so equal numbers hash alike', () => {
    expect(hashKey(n('1.50'))).toBe(hashKey(n('15E-1')));
    expect(hashKey(n('123456789012345678901234567890'))).toBe(
      hashKey(n('1.2345678901234567890123456789E+29')),
    );
    expect(n('12345678901234567')).toBeInstanceOf(Decimal); // 17 digits do not fit a double exactly
    expect(typeof n('123456789012345')).toBe('number');
    expect(parseDynamoNumber('-0')).toBe(0);
    expect(Object.is(parseDynamoNumber('-0'), -0)).toBe(false);
  });

  it('parses and prints DynamoDB extremes without losing digits', () => {
    for (const t of [
      '1E+125',
      '-1E+125',
      '1.5E-130',
      '9.9999999999999999999999999999999999999E+125',
      '12345678901234567890123456789012345678',
      '0.000001',
    ]) {
      expect(scaled(numToString(parseDynamoNumber(t)))).toBe(scaled(t));
    }
    expect(numToString(parseDynamoNumber('12345678901234567890123456789012345678'))).toBe(
      '12345678901234567890123456789012345678',
    );
    // DynamoDB's spelling: plain notation (it answers 1E+125 with 126 digits).
    expect(numToString(parseDynamoNumber('1E+125'))).toBe(`1${'0'.repeat(125)}`);
    expect(numToString(parseDynamoNumber('1.5E-130'))).toBe(`0.${'0'.repeat(129)}15`);
  });

  it('prints a number as DynamoDB stored it, not in scientific notation (regression: -1E-36)', () => {
    const tiny = `-0.${'0'.repeat(35)}1`;
    expect(numToString(parseDynamoNumber(tiny))).toBe(tiny);
    expect(numToString(n('1E-8'))).toBe('0.00000001');
    expect(numToString(1e-7)).toBe('0.0000001');
    expect(numToString(1e21)).toBe('1000000000000000000000');
  });

  it('compares exactly where doubles cannot', () => {
    expect(
      compareNum(n('12345678901234567890123456789012345678'), n('12345678901234567890123456789012345679')),
    ).toBe(-1);
    expect(compareNum(n('9007199254740993'), n('9007199254740992'))).toBe(1); // equal as doubles
    expect(compareNum(n('0.1'), n('1E-1'))).toBe(0);
    expect(compareNum(n('1E+125'), n('-1E+125'))).toBe(1);
    expect(compareNum(n('1.5E-130'), n('0'))).toBe(1);
    expect(sqlEquals(n('5'), '5')).toBe(false);
    expect(sqlCompare(n('5'), '6')).toBeNull();
  });

  it('adds, subtracts and multiplies exactly', () => {
    expect(text(add(n('0.1'), n('0.2')))).toBe('0.3');
    expect(text(subtract(n('1'), n('0.9')))).toBe('0.1');
    expect(text(multiply(n('1.1'), n('1.1')))).toBe('1.21');
    expect(text(add(n('12345678901234567890123456789012345678'), n('1')))).toBe(
      '12345678901234567890123456789012345679',
    );
    expect(text(add(n('1E+125'), n('1E-130')))!.length).toBeGreaterThan(250);
    const values = [...decimals(300)];
    for (let i = 0; i + 1 < values.length; i += 2) {
      const [a, b] = [values[i]!, values[i + 1]!];
      expect(scaled(text(add(n(a), n(b)))!)).toBe(scaled(a) + scaled(b));
      expect(scaled(text(subtract(n(a), n(b)))!)).toBe(scaled(a) - scaled(b));
    }
  });

  it('divides to 38 significant digits and treats division by zero as NULL', () => {
    expect(text(divide(n('1'), n('3')))).toBe('0.33333333333333333333333333333333333333');
    expect(text(divide(n('2'), n('3')))).toBe('0.66666666666666666666666666666666666667');
    expect(text(divide(n('10'), n('4')))).toBe('2.5');
    expect(divide(n('1'), n('0'))).toBeUndefined();
    expect(text(modulo(n('7.5'), n('2')))).toBe('1.5');
    expect(text(modulo(n('-7'), n('3')))).toBe('-1');
  });

  it('SUM is exact for prices, integers, 38-digit values and mixtures', () => {
    const cases: string[][] = [
      Array.from({ length: 10_000 }, (_, i) => `${i % 997}.${String((i * 37) % 100).padStart(2, '0')}`),
      Array.from({ length: 5_000 }, (_, i) => String(900_000_000_000_000 + i * 7)), // crosses 2^53
      [...decimals(2_000, 3)],
      ['0.1', '0.2', '0.3', '1E+125', '-1E+125', '1.5E-130', '12345678901234567890123456789012345678'],
    ];
    for (const values of cases) {
      const sum = new ExactSum();
      for (const v of values) sum.add(n(v));
      const expected = values.reduce((acc, v) => acc + scaled(v), 0n);
      expect(scaled(numToString(sum.total()!))).toBe(expected);
    }
    expect(new ExactSum().total()).toBeNull();
  });
});
