import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/** Rows per sealed block: large enough to compress well, small enough to seal page by page. */
export const COLD_BLOCK_ROWS = 4096;
/** Brotli quality 1, as the result-set store's blocks (docs/PERFORMANCE.md measures it against deflate). */
const SHARED_MAX_BYTES = 24;
const SHARED_MAX_VALUES = 4096;
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_LGWIN]: 20 } };

/**
 * A string column kept compressed, block by block, outside the V8 heap. Free text and ids are
 * most of an item's bytes, and as JS strings they cost about a byte per character plus a
 * header and an array slot each; a statement that does not read the column never pays for
 * them. Each row is a varint (UTF-8 length + 1, or 0 where the item has no such attribute)
 * and its bytes; lengths compress with the text.
 */
export class ColdStrings {
  private readonly blocks: { rows: number; bytes: Buffer }[] = [];
  rows = 0;

  /** Seals the rows given (strings or undefined) as one block. */
  seal(values: readonly (string | undefined)[]): void {
    let size = 0;
    for (const value of values) size += value === undefined ? 1 : 5 + Buffer.byteLength(value, 'utf8');
    const raw = Buffer.allocUnsafe(size);
    let at = 0;
    for (const value of values) {
      if (value === undefined) {
        raw[at++] = 0;
        continue;
      }
      const start = at + 5;
      const length = raw.write(value, start, 'utf8');
      let n = length + 1;
      // The varint goes just before the text: shift the text down if it takes fewer than 5 bytes.
      const head: number[] = [];
      do {
        head.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
        n = Math.floor(n / 0x80);
      } while (n > 0);
      for (const byte of head) raw[at++] = byte;
      raw.copy(raw, at, start, start + length);
      at += length;
    }
    this.blocks.push({ rows: values.length, bytes: brotliCompressSync(raw.subarray(0, at), BROTLI) });
    this.rows += values.length;
  }

  /** Every sealed row, in order, appended to `into` (undefined where absent). */
  decode(into: (string | undefined)[] = []): (string | undefined)[] {
    // Short values (statuses, types, countries) repeat: one shared string per value keeps its
    // hash computed once for GROUP BY and joins, and the column small, as JSON.parse's were.
    const shared = new Map<string, string>();
    for (const block of this.blocks) {
      const raw = brotliDecompressSync(block.bytes);
      let at = 0;
      for (let row = 0; row < block.rows; row++) {
        let n = 0;
        let scale = 1;
        let byte: number;
        do {
          byte = raw[at++]!;
          n += (byte & 0x7f) * scale;
          scale *= 0x80;
        } while (byte & 0x80);
        if (n === 0) into.push(undefined);
        else {
          const value = raw.toString('utf8', at, at + n - 1);
          at += n - 1;
          if (n > SHARED_MAX_BYTES) into.push(value);
          else {
            const known = shared.get(value);
            if (known === undefined && shared.size < SHARED_MAX_VALUES) shared.set(value, value);
            into.push(known ?? value);
          }
        }
      }
    }
    return into;
  }

  get byteLength(): number {
    return this.blocks.reduce((sum, b) => sum + b.bytes.length, 0);
  }
}
