import {
  compareDecimals,
  type Decimal,
  decimalToString,
  makeDecimal,
  parseDecimalText,
  pow10Big,
  roundDecimal,
} from '../../sql/values/decimal';
import { numberDigits } from '../export-schema';
import { refuse } from './refuse';
import { asType, decimalType, type Digits, digitsOf, MAX_DECIMAL_DIGITS, type Typed, val } from './typed';

/**
 * Numbers on Athena, exactly. Each attribute's numbers are a DECIMAL just wide enough for what
 * the export holds (typed.ts); these rules keep every operation inside Athena's 38 digits, so
 * Trino never widens a value past what it can hold (a failed, billed query) nor rounds it
 * (a wrong answer): what cannot stay exact is refused before anything starts.
 */

/** A number literal: plain digits, typed exactly as wide as it is (never 1e5, which Trino reads as DOUBLE). */
export function numberLiteral(text: string): Typed {
  const value = parseDecimalText(text);
  const plain = value ? decimalToString(value) : text;
  const digits = numberDigits(plain);
  // Small ones stay readable; Trino reads 120.5 as DECIMAL(4, 1) and 7 as INTEGER, which widen nothing.
  const sql = digits.integer + digits.fraction <= 18 ? plain : `CAST('${plain}' AS ${decimalType(digits)})`;
  return { kind: 'val', sql, type: 'N', digits, literal: plain };
}

const width = (d: Digits): number => d.integer + d.fraction;

/** The largest magnitude a DECIMAL of these digits holds: 99.99 for two and two. */
function largest(d: Digits): Decimal {
  return makeDecimal(pow10Big(width(d)) - 1n, -d.fraction);
}

function decimalSql(value: Decimal, d: Digits): string {
  return `CAST('${decimalToString(value)}' AS ${decimalType(d)})`;
}

const FLIPPED: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '=': '=', '<>': '<>' };

/**
 * `x op literal` with the literal in x's own DECIMAL. A literal finer than x's numbers is
 * rounded the way that keeps the answer (x > 0.0000000005 is x > 0 for numbers of 2 decimal
 * places), and one past x's range is clamped to its largest value; equality with a value x
 * cannot hold is false (NULL stays NULL).
 */
function fitted(op: string, x: string, text: string, d: Digits): string {
  const value = parseDecimalText(text)!;
  const top = largest(d);
  const bottom = makeDecimal(-top.coef, top.exp);
  if (compareDecimals(value, top) > 0)
    return ['>', '>=', '='].includes(op)
      ? `(${x} > ${decimalSql(top, d)})`
      : `(${x} <= ${decimalSql(top, d)})`;
  if (compareDecimals(value, bottom) < 0)
    return ['<', '<=', '='].includes(op)
      ? `(${x} < ${decimalSql(bottom, d)})`
      : `(${x} >= ${decimalSql(bottom, d)})`;
  const low = roundDecimal(value, d.fraction, 'floor');
  const high = roundDecimal(value, d.fraction, 'ceil');
  if (compareDecimals(low, high) === 0) return `(${x} ${op} ${decimalSql(low, d)})`;
  switch (op) {
    case '>':
    case '<=':
      return `(${x} ${op} ${decimalSql(low, d)})`;
    case '>=':
    case '<':
      return `(${x} ${op} ${decimalSql(high, d)})`;
    case '=':
      return `(${x} <> ${x})`;
    default:
      return `(${x} = ${x})`;
  }
}

/** Two numbers compared: a literal fitted to the other side, or both in a DECIMAL that holds them. */
export function compareNumberValues(op: string, left: Typed, right: Typed, what: string): string {
  const l = digitsOf(left);
  const r = digitsOf(right);
  const literalOf = (t: Typed): string | undefined => (t.kind === 'val' ? t.literal : undefined);
  const [ll, rl] = [literalOf(left), literalOf(right)];
  if (rl !== undefined && l && ll === undefined) return fitted(op, asType(left, 'N'), rl, l);
  if (ll !== undefined && r && rl === undefined) return fitted(FLIPPED[op]!, asType(right, 'N'), ll, r);
  if (l && r) common(l, r, what);
  return `(${asType(left, 'N')} ${op} ${asType(right, 'N')})`;
}

