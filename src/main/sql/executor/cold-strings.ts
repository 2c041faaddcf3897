import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/** Rows per sealed block: large enough to compress well, small enough to seal page by page. */
export const COLD_BLOCK_ROWS = 4096;
const SHARED_MAX_LENGTH = 24;
/** V8 makes a slice of this many characters or more a SlicedString, and a shorter one a copy. */
const SLICED_MIN_LENGTH = 13;
const SHARED_MAX_VALUES = 4096;
/**
 * Brotli quality 0 with a 256 KB window: on the benchmark's free text 1.5–1.9× faster than
 * quality 1 with 1 MB, for 4.5× instead of 4.9× (docs/PERFORMANCE.md). Sealing runs on every
 * fetched page, so its speed is the load's. Compressing on libuv's pool instead was measured
 * too: on a busy machine it cost more CPU in all and was slower to load.
 */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 0, [constants.BROTLI_PARAM_LGWIN]: 18 } };

interface Block {
  rows: number;
  /** Bytes of the text that starts the decompressed block; the lengths follow it. */
  textBytes: number;
  bytes: Buffer;
}

/**
 * A string column kept compressed, block by block, outside the V8 heap. Free text and ids are
 * most of an item's bytes, and as JS strings they cost about a byte per character plus a
 * header and an array slot each; a statement that does not read the column never pays for
 * them. A block is all its text as one UTF-8 run followed by a varint per row (UTF-16 length
 * + 1, or 0 where the item has no such attribute): the text is joined and encoded with one
 * call and decoded with one, and each value is a slice of it, so neither side pays a native
 * call per row.
 */
export class ColdStrings {
  private readonly blocks: Block[] = [];
  rows = 0;

  /** Seals the rows given (strings or undefined) as one block. */
  seal(values: readonly (string | undefined)[]): void {
    const head = Buffer.allocUnsafe(values.length * 5);
    let at = 0;
    let text = '';
    for (const value of values) {
      let n = value === undefined ? 0 : value.length + 1;
      while (n >= 0x80) {
        head[at++] = (n & 0x7f) | 0x80;
        n >>>= 7;
      }
      head[at++] = n;
      if (value !== undefined) text += value;
    }
    // Sized for the worst case (3 bytes per UTF-16 unit) rather than measured, which would be
    // another pass over the text; it lives only until it is compressed.
    const raw = Buffer.allocUnsafe(text.length * 3 + at);
    const textBytes = raw.write(text, 0, 'utf8');
    head.copy(raw, textBytes, 0, at);
    const compressed = brotliCompressSync(raw.subarray(0, textBytes + at), BROTLI);
    // Output that fits one of zlib's 16 KB chunks comes back as a view of that chunk; a column of
    // statuses compresses to a few hundred bytes a block, so keep a copy of just those.
    const bytes = compressed.buffer.byteLength > 2 * compressed.length ? Buffer.from(compressed) : compressed;
    this.blocks.push({ rows: values.length, textBytes, bytes });
    this.rows += values.length;
  }

  /** Every sealed row, in order, appended to `into` (undefined where absent). */
  decode(into: (string | undefined)[] = []): (string | undefined)[] {
    // Short values (statuses, types, countries) repeat: one shared string per value keeps its
    // hash computed once for GROUP BY and joins, and the column small, as JSON.parse's were.
    const shared = new Map<string, string>();
    for (const block of this.blocks) {
      const raw = brotliDecompressSync(block.bytes);
      const text = raw.toString('utf8', 0, block.textBytes);
      // In an ASCII block a byte offset is a character offset, so a short value can be copied
      // out on its own: V8 makes a slice of 13+ characters a SlicedString (32 bytes, and it
      // keeps the whole block's text alive), where a copy of an id like SK's costs 40 with its
      // text. Measured: 40 B/row instead of 55 for 15-character ids, at twice the decode time.
      const isAscii = text.length === block.textBytes;
      let at = block.textBytes;
      let from = 0;
      for (let row = 0; row < block.rows; row++) {
        let n = 0;
        let shift = 0;
        let byte: number;
        do {
          byte = raw[at++]!;
          n |= (byte & 0x7f) << shift;
          shift += 7;
        } while (byte & 0x80);
        if (n === 0) {
          into.push(undefined);
          continue;
        }
        const value =
          isAscii && n - 1 >= SLICED_MIN_LENGTH && n - 1 <= SHARED_MAX_LENGTH
            ? raw.toString('latin1', from, from + n - 1)
            : text.slice(from, from + n - 1);
        from += n - 1;
        if (n - 1 > SHARED_MAX_LENGTH) into.push(value);
        else {
          const known = shared.get(value);
          if (known === undefined && shared.size < SHARED_MAX_VALUES) shared.set(value, value);
          into.push(known ?? value);
        }
      }
    }
    return into;
  }

  get byteLength(): number {
    return this.blocks.reduce((sum, b) => sum + b.bytes.length, 0);
  }
}
