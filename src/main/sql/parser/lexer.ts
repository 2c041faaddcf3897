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

// `::`, `~` and `!~` are lexed only so the parser can say those constructs are not supported.
const OPERATORS = [
  '::',
  '!~',
  '~',
  '<>',
  '!=',
  '<=',
  '>=',
  '||',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '(',
  ')',
  ',',
  '.',
  '[',
  ']',
  ';',
];

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
    } else if (text.startsWith('--', i)) {
      while (i < text.length && text.charCodeAt(i) !== 10) i += 1;
    } else if (text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) fail('This comment is never closed with */', i, i + 2);
      i = close + 2;
    } else if (c === 39 || c === 34 || c === 96) {
      const quote = text[i]!;
      const start = i;
      let value = '';
      i += 1;
      for (;;) {
        if (i >= text.length) {
          fail(
            quote === "'"
              ? "This string is never closed with a quote (')"
              : `This name is never closed with ${quote}`,
            start,
          );
        }
        if (text[i] === quote) {
          if (text[i + 1] === quote) {
            value += quote;
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        value += text.charAt(i);
        i += 1;
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
      while (i < text.length && isIdentPart(text.charCodeAt(i))) i += 1;
      const word = text.slice(start, i);
      tokens.push({ kind: 'ident', text: word, upper: word.toUpperCase(), start, end: i });
    } else {
      const op = OPERATORS.find((candidate) => text.startsWith(candidate, i));
      if (!op) fail(`Unexpected character "${text[i]}"`, i);
      tokens.push({ kind: 'op', text: op!, upper: op!, start: i, end: i + op!.length });
      i += op!.length;
    }
  }
  tokens.push({ kind: 'eof', text: '', upper: '', start: text.length, end: text.length });
  return tokens;
}
