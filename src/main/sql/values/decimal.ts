/**
 * Exact decimals for SQL over DynamoDB numbers (38 significant digits, exponents -130..+125).
 *
 * A number is held as a JS double only when its decimal value has at most 15 significant
 * digits: every such decimal survives the trip through a double (String(x) gives it back), and
 * rounding to the nearest double is monotonic, so comparisons and equality of two such doubles
 * are exact. Anything longer is a Decimal (BigInt coefficient × 10^exp). The rule is applied to
 * every value, parsed or computed, so one value has exactly one representation, which is what
 * lets hash joins and GROUP BY use plain Map keys.
 */
export class Decimal {
  /**
   * A double within an ulp of the value, once asked for or given (NaN until then); private, so
   * values still compare by coef and exp.
   */
  #near = Number.NaN;
  /** value = coef × 10^exp; coef carries the sign and has no trailing zeros (zero is 0n × 10^0). */
  constructor(
    readonly coef: bigint,
    readonly exp: number,
  ) {}

  /**
   * A double within an ulp of this value (its nearest, unless its maker gave one as close),
   * kept for the Decimal's life: a correlated subquery's AVG answer is compared with every outer
   * row's double (`roughCompare`).
   */
  nearDouble(): number {
    if (Number.isNaN(this.#near)) this.#near = Number(decimalToString(this));
    return this.#near;
  }

  /** Gives the double `nearDouble` answers, when the maker has one within an ulp at hand. */
  knownNear(near: number): this {
    this.#near = near;
    return this;
  }
}

export type Num = number | Decimal;

/** Precision of results that cannot be exact (division, AVG): DynamoDB's own 38 digits. */
export const DIVISION_DIGITS = 38;

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,6}))?$/;
const POW10_BIG: bigint[] = [1n];
export function pow10Big(n: number): bigint {
  for (let i = POW10_BIG.length; i <= n; i++) POW10_BIG.push(POW10_BIG[i - 1]! * 10n);
  return POW10_BIG[n]!;
}

export function makeDecimal(coef: bigint, exp: number): Decimal {
  if (coef === 0n) return new Decimal(0n, 0);
  // An exact quotient (AVG of 10 prices) arrives with ~38 trailing zeros: strip them 8 at a time.
  while (coef % 100000000n === 0n) {
    coef /= 100000000n;
    exp += 8;
  }
  while (coef % 10n === 0n) {
    coef /= 10n;
    exp += 1;
  }
  return new Decimal(coef, exp);
}

export function parseDecimalText(text: string): Decimal | undefined {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  if (whole === '' && fraction === '') return undefined;
  const magnitude = BigInt(whole + fraction || '0');
  return makeDecimal(sign === '-' ? -magnitude : magnitude, Number.parseInt(exponent, 10) - fraction.length);
}

const SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);
const LOG10_OF_2 = Math.log10(2);

/**
 * Decimal digits of a coefficient. AVG makes a 38-digit Decimal per group and counts its digits
 * several times, so this avoids decimal text: a safe integer is counted as a double, a larger
 * one from its hexadecimal length (a bit length within 4), then corrected against powers of ten.
 */
function digitCount(coef: bigint): number {
  const magnitude = coef < 0n ? -coef : coef;
  if (magnitude <= SAFE_BIG) {
    const x = Number(magnitude);
    let digits = 1;
    while (digits < 16 && x >= 10 ** digits) digits += 1;
    return digits;
  }
  // magnitude ≥ 16^(hex digits − 1), so it has more decimal digits than this (one fewer than
  // the bound, so that rounding in the product can never overshoot).
  let digits = Math.floor((magnitude.toString(16).length - 1) * 4 * LOG10_OF_2);
  while (magnitude >= pow10Big(digits)) digits += 1;
  return digits;
}

/**
 * DynamoDB's own spelling: plain notation, never an exponent. DynamoDB answers 1E+30 as
 * 1000000000000000000000000000000 and -1E-36 as -0.000…001 (36 places), and its exports hold
 * that text, so a number read back through SQL is the text DynamoDB stored, byte for byte
 * (up to 1E+125 is 126 characters: long, but the same as the item editor shows).
 */
export function decimalToString(d: Decimal): string {
  if (d.coef === 0n) return '0';
  const negative = d.coef < 0n;
  const digits = (negative ? -d.coef : d.coef).toString();
  let body: string;
  if (d.exp >= 0) {
    body = digits + '0'.repeat(d.exp);
  } else if (digits.length > -d.exp) {
    body = `${digits.slice(0, digits.length + d.exp)}.${digits.slice(digits.length + d.exp)}`;
  } else {
    body = `0.${'0'.repeat(-d.exp - digits.length)}${digits}`;
  }
  return negative ? `-${body}` : body;
}

/** The one representation of a decimal value: a double when that is exact, else the Decimal. */
export function normalizeDecimal(d: Decimal): Num {
  if (d.coef === 0n) return 0;
  const digits = digitCount(d.coef);
  const adjusted = d.exp + digits - 1;
  if (digits <= 15 && adjusted > -300 && adjusted < 300) return Number(decimalToString(d));
  return d;
}

/**
 * DynamoDB's own number text, which DynamoDB has already validated: up to 15 characters hold at
 * most 15 significant digits, so the double is exact and no further check is needed.
 */
