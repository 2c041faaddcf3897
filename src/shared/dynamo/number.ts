import { echoValue } from './echo-value';

/**
 * DynamoDB numbers without a JS number: a double rounds past 2^53 and cannot hold 38 digits,
 * so every check here works on the decimal text. DynamoDB keeps up to 38 significant digits
 * and magnitudes from 1E-130 to just under 1E+126; leading and trailing zeros do not count.
 */
export interface DecimalParts {
  negative: boolean;
  /** Significant digits without leading/trailing zeros; '' for zero. */
  digits: string;
  /** Scientific exponent of the first significant digit (value = d.ddd × 10^exponent). */
  exponent: number;
}

const NUMBER_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,9}))?$/;

export const MAX_SIGNIFICANT_DIGITS = 38;
export const MIN_EXPONENT = -130;
export const MAX_EXPONENT = 125;

export function parseDecimal(text: string): DecimalParts | undefined {
  const match = NUMBER_TEXT.exec(text.trim());
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exp = '0'] = match;
  if (whole === '' && fraction === '') return undefined;
  const all = whole + fraction;
  const firstNonZero = all.search(/[1-9]/);
  if (firstNonZero < 0) return { negative: false, digits: '', exponent: 0 };
  const digits = all.slice(firstNonZero).replace(/0+$/, '');
  // Position of the first significant digit relative to the decimal point.
  const exponent = whole.length - firstNonZero - 1 + Number.parseInt(exp, 10);
  return { negative: sign === '-', digits, exponent };
}

/** Why a text is not a number DynamoDB stores, or undefined when it is one. */
export function numberProblem(text: string): string | undefined {
  const parts = parseDecimal(text);
  if (!parts) return `${echoValue(text)} is not a number`;
  if (parts.digits === '') return undefined;
  if (parts.digits.length > MAX_SIGNIFICANT_DIGITS) {
    return `has ${parts.digits.length} significant digits; DynamoDB keeps at most ${MAX_SIGNIFICANT_DIGITS}`;
  }
  if (parts.exponent > MAX_EXPONENT)
    return 'is too large for DynamoDB (the largest magnitude is below 1E+126)';
  if (parts.exponent < MIN_EXPONENT) return 'is too small for DynamoDB (the smallest magnitude is 1E-130)';
  return undefined;
}

/** One spelling per value, so 1.50, 1.5 and 15E-1 compare equal (as DynamoDB compares them). */
export function canonicalNumber(text: string): string {
  const parts = parseDecimal(text);
  if (!parts) return text;
  if (parts.digits === '') return '0';
  return `${parts.negative ? '-' : ''}0.${parts.digits}e${parts.exponent + 1}`;
}

/** Significant digits of a number, used by the item-size rules. */
export function significantDigits(text: string): number {
  return parseDecimal(text)?.digits.length ?? text.length;
}

/** Compares two decimal texts exactly: -1, 0 or 1. */
export function compareNumbers(a: string, b: string): number {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) return a < b ? -1 : a > b ? 1 : 0;
  const sign = (p: DecimalParts): number => (p.digits === '' ? 0 : p.negative ? -1 : 1);
  if (sign(x) !== sign(y)) return sign(x) < sign(y) ? -1 : 1;
  if (sign(x) === 0) return 0;
  let magnitude = 0;
  if (x.exponent !== y.exponent) magnitude = x.exponent < y.exponent ? -1 : 1;
  else {
    const width = Math.max(x.digits.length, y.digits.length);
    const dx = x.digits.padEnd(width, '0');
    const dy = y.digits.padEnd(width, '0');
    magnitude = dx === dy ? 0 : dx < dy ? -1 : 1;
  }
  return x.negative ? -magnitude : magnitude;
}
