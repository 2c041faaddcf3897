import { Buffer } from 'node:buffer';
import type { Arena } from './arena';
import type { ByteWriter, NameDictionary } from './item-codec';
import { WireCursor } from './wire-cursor';

// Declared here, not imported from wire-cursor.ts: run through tsx (tests, benchmarks) an
// imported constant is a property load in every comparison, and encoding slowed by half
// (4.0 → 6.6 µs per item, measured).
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Encodes the Items of a Query/Scan response straight from its HTTP body bytes into the
 * result-set store's binary form (item-codec.ts), without building a JS object per value.
 * DynamoDB's wire JSON already is the tagged form ({"N":"1.50"}, {"B":"<base64>"}), so string
 * bytes are copied as they are; only names, escaped strings and binary make JS strings. This
 * keeps a million-row scan's client CPU near a plain JSON.parse of the same bytes.
 */
const Tag = { S: 0, N: 1, B: 2, True: 3, False: 4, Null: 5, L: 6, M: 7, SS: 8, NS: 9, BS: 10 } as const;

export interface PageMeta {
  /** Raw JSON of every top-level field except Items (Count, LastEvaluatedKey, ConsumedCapacity, …). */
  rest: Record<string, unknown>;
  items: number;
}

/** Where items go: each is written straight into the arena's open block, then committed. */
interface Out {
  arena: Pick<Arena, 'writer' | 'beginRecord' | 'commitRecord'>;
  names: NameDictionary;
}

export class WireEncoder extends WireCursor {
  /** Attribute names by a hash of their bytes, so a repeated name never becomes a JS string again. */
  private readonly nameCache = new Map<number, { bytes: Uint8Array; id: number }[]>();
  /** Each cached name's bytes, by name id. */
  private readonly nameBytes: Uint8Array[] = [];
  /** The name id seen next in each slot last time (see members()). */
  private readonly follows: number[] = [];
  private readonly writer: ByteWriter;
  /** The top-level name ids of the item just encoded, reused for every item. */
  private readonly topNames: number[] = [];

  constructor(
    body: Buffer,
    private readonly out: Out,
  ) {
    super(body);
    this.writer = out.arena.writer;
  }

  /** One item (a map's members at pos) into the arena; `onItem` gets its top-level name ids. */
  private item(onItem: (topLevelNames: readonly number[]) => void): void {
    const arena = this.out.arena;
    arena.beginRecord();
    this.topNames.length = 0;
    this.members(-1, this.topNames);
    arena.commitRecord();
    onItem(this.topNames);
  }

  /** Writes a JSON string's UTF-8 bytes with a varint length, copying them when unescaped. */
  private copyString(): void {
    this.expect(QUOTE);
    const end = this.stringEnd();
    if (this.escaped) {
      this.writer.string(this.escapedText(this.pos, end), 'utf8');
    } else {
      const size = end - this.pos;
      const writer = this.writer;
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

  /** Binary (base64 text) decoded straight from the bytes; escaped or unusual text takes Buffer's lenient path. */
  private binary(): void {
    this.expect(QUOTE);
    const end = this.stringEnd();
    if (!this.escaped && this.writer.base64(this.body, this.pos, end)) {
      this.pos = end + 1;
      return;
    }
    this.pos -= 1;
    this.writer.bytes(this.text());
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
    const name = this.escapedText(start, end);
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
    const writer = this.writer;
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
    const writer = this.writer;
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
    const writer = this.writer;
    const at = this.reserveCount();
    let count = 0;
    this.expect(OPEN_BRACKET);
    if (!this.isEmpty(CLOSE_BRACKET)) {
      do {
        if (kind === 'value') this.value(parent);
        else if (kind === 'string') this.copyString();
        else this.binary();
        count++;
      } while (!this.next(CLOSE_BRACKET));
    }
    writer.patchVarint(at, count);
  }

  /** One tagged value; `parent` is the name id of the attribute it belongs to. */
  private value(parent: number): void {
    const writer = this.writer;
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
        this.binary();
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

  /**
   * Walks the JSON lines of a DynamoDB-JSON export data file: one `{"Item":{…}}` per line, the
   * item in the same tagged form as a Scan's Items, so it is encoded the same way.
   */
  exportLines(onItem: (topLevelNames: readonly number[]) => void): number {
    let items = 0;
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.body.length) return items;
      this.expect(OPEN_BRACE);
      const body = this.body;
      const p = this.pos;
      // "Item" compared as bytes: a JS string per line would cost more than the rest of the line.
      const isItem =
        body[p] === QUOTE &&
        body[p + 1] === 0x49 &&
        body[p + 2] === 0x74 &&
        body[p + 3] === 0x65 &&
        body[p + 4] === 0x6d &&
        body[p + 5] === QUOTE;
      if (isItem) this.pos = p + 6;
      else if (this.text() !== 'Item') this.fail('expected an "Item" member (a full export line)');
      this.expect(COLON);
      this.item(onItem);
      items++;
      this.expect(CLOSE_BRACE);
    }
  }

  /** Walks the response: each item of Items goes to `onItem` (encoded in out.writer); the rest is returned parsed. */
  page(onItem: (topLevelNames: readonly number[]) => void): PageMeta {
    // Member names are the answer's data: a `__proto__` member must be a member, not a prototype.
    const rest = Object.create(null) as Record<string, unknown>;
    let items = 0;
    this.expect(OPEN_BRACE);
    if (this.isEmpty(CLOSE_BRACE)) return { rest, items };
    do {
      const key = this.text();
      this.expect(COLON);
      if (key !== 'Items') {
        rest[key] = this.memberValue();
        continue;
      }
      this.expect(OPEN_BRACKET);
      if (this.isEmpty(CLOSE_BRACKET)) continue;
      do {
        this.item(onItem);
        items++;
      } while (!this.next(CLOSE_BRACKET));
    } while (!this.next(CLOSE_BRACE));
    return { rest, items };
  }
}

export function encodeWirePage(
  body: Buffer,
  out: Out,
  onItem: (topLevelNames: readonly number[]) => void,
): PageMeta {
  return new WireEncoder(Buffer.isBuffer(body) ? body : Buffer.from(body), out).page(onItem);
}

export function encodeExportLines(
  body: Buffer,
  out: Out,
  onItem: (topLevelNames: readonly number[]) => void,
): number {
  return new WireEncoder(body, out).exportLines(onItem);
}