export function parseDynamoNumber(text: string): Num {
  if (text.length <= 15) return Number(text) + 0;
  const d = parseDecimalText(text);
  return d === undefined ? Number.NaN : normalizeDecimal(d);
}

/** Parses number text from a person (a literal, CAST): undefined when it is not a number. */
export function parseNum(text: string): Num | undefined {
  const d = parseDecimalText(text);
  return d === undefined ? undefined : normalizeDecimal(d);
}

export function toDecimal(n: Num): Decimal {
  if (typeof n !== 'number') return n;
  // String(x) of a double that came from a ≤15-digit decimal spells exactly that decimal.
  return parseDecimalText(String(n)) ?? new Decimal(0n, 0);
}

export function numToString(n: Num): string {
  if (typeof n === 'number') {
    const text = String(n);
    // String() switches to exponents at 1E+21; spell it the way a Decimal of the same value is.
    return text.includes('e') ? decimalToString(toDecimal(n)) : text;
  }
  return decimalToString(n);
}

export function isNum(value: unknown): value is Num {
  return typeof value === 'number' || value instanceof Decimal;
}

function sign(d: Decimal): number {
  return d.coef === 0n ? 0 : d.coef < 0n ? -1 : 1;
}

export function compareDecimals(a: Decimal, b: Decimal): number {
  const sa = sign(a);
  const sb = sign(b);
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const adjustedA = a.exp + digitCount(a.coef);
  const adjustedB = b.exp + digitCount(b.coef);
  if (adjustedA !== adjustedB) return (adjustedA < adjustedB ? -1 : 1) * sa;
  const [x, y] = align(a, b);
  return x === y ? 0 : x < y ? -1 : 1;
}

/** Coefficients of a and b brought to the same exponent (the smaller one). */
function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const exp = Math.min(a.exp, b.exp);
  return [a.coef * pow10Big(a.exp - exp), b.coef * pow10Big(b.exp - exp), exp];
}

export function compareNum(a: Num, b: Num): number {
  if (typeof a === 'number') {
    if (typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
    const rough = roughCompare(a, b);
    if (rough !== 0) return rough;
  } else if (typeof b === 'number') {
    const rough = roughCompare(b, a);
    if (rough !== 0) return -rough;
  }
  return compareDecimals(toDecimal(a), toDecimal(b));
}

/**
 * -1 or 1 when the double x is clearly below or above d, 0 when too close to tell. d's near
 * double is within an ulp of d (2^-52 relative), so a double further than 2^-50 relative from it
 * is on the same side of d as of it: decided without converting x to a BigInt decimal, which is
 * what comparing `amount > (SELECT AVG(...))` would otherwise do on every row. Tiny and huge
 * doubles (subnormal, infinite) leave it to the exact comparison.
 */
function roughCompare(x: number, d: Decimal): number {
  const f = d.nearDouble();
  const size = Math.abs(f);
  if (!(size > 1e-290 && size < 1e290)) return 0;
  const margin = size * 2 ** -50;
  return x < f - margin ? -1 : x > f + margin ? 1 : 0;
}

export function addDecimals(a: Decimal, b: Decimal): Decimal {
  const [x, y, exp] = align(a, b);
  return makeDecimal(x + y, exp);
}

export function mulDecimals(a: Decimal, b: Decimal): Decimal {
  return makeDecimal(a.coef * b.coef, a.exp + b.exp);
}

/** Rounds a coefficient to `digits` significant digits, half to even. */
export function roundToDigits(coef: bigint, exp: number, digits: number, sticky = false): Decimal {
  const count = digitCount(coef);
  if (count <= digits && !sticky) return makeDecimal(coef, exp);
  const drop = Math.max(0, count - digits);
  if (drop === 0) return makeDecimal(coef, exp);
  const divisor = pow10Big(drop);
  const negative = coef < 0n;
  const magnitude = negative ? -coef : coef;
  let q = magnitude / divisor;
  const twice = (magnitude % divisor) * 2n;
  if (twice > divisor || (twice === divisor && (sticky || q % 2n === 1n))) q += 1n;
  return makeDecimal(negative ? -q : q, exp + drop);
}

export function divDecimals(a: Decimal, b: Decimal, digits = DIVISION_DIGITS): Decimal | undefined {
  if (b.coef === 0n) return undefined;
  if (a.coef === 0n) return new Decimal(0n, 0);
  // Scale the dividend so the quotient has two digits more than we keep, then round.
  const shift = Math.max(0, digits + 2 + digitCount(b.coef) - digitCount(a.coef));
  const dividend = a.coef * pow10Big(shift);
  const quotient = dividend / b.coef;
  const inexact = dividend % b.coef !== 0n;
  return roundToDigits(quotient, a.exp - b.exp - shift, digits, inexact);
}

/** Rounds to `places` digits after the point, half away from zero (what people expect of ROUND). */
export function roundDecimal(d: Decimal, places: number, mode: 'half' | 'floor' | 'ceil' = 'half'): Decimal {
  if (d.exp >= -places) return d;
  const divisor = pow10Big(-places - d.exp);
  const negative = d.coef < 0n;
  const magnitude = negative ? -d.coef : d.coef;
  let q = magnitude / divisor;
  const remainder = magnitude % divisor;
  if (mode === 'half' && remainder * 2n >= divisor) q += 1n;
  else if (remainder !== 0n && ((mode === 'floor' && negative) || (mode === 'ceil' && !negative))) q += 1n;
  return makeDecimal(negative ? -q : q, -places);
}
