import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import { defineOwn } from '../../shared/dynamo/proto-keys';

/**
 * A compact binary form for items held in the result-set store. Kept as tagged JS objects, a
 * 1 KB item costs several KB of V8 heap (hidden classes, one string per value, object headers),
 * and a million of them would exhaust the heap. Encoded here, an item costs about its DynamoDB
 * size: attribute names are interned per result set, binary stays raw bytes (not base64),
 * numbers stay their exact decimal strings.
 */
const Tag = { S: 0, N: 1, B: 2, True: 3, False: 4, Null: 5, L: 6, M: 7, SS: 8, NS: 9, BS: 10 } as const;

const EQUALS = 0x3d;
/** Each byte's base64 digit value (A–Z a–z 0–9 + /), 64 for anything else. */
const SEXTETS = new Uint8Array(256).fill(64);
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
for (let i = 0; i < DIGITS.length; i++) SEXTETS[DIGITS.charCodeAt(i)] = i;

/** Attribute names (at every depth) interned to small integers, per result set. */
export class NameDictionary {
  private readonly ids = new Map<string, number>();
  readonly names: string[] = [];

  id(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(name, id);
      this.names.push(name);
    }
    return id;
  }

  name(id: number): string {
    const name = this.names[id];
    if (name === undefined) throw new Error(`Corrupt result set: unknown attribute name #${id}.`);
    return name;
  }
}

/** A growable byte buffer: a scratch buffer reused for every item, or an arena's open block. */
export class ByteWriter {
  buffer: Buffer;
  length = 0;

  constructor(size = 64 * 1024) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  reset(): void {
    this.length = 0;
  }

  ensure(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }

  byte(value: number): void {
    this.ensure(1);
    this.buffer[this.length++] = value;
  }

