import { describe, expect, it } from 'vitest';
import { add, divide, modulo, multiply, subtract } from '../../src/main/sql/values/arith';
import {
  compareDecimals,
  compareNum,
  Decimal,
  divDecimals,
  normalizeDecimal,
  numToString,
  parseDynamoNumber,
  parseNum,
  toDecimal,
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

  it('AVG of a sum held as a safe integer rounds as the general division does', () => {
    let x = 5;
    const next = () => (x = (x * 1103515245 + 12345) & 0x7fffffff);
    const cases: [number, number, number][] = [
      [1, 3, 0],
      [-2, 3, 2],
      [10, 4, 2],
      [8_999_999_999_999_999, 7, 0],
      [-8_999_999_999_999_999, 2 ** 30, 4], // a quotient of 40+ digits that ends in 5: a tie
      [123_456_789_012_345, 2 ** 27, 15],
      [0, 9, 3],
    ];
    for (let i = 0; i < 2000; i++)
      cases.push([(next() - 2 ** 30) * (1 + (next() % 4_000_000)), 1 + (next() % 5000), next() % 16]);
    for (const [acc, count, scale] of cases) {
      const total = ExactSum.fromScaled(acc, scale, count).total()!;
      const oracle = divDecimals(toDecimal(total), new Decimal(BigInt(count), 0))!;
      const expected = numToString(normalizeDecimal(oracle));
      const average = ExactSum.fromScaled(acc, scale, count).average()!;
      expect(text(average), `${acc}e-${scale} / ${count}`).toBe(expected);
      if (!(average instanceof Decimal)) continue;
      // The double it carries for comparisons is within an ulp of its nearest, and doubles
      // beside it compare with it as with the BigInt oracle.
      const nearest = Number(expected);
      const ulp = Math.max(Number.MIN_VALUE, Math.abs(nearest) * 2 ** -52);
      expect(Math.abs(average.nearDouble() - nearest)).toBeLessThanOrEqual(ulp);
      for (const beside of [nearest - 8 * ulp, nearest - ulp, nearest, nearest + ulp, nearest + 8 * ulp])
        expect(compareNum(beside, average)).toBe(compareDecimals(toDecimal(beside), oracle));
    }
  });

  it('compares a double with a long decimal next to it as exactly as two BigInt decimals do', () => {
    // The double is the decimal cut to 1..15 digits (and nudged by one unit of its last digit),
    // so most pairs sit within an ulp of each other: the case a double-precision shortcut gets wrong.
    let checked = 0;
    for (const long of decimals(3000, 11)) {
      const d = n(long);
      if (!(d instanceof Decimal)) continue;
      const digits = d.coef < 0n ? (-d.coef).toString() : d.coef.toString();
      const exp = d.exp + digits.length;
      for (const keep of [1, 8, 15]) {
        for (const nudge of [-1n, 0n, 1n]) {
          const cut = BigInt(digits.slice(0, keep)) + nudge;
          const short = n(`${d.coef < 0n ? '-' : ''}${cut}E${exp - keep}`);
          if (typeof short !== 'number') continue;
          const exact = compareDecimals(toDecimal(short), d);
          expect(compareNum(short, d), `${numToString(short)} vs ${long}`).toBe(exact);
          expect(compareNum(d, short), `${long} vs ${numToString(short)}`).toBe(-exact);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(5000);
    // One unit in the 38th digit apart, on both sides of a double.
    expect(compareNum(0.1, n('0.1000000000000000000000000000000000001'))).toBe(-1);
    expect(compareNum(0.1, n('0.09999999999999999999999999999999999999'))).toBe(1);
    expect(compareNum(n('1E-300'), n('1.000000000000000000000000000000000001E-300'))).toBe(-1);
    // ~50,000 checks: 1–2 s on a quiet machine, past vitest's 5 s default under a load of 25+.
  }, 30_000);

  it('counts digits exactly at every power of ten (compare, round, print)', () => {
    for (let d = 15; d <= 60; d++) {
      const power = 10n ** BigInt(d);
      for (const [below, at] of [
        [power - 1n, power],
        [-power, -(power - 1n)],
      ] as const) {
        const [a, b] = [new Decimal(below, -3), new Decimal(at, -3)];
        expect(compareDecimals(a, b)).toBe(-1);
        expect(compareDecimals(b, a)).toBe(1);
        // Rounding to 38 digits counts them: text of the rounded quotient against BigInt text.
        const third = divDecimals(new Decimal(at, 0), new Decimal(3n, 0))!;
        const digits = (third.coef < 0n ? -third.coef : third.coef).toString().length;
        expect(digits).toBeLessThanOrEqual(38);
        expect(numToString(normalizeDecimal(a))).toBe(
          `${below < 0n ? '-' : ''}${(below < 0n ? -below : below)
            .toString()
            .replace(/(\d{3})$/, '.$1')
            .replace(/^\./, '0.')}`,
        );
      }
    }
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
