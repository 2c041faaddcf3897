import { canonicalNumber, parseDecimal } from '../../../shared/dynamo/number';
import { decimalToString, parseDecimalText, roundDecimal } from '../../sql/values/decimal';
import { lit } from '../glue-names';

/**
 * Numbers no DECIMAL holds (1E-130 and 9.99E+125 in one attribute need 256 digits), carried as
 * the export's text and compared exactly by two values Trino computes from that text with string
 * functions alone:
 *
 * - the canonical text, `canonicalNumber`'s spelling (`-0.123e5`; `0` for zero): one per number
 *   whatever the text's spelling (DynamoDB JSON's plain `0.00…01`, Ion's `1d-130`, `123.`,
 *   `1.50`), so `=`, `<>`, IN, GROUP BY, DISTINCT and COUNT(DISTINCT) compare it as text;
 * - the sort key `ROW(sign, sign × exponent, sign × mantissa)`, the mantissa a DECIMAL(38, 37)
 *   (`d.ddd…`, DynamoDB's 38 significant digits exactly), which Trino compares field by field:
 *   the sign first, then the exponent (for negatives a larger one is smaller), then the digits.
 *   `<`, BETWEEN, ORDER BY, MIN and MAX (as `min_by`/`max_by` of the text) use it.
 *
 * Every capturing group below takes part in every match of any number text (an empty group is
 * '', never NULL), so Trino's NULL for a group that does not take part never arises; patterns
 * use character classes, never backslashes, so Trino's and RE2's dialects read them alike.
 */
const whole = (t: string): string => `regexp_extract(${t}, '^[-+]?([0-9]*)', 1)`;
const fraction = (t: string): string => `regexp_extract(${t}, '^[-+]?[0-9]*[.]?([0-9]*)', 1)`;
/** The appended `e0` gives text with no exponent one of 0; the first match is the text's own. */
const exponentPart = (t: string): string =>
  `CAST(regexp_extract(${t} || 'e0', '[eEdD][+]?(-?[0-9]+)', 1) AS BIGINT)`;
const allDigits = (t: string): string => `(${whole(t)} || ${fraction(t)})`;
/** From the first significant digit on. */
const significant = (t: string): string => `regexp_replace(${allDigits(t)}, '^0+', '')`;
/** The significant digits without trailing zeros: '' for zero. */
const mantissa = (t: string): string => `regexp_replace(${significant(t)}, '0+$', '')`;
/** The scientific exponent of the first significant digit (d.ddd × 10^e). */
const exponent = (t: string): string =>
  `(${exponentPart(t)} + length(${whole(t)}) - length(${allDigits(t)}) + length(${significant(t)}) - 1)`;
const negative = (t: string): string => `starts_with(${t}, '-')`;

/** The canonical text of a number's text, in SQL; NULL stays NULL. */
export function canonicalSql(text: string): string {
  const m = mantissa(text);
  return `(CASE WHEN ${m} = '' THEN '0' ELSE IF(${negative(text)}, '-', '') || '0.' || ${m} || 'e' || CAST(${exponent(text)} + 1 AS VARCHAR) END)`;
}

const KEY_ZERO = 'ROW(0, CAST(0 AS BIGINT), CAST(0 AS DECIMAL(38, 37)))';

/** The sort key of a number's text, in SQL; NULL (not a ROW of NULLs) where the text is NULL. */
export function sortKeySql(text: string): string {
  const m = mantissa(text);
  const padded = `rpad(${m}, 38, '0')`;
  const neg = negative(text);
  const digits = `CAST(IF(${neg}, '-', '') || substr(${padded}, 1, 1) || '.' || substr(${padded}, 2) AS DECIMAL(38, 37))`;
  return `(CASE WHEN ${text} IS NULL THEN NULL WHEN ${m} = '' THEN ${KEY_ZERO} ELSE ROW(IF(${neg}, -1, 1), IF(${neg}, -${exponent(text)}, ${exponent(text)}), ${digits}) END)`;
}

/** A number literal's canonical text, as a string literal. */
export function canonicalLiteral(text: string): string {
  return lit(canonicalNumber(text));
}

function keyOfParts(text: string): string {
  const parts = parseDecimal(text);
  if (!parts || parts.digits === '') return KEY_ZERO;
  const sign = parts.negative ? -1 : 1;
  const padded = parts.digits.padEnd(38, '0');
  return `ROW(${sign}, CAST(${sign * parts.exponent} AS BIGINT), CAST('${parts.negative ? '-' : ''}${padded[0]}.${padded.slice(1)}' AS DECIMAL(38, 37)))`;
}

/**
 * `key op literal` with the literal's sort key. A literal of more than DynamoDB's 38 significant
 * digits lies between two numbers of 38: it is rounded the way that keeps the answer, as a
 * DECIMAL column fits its literals (down for `>` and `<=`, up for `>=` and `<`); no stored
 * number equals it (NULL stays NULL).
 */
export function compareKeyToLiteral(key: string, op: string, text: string): string {
  const parts = parseDecimal(text);
  if (!parts || parts.digits.length <= 38) return `(${key} ${op} ${keyOfParts(text)})`;
  if (op === '=') return `(${key} <> ${key})`;
  if (op === '<>') return `(${key} = ${key})`;
  const places = 37 - parts.exponent;
  const mode = op === '>' || op === '<=' ? 'floor' : 'ceil';
  const rounded = decimalToString(roundDecimal(parseDecimalText(text)!, places, mode));
  return `(${key} ${op} ${keyOfParts(rounded)})`;
}