/** Trino compares and combines two DECIMALs in one that holds both; past 38 digits it overflows. */
function common(l: Digits, r: Digits, what: string): Digits {
  const d = { integer: Math.max(l.integer, r.integer), fraction: Math.max(l.fraction, r.fraction) };
  if (width(d) > MAX_DECIMAL_DIGITS)
    refuse(
      `the expression ${what}`,
      `one side has numbers of ${l.integer} digits before the point and ${l.fraction} after, the other ${r.integer} and ${r.fraction}, and Athena would put both in one DECIMAL of ${width(d)} digits, past its ${MAX_DECIMAL_DIGITS}`,
    );
  return d;
}

/** +, - and *: exact in Trino while the result's digits fit in 38; refused where they might not. */
export function arithmetic(op: string, left: Typed, right: Typed, what: string): Typed {
  const l = digitsOf(left);
  const r = digitsOf(right);
  const sql = `(${asType(left, 'N')} ${op} ${asType(right, 'N')})`;
  if (!l || !r) return val(sql, 'N');
  const d =
    op === '*'
      ? { integer: l.integer + r.integer, fraction: l.fraction + r.fraction }
      : { integer: Math.max(l.integer, r.integer) + 1, fraction: Math.max(l.fraction, r.fraction) };
  if (width(d) > MAX_DECIMAL_DIGITS)
    refuse(
      `the expression ${what}`,
      `its result can need ${d.integer} digits before the point and ${d.fraction} after, past the ${MAX_DECIMAL_DIGITS} digits of Athena's DECIMAL`,
    );
  return val(sql, 'N', d);
}

/**
 * SUM: Trino sums a DECIMAL(p, s) in a DECIMAL(38, s) and fails the query past it. `count`
 * numbers of `d`'s digits sum to at most digits(count) more before the point.
 */
export function sumDigits(d: Digits, count: number, what: string): Digits {
  const sum = { integer: d.integer + String(count).length, fraction: d.fraction };
  if (width(sum) > MAX_DECIMAL_DIGITS)
    refuse(
      `the expression ${what}`,
      `${count.toLocaleString('en-US')} numbers of up to ${d.integer} digits before the point and ${d.fraction} after can sum past the ${MAX_DECIMAL_DIGITS} digits of Athena's DECIMAL`,
    );
  return sum;
}

/**
 * a / b when both sides' digits are known. Trino divides DECIMALs to the larger of their two
 * scales, so DECIMAL(2, 0) / DECIMAL(2, 0) would round 7 / 2 to 4: the dividend is cast to the
 * most places that still hold the largest quotient (a's whole digits plus b's places), and the
 * quotient is rounded there (locally: 38 significant digits), which the notes say. A divisor
 * of zero is NULL, as locally, not a failed query.
 */
export function division(left: Typed, right: Typed, what: string): Typed | undefined {
  const l = digitsOf(left);
  const r = digitsOf(right);
  if (!l || !r) return undefined;
  const places = MAX_DECIMAL_DIGITS - l.integer - r.fraction;
  if (places < r.fraction || places < l.fraction)
    refuse(
      `the expression ${what}`,
      `its quotient can need ${l.integer + r.fraction} digits before the point and ${Math.max(l.fraction, r.fraction)} after, past the ${MAX_DECIMAL_DIGITS} digits of Athena's DECIMAL`,
    );
  return val(
    `(CAST(${asType(left, 'N')} AS DECIMAL(38, ${places})) / NULLIF(${asType(right, 'N')}, 0))`,
    'N',
    { integer: l.integer + r.fraction, fraction: places },
  );
}
