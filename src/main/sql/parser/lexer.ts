import { SqlError, SqlErrorCodes } from './sql-error';

export type TokenKind = 'ident' | 'quoted' | 'string' | 'number' | 'op' | 'eof';

export interface Token {
  kind: TokenKind;
  /** Identifier/keyword text as written, the unescaped content of quotes, or the operator. */
  text: string;
  /** Upper-cased text of an unquoted identifier, to match keywords. */
  upper: string;
  start: number;
  end: number;
}

/**
 * The operator starting at `i`, longest first, or undefined. A switch on the character, not a
 * search of a list: `(`, `)`, `,` and `.` are most of a statement's operators, and a list tried in
 * order reached them after twenty failed comparisons each. `::`, `~` and `!~` are lexed only so
 * the parser can say those constructs are not supported.
 */
function operatorAt(text: string, i: number): string | undefined {
  // Past the end charCodeAt is NaN, and reading there costs optimised code a deoptimisation.
  const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
  switch (text.charCodeAt(i)) {
    case 58: // :
      return next === 58 ? '::' : undefined;
    case 33: // !
      return next === 126 ? '!~' : next === 61 ? '!=' : undefined;
    case 126:
      return '~';
    case 60: // <
      return next === 62 ? '<>' : next === 61 ? '<=' : '<';
    case 62: // >
      return next === 61 ? '>=' : '>';
    case 124: // |
      return next === 124 ? '||' : undefined;
    case 61:
      return '=';
    case 43:
      return '+';
    case 45:
      return '-';
    case 42:
      return '*';
    case 47:
      return '/';
    case 37:
      return '%';
    case 40:
      return '(';
    case 41:
      return ')';
    case 44:
      return ',';
    case 46:
      return '.';
    case 91:
      return '[';
    case 93:
      return ']';
    case 59:
      return ';';
    default:
      return undefined;
  }
}

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
}
function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57) || c === 36;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Splits a statement into tokens with their offsets; comments (-- and /* *\/) are skipped. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (message: string, start: number, end = start + 1): never => {
    throw new SqlError(SqlErrorCodes.syntax, message, text, { start, end });
  };
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      i += 1;
    } else if (c === 45 && text.charCodeAt(i + 1) === 45) {
      while (i < text.length && text.charCodeAt(i) !== 10) i += 1;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) fail('This comment is never closed with */', i, i + 2);
      i = close + 2;
    } else if (c === 39 || c === 34 || c === 96) {
      const quote = text[i]!;
      const start = i;
      let value = '';
      i += 1;
      for (;;) {
        // Up to the next quote in one slice; a doubled quote stands for one and goes on.
        const close = text.indexOf(quote, i);
        if (close < 0) {
          fail(
            quote === "'"
              ? "This string is never closed with a quote (')"
              : `This name is never closed with ${quote}`,
            start,
          );
        }
        value += text.slice(i, close);
        if (text[close + 1] === quote) {
          value += quote;
          i = close + 2;
          continue;
        }
        i = close + 1;
        break;
      }
      if (quote !== "'" && value === '') fail('A quoted name cannot be empty', start, i);
      tokens.push({ kind: quote === "'" ? 'string' : 'quoted', text: value, upper: '', start, end: i });
    } else if (isDigit(c) || (c === 46 && isDigit(text.charCodeAt(i + 1)))) {
      const start = i;
      while (isDigit(text.charCodeAt(i))) i += 1;
      if (text[i] === '.' && !isIdentStart(text.charCodeAt(i + 1))) {
        i += 1;
        while (isDigit(text.charCodeAt(i))) i += 1;
      }
      if (
        (text[i] === 'e' || text[i] === 'E') &&
        (isDigit(text.charCodeAt(i + 1)) ||
          ((text[i + 1] === '+' || text[i + 1] === '-') && isDigit(text.charCodeAt(i + 2))))
      ) {
        i += 2;
        while (isDigit(text.charCodeAt(i))) i += 1;
      }
      if (isIdentStart(text.charCodeAt(i)))
        fail('A number runs into a name here; add a space or quote the name', i);
      tokens.push({ kind: 'number', text: text.slice(start, i), upper: '', start, end: i });
    } else if (isIdentStart(c)) {
      const start = i;
      // Keywords are mostly written in capitals: then the word is its own upper case.
      let isUpper = true;
      while (i < text.length) {
        const d = text.charCodeAt(i);
        if (!isIdentPart(d)) break;
        if ((d >= 97 && d <= 122) || d > 127) isUpper = false;
        i += 1;
      }
      const word = text.slice(start, i);
      tokens.push({ kind: 'ident', text: word, upper: isUpper ? word : word.toUpperCase(), start, end: i });
    } else {
      const op = operatorAt(text, i) ?? fail(`Unexpected character "${text[i]}"`, i);
      tokens.push({ kind: 'op', text: op, upper: op, start: i, end: i + op.length });
      i += op.length;
    }
  }
  tokens.push({ kind: 'eof', text: '', upper: '', start: text.length, end: text.length });
  return tokens;
}