  varint(value: number): void {
    this.ensure(5);
    let v = value;
    while (v >= 0x80) {
      this.buffer[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buffer[this.length++] = v;
  }

  string(value: string, encoding: 'utf8' | 'latin1'): void {
    const size = encoding === 'latin1' ? value.length : Buffer.byteLength(value, 'utf8');
    this.varint(size);
    this.ensure(size);
    this.length += this.buffer.write(value, this.length, size, encoding);
  }

  /** Copies source[start, end) as is (UTF-8 text straight from a response body). */
  raw(source: Buffer, start: number, end: number): void {
    this.ensure(end - start);
    this.length += source.copy(this.buffer, this.length, start, end);
  }

  /**
   * Writes `value` as the varint at `at`, where one byte was reserved before the count was
   * known; a count of 128 or more widens it, moving what follows.
   */
  patchVarint(at: number, value: number): void {
    let size = 1;
    for (let v = value; v >= 0x80; v >>>= 7) size++;
    if (size > 1) {
      this.ensure(size - 1);
      this.buffer.copyWithin(at + size, at + 1, this.length);
      this.length += size - 1;
    }
    let v = value;
    let i = at;
    while (v >= 0x80) {
      this.buffer[i++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buffer[i] = v;
  }

  /**
   * Decodes standard base64 text at source[start, end) (unescaped JSON string bytes) into a
   * varint length and the bytes, with no JS string or Buffer in between; false (nothing written)
   * when the text is not plain padded base64, for the caller to take the lenient path.
   */
  base64(source: Uint8Array, start: number, end: number): boolean {
    const length = end - start;
    if (length % 4 !== 0) return false;
    let padding = 0;
    if (length > 0 && source[end - 1] === EQUALS) padding = source[end - 2] === EQUALS ? 2 : 1;
    const size = (length / 4) * 3 - padding;
    const mark = this.length;
    this.varint(size);
    this.ensure(size);
    const out = this.buffer;
    let at = this.length;
    const last = end - (padding > 0 ? 4 : 0);
    let i = start;
    for (; i < last; i += 4) {
      const a = SEXTETS[source[i] ?? 0] ?? 64;
      const b = SEXTETS[source[i + 1] ?? 0] ?? 64;
      const c = SEXTETS[source[i + 2] ?? 0] ?? 64;
      const d = SEXTETS[source[i + 3] ?? 0] ?? 64;
      if ((a | b | c | d) & 64) break;
      out[at++] = (a << 2) | (b >>> 4);
      out[at++] = ((b & 0x0f) << 4) | (c >>> 2);
      out[at++] = ((c & 0x03) << 6) | d;
    }
    if (i < last) {
      this.length = mark;
      return false;
    }
    if (padding > 0) {
      const a = SEXTETS[source[i] ?? 0] ?? 64;
      const b = SEXTETS[source[i + 1] ?? 0] ?? 64;
      const c = padding === 1 ? (SEXTETS[source[i + 2] ?? 0] ?? 64) : 0;
      if ((a | b | c) & 64) {
        this.length = mark;
        return false;
      }
      out[at++] = (a << 2) | (b >>> 4);
      if (padding === 1) out[at++] = ((b & 0x0f) << 4) | (c >>> 2);
    }
    this.length = at;
    return true;
  }

  bytes(base64: string): void {
    const raw = Buffer.from(base64, 'base64');
    this.varint(raw.length);
    this.ensure(raw.length);
    raw.copy(this.buffer, this.length);
    this.length += raw.length;
  }
}

function encodeValue(value: AttributeValue, names: NameDictionary, out: ByteWriter): void {
  if ('S' in value) {
    out.byte(Tag.S);
    out.string(value.S, 'utf8');
  } else if ('N' in value) {
    out.byte(Tag.N);
    out.string(value.N, 'latin1');
  } else if ('B' in value) {
    out.byte(Tag.B);
    out.bytes(value.B);
  } else if ('BOOL' in value) {
    out.byte(value.BOOL ? Tag.True : Tag.False);
  } else if ('NULL' in value) {
    out.byte(Tag.Null);
  } else if ('L' in value) {
    out.byte(Tag.L);
    out.varint(value.L.length);
    for (const element of value.L) encodeValue(element, names, out);
  } else if ('M' in value) {
    out.byte(Tag.M);
    encodeMap(value.M, names, out);
  } else if ('SS' in value) {
    out.byte(Tag.SS);
    out.varint(value.SS.length);
    for (const s of value.SS) out.string(s, 'utf8');
  } else if ('NS' in value) {
    out.byte(Tag.NS);
    out.varint(value.NS.length);
    for (const n of value.NS) out.string(n, 'latin1');
  } else if ('BS' in value) {
    out.byte(Tag.BS);
    out.varint(value.BS.length);
    for (const b of value.BS) out.bytes(b);
  } else {
    throw new Error(`Unknown DynamoDB attribute value type: ${Object.keys(value).join(',')}`);
  }
}

function encodeMap(map: Record<string, AttributeValue>, names: NameDictionary, out: ByteWriter): void {
  const entries = Object.entries(map);
  out.varint(entries.length);
  for (const [name, value] of entries) {
    out.varint(names.id(name));
    encodeValue(value, names, out);
  }
}

/** Appends one item to `out`; callers reset() it first when they want just this item. */
export function encodeItem(item: Item, names: NameDictionary, out: ByteWriter): void {
  encodeMap(item, names, out);
}

/** Reads values back from one encoded item. */
export class ItemReader {
  private pos: number;

  constructor(
    private readonly buffer: Buffer,
    start: number,
    private readonly names: NameDictionary,
  ) {
    this.pos = start;
  }

  private byte(): number {
    const value = this.buffer[this.pos++];
    if (value === undefined) throw new Error('Corrupt result set: a record runs past the end of its block.');
    return value;
  }

  private varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = this.byte();
      result += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return result;
      shift += 7;
    }
  }

  private string(encoding: 'utf8' | 'latin1'): string {
    const size = this.varint();
    const value = this.buffer.toString(encoding, this.pos, this.pos + size);
    this.pos += size;
    return value;
  }

  private bytes(): string {
    const size = this.varint();
    const value = this.buffer.toString('base64', this.pos, this.pos + size);
    this.pos += size;
    return value;
  }

  private list<T>(read: () => T): T[] {
    const count = this.varint();
    const out: T[] = new Array<T>(count);
    for (let i = 0; i < count; i++) out[i] = read();
    return out;
  }

  value(): AttributeValue {
    const tag = this.byte();
    switch (tag) {
      case Tag.S:
        return { S: this.string('utf8') };
      case Tag.N:
        return { N: this.string('latin1') };
      case Tag.B:
        return { B: this.bytes() };
      case Tag.True:
        return { BOOL: true };
      case Tag.False:
        return { BOOL: false };
      case Tag.Null:
        return { NULL: true };
      case Tag.L:
        return { L: this.list(() => this.value()) };
      case Tag.M:
        return { M: this.map() };
      case Tag.SS:
        return { SS: this.list(() => this.string('utf8')) };
      case Tag.NS:
        return { NS: this.list(() => this.string('latin1')) };
      case Tag.BS:
        return { BS: this.list(() => this.bytes()) };
      default:
        throw new Error(`Corrupt result set: unknown value tag ${String(tag)}.`);
    }
  }

  map(): Record<string, AttributeValue> {
    const count = this.varint();
    const out: Record<string, AttributeValue> = {};
    for (let i = 0; i < count; i++) {
      const name = this.names.name(this.varint());
      const value = this.value();
      defineOwn(out, name, value);
    }
    return out;
  }
}

export function decodeItem(buffer: Buffer, start: number, names: NameDictionary): Item {
  return new ItemReader(buffer, start, names).map();
}
