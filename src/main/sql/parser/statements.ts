import { type Token, tokenize } from './lexer';
import { AppFailure } from '../../../shared/errors';
import { SqlError } from './sql-error';

/** One statement of a script: its text and where it stands in the script. */
export interface ScriptStatement {
  text: string;
  /** Offset of the statement's first token in the script. */
  start: number;
}

/**
 * The statements of a script, split at the `;` the lexer finds: a `;` inside a string, a quoted
 * name or a comment ends nothing. A piece with no token (blank, or only comments) is no
 * statement. A script that does not lex (a string never closed) is refused whole, with its
 * position, since where its statements end is then unknown.
 */
export function splitStatements(script: string): ScriptStatement[] {
  const statements: ScriptStatement[] = [];
  let first: Token | undefined;
  let last: Token | undefined;
  for (const token of tokenize(script)) {
    if (token.kind === 'eof' || (token.kind === 'op' && token.text === ';')) {
      if (first && last) statements.push({ text: script.slice(first.start, last.end), start: first.start });
      first = undefined;
    } else {
      first ??= token;
      last = token;
    }
  }
  return statements;
}

/**
 * A statement's SqlError with its position (line, column) in the whole script instead. Also one
 * that crossed from the SQL worker, an AppFailure by then, whose details still say where.
 */
export function inScript(error: unknown, script: string, statement: ScriptStatement): unknown {
  if (!(error instanceof AppFailure)) return error;
  const { offset, length, reason } = (error.details ?? {}) as {
    offset?: unknown;
    length?: unknown;
    reason?: unknown;
  };
  if (typeof offset !== 'number' || typeof length !== 'number' || typeof reason !== 'string') return error;
  const start = statement.start + offset;
  return new SqlError(error.code, reason, script, { start, end: start + length });
}
