import { type Buffer } from 'node:buffer';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { WireCursor, WireFormatError } from '../../resultsets/wire-cursor';

// Declared here, not imported: see wire-encoder.ts (an imported constant costs a load per compare under tsx).
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Body bytes of Items parsed at a time. A whole 1 MB page parsed at once is ~8 MB of young
 * objects alive through the analysis, which the collector copies and promotes: a full scan's
 * client CPU per item fell by about a third when the page was read in chunks of this size
 * (docs/PERFORMANCE.md, "a page's Items in chunks").
 */
export const CHUNK_BYTES = 32 * 1024;

/**
 * A Scan or Query page's Items in the tagged form, as DynamoDB sent them, parsed from the
 * response body a chunk at a time while they are read: only the chunk being read is alive as
 * objects. Iterable more than once (each pass parses again); `length` is known without parsing.
 * JSON.parse keeps every name, `__proto__` included, as an own property.
 */
export class WireItems implements Iterable<Item> {
  private constructor(
    readonly length: number,
    private readonly body: Buffer | undefined,
    /** [start, end) byte spans of whole items, comma-separated, in pairs. */
    private readonly spans: readonly number[],
    private readonly parsed: readonly Item[] | undefined,
    /** A WireItemsReader read them where they stood: nothing is left here to iterate. */
    readonly isTaken = false,
  ) {}

  /** Items already parsed (a body the splitter did not take). */
  static of(items: readonly Item[]): WireItems {
    return new WireItems(items.length, undefined, [], items);
  }

  static fromBody(body: Buffer, spans: readonly number[], length: number): WireItems {
    return new WireItems(length, body, spans, undefined);
  }

  /** `length` items a WireItemsReader already took from the body. */
  static taken(length: number): WireItems {
    return new WireItems(length, undefined, [], [], true);
  }

  /** The response body and the spans of its items; undefined for items already parsed. */
  get wire(): { body: Buffer; spans: readonly number[] } | undefined {
    return this.body ? { body: this.body, spans: this.spans } : undefined;
  }

  *[Symbol.iterator](): Iterator<Item> {
    if (this.parsed) {
      yield* this.parsed;
      return;
    }
    const body = this.body as Buffer;
    const spans = this.spans;
    for (let i = 0; i < spans.length; i += 2) {
      const from = spans[i] as number;
      const to = spans[i + 1] as number;
      let chunk: Item[];
      try {
        chunk = JSON.parse(`[${body.toString('utf8', from, to)}]`) as Item[];
      } catch (error) {
        // The split checked brackets and strings, not what is between them (a number, `true`).
        throw new WireFormatError(
          `Unexpected DynamoDB response between bytes ${from} and ${to}: an item there is not valid JSON (${(error as Error).message}).`,
        );
      }
      for (let k = 0; k < chunk.length; k++) yield chunk[k] as Item;
    }
  }
}

/**
 * A destination that reads a page's Items from the response bytes itself (the SQL table,
 * wire-columns.ts): given the body and the position of the Items array's `[`, it answers the
 * position just past the array's `]` and how many items the array held. The splitter then leaves
 * the items to it: the bytes are walked once, not once to find the items and again to read them
 * (the split was ~17% of the SQL load from the bytes; docs/PERFORMANCE.md, sqlfirst5).
 */
export type WireItemsReader = (body: Buffer, from: number) => { end: number; count: number };

/**
 * Splits a Scan or Query response body into its Items (spans of the body, parsed later, a chunk
 * at a time) and the rest (Count, LastEvaluatedKey, ConsumedCapacity, …, parsed now). Built on
 * the result-set worker's byte cursor, the one scanner of response bodies. A body that is not a
 * JSON object of members throws WireFormatError naming the byte.
 */
class PageSplitter extends WireCursor {
  split(reader?: WireItemsReader): { rest: Record<string, unknown>; items: WireItems } {
    const body = this.body;
    // Keyed by what the response says: no prototype for a member to land on.
    const rest = Object.create(null) as Record<string, unknown>;
    let spans: number[] = [];
    let count = 0;
    let taken = false;
    this.expect(OPEN_BRACE);
    if (!this.isEmpty(CLOSE_BRACE)) {
      do {
        const key = this.text();
        this.expect(COLON);
        if (key !== 'Items') {
          rest[key] = this.memberValue();
          continue;
        }
        if (reader) {
          // A reader has already kept the first; DynamoDB never sends the member twice.
          if (taken) this.fail('the page names Items twice');
          this.skipSpace();
          const read = reader(body, this.pos);
          this.pos = read.end;
          count = read.count;
          taken = true;
          continue;
        }
        // A repeated member: the last one counts, as in JSON.parse.
        spans = [];
        count = 0;
        this.expect(OPEN_BRACKET);
        if (this.isEmpty(CLOSE_BRACKET)) continue;
        let chunkStart = -1;
        let chunkEnd = -1;
        do {
          this.skipSpace();
          if (body[this.pos] !== OPEN_BRACE) this.fail('expected an item (an object)');
          const [start, end] = this.skipValue();
          if (chunkStart < 0) chunkStart = start;
          chunkEnd = end;
          count++;
          if (end - chunkStart >= CHUNK_BYTES) {
            spans.push(chunkStart, end);
            chunkStart = -1;
          }
        } while (!this.next(CLOSE_BRACKET));
        if (chunkStart >= 0) spans.push(chunkStart, chunkEnd);
      } while (!this.next(CLOSE_BRACE));
    }
    return { rest, items: taken ? WireItems.taken(count) : WireItems.fromBody(body, spans, count) };
  }
}

/** With a reader, the Items are the reader's to walk and the answer's `items` only counts them. */
export function splitWirePage(
  body: Buffer,
  reader?: WireItemsReader,
): { rest: Record<string, unknown>; items: WireItems } {
  return new PageSplitter(body).split(reader);
}
