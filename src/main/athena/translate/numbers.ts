import {
  compareDecimals,
  type Decimal,
  decimalToString,
  makeDecimal,
  parseDecimalText,
  pow10Big,
  roundDecimal,
} from '../../sql/values/decimal';
import { type NumberRange, numberDigits } from '../export-schema';
import { refuse } from './refuse';
import { canonicalLiteral, compareKeyToLiteral } from './number-text';
import {
  asType,
  carriesText,
  decimalType,
  type Digits,
  digitsOf,
  MAX_DECIMAL_DIGITS,
  numberText,
  type Typed,
  val,
} from './typed';

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

/**
 * Two numbers compared where one is carried as text (number-text.ts): `=` and `<>` against a
 * literal compare canonical texts, anything else their sort keys (the other side's from its own
 * text, so a DECIMAL column or a computed number compares exactly too).
 */
function compareAsText(op: string, left: Typed, right: Typed): string {
  const [x, other, o] = carriesText(left) ? [left, right, op] : [right, left, FLIPPED[op]!];
  const literal = other.kind === 'val' ? other.literal : undefined;
  const mine = numberText(x);
  if (literal === undefined) return `(${mine.key} ${o} ${numberText(other).key})`;
  if (o === '=' || o === '<>') return `(${mine.canonical} ${o} ${canonicalLiteral(literal)})`;
  return compareKeyToLiteral(mine.key, o, literal);
}

/** Two numbers compared: a literal fitted to the other side, or both in a DECIMAL that holds them. */
export function compareNumberValues(op: string, left: Typed, right: Typed, what: string): string {
  if (carriesText(left) || carriesText(right)) return compareAsText(op, left, right);
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
 * 1 / d exactly, when d is `c × 10^e` with c made of 2s and 5s only (2, 4, 0.5, 100, 1.25):
 * then every quotient by d ends, and x / d is x times this reciprocal (x / 4 is x * 0.25).
 * Any other divisor (3, or a column) can give a quotient that never ends.
 */
function exactReciprocal(text: string): string | undefined {
  const value = parseDecimalText(text);
  if (!value || value.coef === 0n) return undefined;
  let c = value.coef < 0n ? -value.coef : value.coef;
  let shift = value.exp;
  while (c % 10n === 0n) {
    c /= 10n;
    shift += 1;
  }
  let k = 0;
  let power = 1n;
  while (power % c !== 0n && k <= 200) {
    power *= 10n;
    k += 1;
  }
  if (power % c !== 0n) return undefined;
  const coef = power / c;
  return decimalToString(makeDecimal(value.coef < 0n ? -coef : coef, -k - shift));
}

const QUOTIENT_WHY =
  'the local engine gives a quotient 38 significant digits, so one with fewer digits before the point gets more places after it, while Athena divides every row to one fixed number of places, so a quotient that does not end there (1 / 3) would read differently. Dividing by a number literal made of 2s and 5s (2, 4, 0.5, 100) is exact on both';

/**
 * a / b, exactly or not at all. Trino divides DECIMALs to the larger of the two scales and
 * rounds half up; the local engine gives 38 significant digits, half to even. They agree on
 * every row only where every quotient ends: a divisor literal made of 2s and 5s, which is
 * written as a multiplication by its exact reciprocal (`total / 4` is `total * 0.25`, exact in
 * Trino's DECIMAL and checked against 38 digits as any product is). Any other divisor is
 * refused with the reason. A divisor of zero is NULL, as locally.
 */
export function division(left: Typed, right: Typed, what: string): Typed {
  const literal = right.kind === 'val' ? right.literal : undefined;
  if (literal !== undefined && parseDecimalText(literal)?.coef === 0n)
    return val('CAST(NULL AS DECIMAL(1, 0))', 'N');
  const reciprocal = literal === undefined ? undefined : exactReciprocal(literal);
  if (reciprocal === undefined) return refuse(`the expression ${what}`, QUOTIENT_WHY);
  return arithmetic('*', left, numberLiteral(reciprocal), what);
}

/**
 * AVG(x), exactly or not at all. Trino's AVG of a DECIMAL keeps its scale and rounds half up;
 * the local engine gives 38 significant digits, half to even. They agree on every group when
 * every number of x has the same count `w` of digits before the point and one sign (so every
 * average has them too), x is cast to DECIMAL(38, 38 - w), and no average ends exactly half
 * way past that place: an average of numbers with `f` places over n of them ends within
 * f + log2(n) places, so that is checked against the export's count of numbers.
 */
export function averageDigits(range: NumberRange | undefined, what: string): Digits {
  if (!range)
    return refuse(
      what,
      "the local engine gives an average 38 significant digits and Athena a fixed number of places, and only the export's own numbers of an attribute tell whether the two agree; the average of a computed value is not known to",
    );
  const low = numberDigits(range.min).integer;
  const high = numberDigits(range.max).integer;
  const oneSign =
    compareDecimals(parseDecimalText(range.min)!, makeDecimal(0n, 0)) > 0 ||
    compareDecimals(parseDecimalText(range.max)!, makeDecimal(0n, 0)) < 0;
  if (!oneSign || low !== high || low === 0)
    refuse(
      what,
      `its numbers run from ${range.min} to ${range.max}; the local engine gives an average 38 significant digits, so one with fewer digits before the point gets more places after it, while Athena averages every group to one fixed number of places. AVG is exact on Athena over numbers of one sign that all have the same number of digits (at least one) before the point`,
    );
  const places = MAX_DECIMAL_DIGITS - low;
  if (places + 1 - range.fraction <= Math.log2(range.count))
    refuse(
      what,
      `an average of ${range.count.toLocaleString('en-US')} numbers with ${range.fraction} decimal places can end exactly half way past the ${places}th place, which Athena rounds up and the local engine to even`,
    );
  return { integer: low, fraction: places };
}
