import { Buffer } from 'node:buffer';
import type { ByteWriter, NameDictionary } from '../../resultsets/item-codec';

/**
 * Encodes the Items of a Query/Scan response straight from its HTTP body bytes into the
 * result-set store's binary form (item-codec.ts), without building a JS object per value.
 * DynamoDB's wire JSON already is the tagged form ({"N":"1.50"}, {"B":"<base64>"}), so string
 * bytes are copied as they are; only names, escaped strings and binary make JS strings. This
 * keeps a million-row scan's client CPU near a plain JSON.parse of the same bytes.
 */
const Tag = { S: 0, N: 1, B: 2, True: 3, False: 4, Null: 5, L: 6, M: 7, SS: 8, NS: 9, BS: 10 } as const;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

export class WireFormatError extends Error {}

export interface PageMeta {
  /** Raw JSON of every top-level field except Items (Count, LastEvaluatedKey, ConsumedCapacity, …). */
  rest: Record<string, unknown>;
  items: number;
}

interface Out {
  writer: ByteWriter;
  names: NameDictionary;
}

export class WireEncoder {
  private pos = 0;
  /** Whether the string stringEnd() just found has escapes. */
  private escaped = false;
  /** Attribute names by a hash of their bytes, so a repeated name never becomes a JS string again. */
  private readonly nameCache = new Map<number, { bytes: Uint8Array; id: number }[]>();
  /** Each cached name's bytes, by name id. */
  private readonly nameBytes: Uint8Array[] = [];
  /** The name id seen next in each slot last time (see members()). */
  private readonly follows: number[] = [];

  constructor(
    private readonly body: Buffer,
    private readonly out: Out,
  ) {}

  private fail(what: string): never {
    throw new WireFormatError(`Unexpected DynamoDB response at byte ${this.pos}: ${what}.`);
  }

  private skipSpace(): void {
    const body = this.body;
    let c = body[this.pos];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = body[++this.pos];
  }

