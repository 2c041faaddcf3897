import type { Buffer } from 'node:buffer';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** A response body that is not what DynamoDB sends; `name` is what toAppError reads (no import across the worker's boundary). */
export class WireFormatError extends Error {
  override readonly name = 'WireFormatError';
}

/**
 * The JSON scanning under wire-encoder.ts: a position in a DynamoDB response body and the
 * byte-level steps over it (expect a byte, find a string's end, skip a value), with errors
 * that name the byte where the body stopped being what DynamoDB sends.
 */
export class WireCursor {
  protected pos = 0;
  /** Whether the string stringEnd() just found has escapes. */
  protected escaped = false;
  /** Where the next backslash at or after the last long string's start is (Infinity: none). */
  private nextSlash = -1;

  constructor(protected readonly body: Buffer) {}

  protected fail(what: string): never {
    throw new WireFormatError(`Unexpected DynamoDB response at byte ${this.pos}: ${what}.`);
  }

  protected skipSpace(): void {
    const body = this.body;
    let c = body[this.pos];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = body[++this.pos];
  }

  protected expect(byte: number): void {
    // DynamoDB sends compact JSON: check the byte first, skip whitespace only when it is not there.
    if (this.body[this.pos] === byte) {
      this.pos++;
      return;
    }
    this.skipSpace();
    if (this.body[this.pos] !== byte) this.fail(`expected "${String.fromCharCode(byte)}"`);
    this.pos++;
  }

  /** After a member or element: true at the closing byte, false after a comma. */
  protected next(close: number): boolean {
    let c = this.body[this.pos++];
    if (c !== COMMA && c !== close) {
      this.pos--;
      this.skipSpace();
      c = this.body[this.pos++];
    }
    if (c === close) return true;
    if (c !== COMMA) this.fail(`expected "," or "${String.fromCharCode(close)}"`);
    return false;
  }

  /** After an opening byte: true (and consumed) when the container is empty. */
  protected isEmpty(close: number): boolean {
    if (this.body[this.pos] !== close) {
      this.skipSpace();
      if (this.body[this.pos] !== close) return false;
    }
    this.pos++;
    return true;
  }

  /**
   * Finds the end of a string starting after its opening quote; sets `escaped` when it has
   * escapes (a field, not a returned pair: this runs for every string of every item).
   */
  protected stringEnd(): number {
    const body = this.body;
    let i = this.pos;
    this.escaped = false;
    // Short strings (ids, enums, numbers): a JS loop. Long ones: native memchr via indexOf.
    for (const stop = Math.min(body.length, i + 32); i < stop; i++) {
      const c = body[i];
      if (c === QUOTE) return i;
      if (c === BACKSLASH) return this.escapedEnd(i);
    }
    const end = body.indexOf(QUOTE, i);
    if (end < 0) this.fail('unterminated string');
    // The body's next backslash, found once and kept until passed: a view per long string to
    // search only within it cost an allocation each, and most bodies have no backslash at all.
    if (this.nextSlash < i) {
      const slash = body.indexOf(BACKSLASH, i);
      this.nextSlash = slash < 0 ? Infinity : slash;
    }
    return this.nextSlash < end ? this.escapedEnd(this.nextSlash) : end;
  }

  protected escapedEnd(from: number): number {
    const body = this.body;
    let i = from;
    this.escaped = true;
    for (;;) {
      const c = body[i];
      if (c === undefined) this.fail('unterminated string');
      if (c === QUOTE) return i;
      i += c === BACKSLASH ? 2 : 1;
    }
  }

  /** Reads a JSON string as a JS string (names, type tags, binary). */
  protected text(): string {
    this.expect(QUOTE);
    const end = this.stringEnd();
    const value = this.escaped ? this.escapedText(this.pos, end) : this.body.toString('utf8', this.pos, end);
    this.pos = end + 1;
    return value;
  }

  /**
   * The string between the quotes at start - 1 and end, escapes and all. A malformed escape
   * (`\x`, a cut `\u12`) is the answer's fault: a WireFormatError naming the bytes, never a bare
   * SyntaxError, which would read as a defect of DynoTable.
   */
  protected escapedText(start: number, end: number): string {
    try {
      return JSON.parse(this.body.toString('utf8', start - 1, end + 1)) as string;
    } catch (error) {
      throw new WireFormatError(
        `Unexpected DynamoDB response between bytes ${start - 1} and ${end + 1}: a string's escape is not valid JSON (${(error as Error).message}).`,
      );
    }
  }

  /**
   * A response member's value other than Items (Count, LastEvaluatedKey, ConsumedCapacity, …),
   * parsed. Bytes that are not JSON are the answer's fault, not ours: a WireFormatError naming
   * them, which nothing retries (a SyntaxError read as a defect of DynoTable).
   */
  protected memberValue(): unknown {
    const [start, end] = this.skipValue();
    try {
      return JSON.parse(this.body.toString('utf8', start, end)) as unknown;
    } catch (error) {
      throw new WireFormatError(
        `Unexpected DynamoDB response between bytes ${start} and ${end}: a member's value is not valid JSON (${(error as Error).message}).`,
      );
    }
  }

  /** Skips any JSON value; returns its raw text span (ending at the delimiter after it). */
  protected skipValue(): [number, number] {
    this.skipSpace();
    const start = this.pos;
    const body = this.body;
    let depth = 0;
    for (;;) {
      const c = body[this.pos];
      if (c === undefined) this.fail('the body ends inside a value');
      if (c === QUOTE) {
        this.pos++;
        this.pos = this.stringEnd() + 1;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth++;
        this.pos++;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (depth === 0) return [start, this.pos];
        depth--;
        this.pos++;
      } else if (c === COMMA && depth === 0) return [start, this.pos];
      else this.pos++;
    }
  }
}
