import { AppFailure } from '../../../shared/errors';

export const SqlErrorCodes = {
  syntax: 'SqlSyntaxError',
  /** Unknown table or column, ambiguous names, misuse of aggregates. */
  semantic: 'SqlError',
  /** Anything but SELECT: the workbench never writes. */
  readOnly: 'SqlReadOnly',
  unsupported: 'SqlUnsupported',
} as const;

export interface SourceSpan {
  /** Offset of the first character (0-based, UTF-16 units) and the length of the span. */
  start: number;
  end: number;
}

/** Line and column (both 1-based) of an offset in the statement text. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * A mistake in the statement, with where it is: the message says "line 2, column 14" and the
 * details carry offset/length so the editor can underline it.
 */
export class SqlError extends AppFailure {
  constructor(code: string, message: string, text: string, span: SourceSpan) {
    const { line, column } = lineColumn(text, span.start);
    super(code, `${message} (line ${line}, column ${column})`, false, {
      line,
      column,
      offset: span.start,
      length: Math.max(1, span.end - span.start),
      reason: message,
    });
  }
}