  private expect(byte: number): void {
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
  private next(close: number): boolean {
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
  private isEmpty(close: number): boolean {
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
  private stringEnd(): number {
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
    const slash = body.subarray(i, end).indexOf(BACKSLASH);
    return slash < 0 ? end : this.escapedEnd(i + slash);
  }

  private escapedEnd(from: number): number {
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
  private text(): string {
    this.expect(QUOTE);
    const end = this.stringEnd();
    const value = this.escaped
      ? (JSON.parse(this.body.toString('utf8', this.pos - 1, end + 1)) as string)
      : this.body.toString('utf8', this.pos, end);
    this.pos = end + 1;
    return value;
  }

  /** Writes a JSON string's UTF-8 bytes with a varint length, copying them when unescaped. */
  private copyString(): void {
    this.expect(QUOTE);
    const end = this.stringEnd();
    if (this.escaped) {
      const value = JSON.parse(this.body.toString('utf8', this.pos - 1, end + 1)) as string;
      this.out.writer.string(value, 'utf8');
    } else {
      const size = end - this.pos;
      const writer = this.out.writer;
      writer.varint(size);
      if (size > 24) writer.raw(this.body, this.pos, end);
      else {
        // A JS loop beats a native copy call for short strings (ids, enums, numbers).
        writer.ensure(size);
        const target = writer.buffer;
        const body = this.body;
        let at = writer.length;
        for (let k = this.pos; k < end; k++) target[at++] = body[k] ?? 0;
        writer.length = at;
      }
    }
    this.pos = end + 1;
  }

  /**
   * The id of the member name at pos. Items of a page mostly repeat their attributes in the same
   * order, so the name that came next last time (`slot`, see members()) is tried first with a
   * plain byte compare; only a miss hashes the bytes and looks them up.
   */
  private name(slot: number): number {
    this.expect(QUOTE);
    const body = this.body;
    const start = this.pos;
    const guess = this.follows[slot];
    if (guess !== undefined) {
      const bytes = this.nameBytes[guess];
      if (bytes && body[start + bytes.length] === QUOTE) {
        let k = 0;
        while (k < bytes.length && bytes[k] === body[start + k]) k++;
        if (k === bytes.length) {
          this.pos = start + k + 1;
          return guess;
        }
      }
    }
    const id = this.lookupName(start);
    this.follows[slot] = id;
    return id;
  }

  private lookupName(start: number): number {
    const body = this.body;
    let hash = 0x811c9dc5;
    let i = start;
    for (;;) {
      const c = body[i];
      if (c === undefined) this.fail('unterminated name');
      if (c === QUOTE) break;
      if (c === BACKSLASH) return this.escapedName(start);
      hash = Math.imul(hash ^ c, 0x01000193);
      i++;
    }
    this.pos = i + 1;
    const length = i - start;
    const candidates = this.nameCache.get(hash);
    if (candidates) {
      for (const candidate of candidates) {
        if (candidate.bytes.length !== length) continue;
        let same = true;
        for (let k = 0; k < length; k++) {
          if (candidate.bytes[k] !== body[start + k]) {
            same = false;
            break;
          }
        }
        if (same) return candidate.id;
      }
    }
    const id = this.out.names.id(body.toString('utf8', start, i));
    const entry = { bytes: new Uint8Array(body.subarray(start, i)), id };
    this.nameBytes[id] = entry.bytes;
    if (candidates) candidates.push(entry);
    else this.nameCache.set(hash, [entry]);
    return id;
  }

  private escapedName(start: number): number {
    this.pos = start;
    const end = this.stringEnd();
    const name = JSON.parse(this.body.toString('utf8', start - 1, end + 1)) as string;
    this.pos = end + 1;
    return this.out.names.id(name);
  }

  /** The type tag of a value ({"S": …}), read from its bytes. */
  private typeTag(): string {
    this.expect(QUOTE);
    const body = this.body;
    const p = this.pos;
    const a = body[p];
    const b = body[p + 1];
    let tag: string | undefined;
    let length = 1;
    if (b === QUOTE)
      tag =
        a === 0x53
          ? 'S'
          : a === 0x4e
            ? 'N'
            : a === 0x42
              ? 'B'
              : a === 0x4c
                ? 'L'
                : a === 0x4d
                  ? 'M'
                  : undefined;
    else if (body[p + 2] === QUOTE && b === 0x53) {
      length = 2;
      tag = a === 0x53 ? 'SS' : a === 0x4e ? 'NS' : a === 0x42 ? 'BS' : undefined;
    } else if (body[p + 4] === QUOTE) {
      length = 4;
      const word = body.toString('latin1', p, p + 4);
      tag = word === 'BOOL' || word === 'NULL' ? word : undefined;
    }
    if (tag === undefined) {
      const end = this.stringEnd();
      this.fail(`unknown type "${body.toString('utf8', p, end)}"`);
    }
    this.pos = p + length + 1;
    return tag;
  }

  /** Reserves one byte for a count that is only known at the end (patchVarint widens it if needed). */
  private reserveCount(): number {
    const writer = this.out.writer;
    const at = writer.length;
    writer.byte(0);
    return at;
  }

  /**
   * A map's members: name id, then value; returns the top-level name ids when asked. `parent`
   * is the name id of the attribute holding the map (-1 for an item), so each member's
   * prediction slot is "first in a map under parent" or "right after name X".
   */
  private members(parent: number, names?: number[]): void {
    const writer = this.out.writer;
    const at = this.reserveCount();
    let count = 0;
    this.expect(OPEN_BRACE);
    if (!this.isEmpty(CLOSE_BRACE)) {
      let slot = 2 * parent + 3;
      do {
        const id = this.name(slot);
        slot = 2 * id + 2;
        this.expect(COLON);
        writer.varint(id);
        names?.push(id);
        this.value(id);
        count++;
      } while (!this.next(CLOSE_BRACE));
    }
    writer.patchVarint(at, count);
  }

  private elements(kind: 'value' | 'string' | 'binary', parent = -1): void {
    const writer = this.out.writer;
    const at = this.reserveCount();
    let count = 0;
    this.expect(OPEN_BRACKET);
    if (!this.isEmpty(CLOSE_BRACKET)) {
      do {
        if (kind === 'value') this.value(parent);
        else if (kind === 'string') this.copyString();
        else writer.bytes(this.text());
        count++;
      } while (!this.next(CLOSE_BRACKET));
    }
    writer.patchVarint(at, count);
  }

  /** One tagged value; `parent` is the name id of the attribute it belongs to. */
  private value(parent: number): void {
    const writer = this.out.writer;
    this.expect(OPEN_BRACE);
    const type = this.typeTag();
    this.expect(COLON);
    switch (type) {
      case 'S':
        writer.byte(Tag.S);
        this.copyString();
        break;
      case 'N':
        writer.byte(Tag.N);
        this.copyString();
        break;
      case 'B':
        writer.byte(Tag.B);
        writer.bytes(this.text());
        break;
      case 'BOOL': {
        this.skipSpace();
        const isTrue = this.body[this.pos] === 0x74;
        this.pos += isTrue ? 4 : 5;
        writer.byte(isTrue ? Tag.True : Tag.False);
        break;
      }
      case 'NULL':
        this.skipSpace();
        this.pos += 4;
        writer.byte(Tag.Null);
        break;
      case 'L':
        writer.byte(Tag.L);
        this.elements('value', parent);
        break;
      case 'M':
        writer.byte(Tag.M);
        this.members(parent);
        break;
      case 'SS':
      case 'NS':
        writer.byte(type === 'SS' ? Tag.SS : Tag.NS);
        this.elements('string');
        break;
      case 'BS':
        writer.byte(Tag.BS);
        this.elements('binary');
        break;
      default:
        this.fail(`unknown type "${type}"`);
    }
    this.expect(CLOSE_BRACE);
  }

  /** Skips any JSON value; returns its raw text span (ending at the delimiter after it). */
  private skipValue(): [number, number] {
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

  /** Walks the response: each item of Items goes to `onItem` (encoded in out.writer); the rest is returned parsed. */
  page(onItem: (topLevelNames: number[]) => void): PageMeta {
    const rest: Record<string, unknown> = {};
    let items = 0;
    this.expect(OPEN_BRACE);
    if (this.isEmpty(CLOSE_BRACE)) return { rest, items };
    do {
      const key = this.text();
      this.expect(COLON);
      if (key !== 'Items') {
        const [start, end] = this.skipValue();
        rest[key] = JSON.parse(this.body.toString('utf8', start, end));
        continue;
      }
      this.expect(OPEN_BRACKET);
      if (this.isEmpty(CLOSE_BRACKET)) continue;
      do {
        this.out.writer.reset();
        const names: number[] = [];
        this.members(-1, names);
        onItem(names);
        items++;
      } while (!this.next(CLOSE_BRACKET));
    } while (!this.next(CLOSE_BRACE));
    return { rest, items };
  }
}

export function encodeWirePage(body: Buffer, out: Out, onItem: (topLevelNames: number[]) => void): PageMeta {
  return new WireEncoder(Buffer.isBuffer(body) ? body : Buffer.from(body), out).page(onItem);
}
