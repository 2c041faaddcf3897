import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { RawBlockBudget, type RawBlockHolder } from '../../resultsets/arena';

/** Rows per block: large enough to compress well, small enough to close page by page. */
export const COLD_BLOCK_ROWS = 4096;
const SHARED_MAX_LENGTH = 24;
/** V8 makes a slice of this many characters or more a SlicedString, and a shorter one a copy. */
const SLICED_MIN_LENGTH = 13;
const SHARED_MAX_VALUES = 4096;
/** Bytes up to which putBytes copies with a loop rather than Buffer#copy. */
const SHORT_COPY = 64;
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
  isCompressed: boolean;
}

/**
 * Closed blocks wait raw, up to this thread's budget (the result-set arena's 128 MiB), and are
 * compressed a block per later turn of the event loop (`compressRawTextLater`): while the fetch
 * waits for its next page, and after the statement that waited for the read has run (from the
 * last page to the statement's answer the session awaits no I/O unless a name is missing), so a
 * page, the statement or a request for rows waits for one block's compression at most (~7 ms CPU
 * for a block of 4,096 rows of ~800 bytes). Brotli was a fifth of a 1 KB item's load
 * (docs/PERFORMANCE.md, "Free text compressed after the first result"). A read larger than the
 * budget compresses its oldest blocks as new ones pass it, as every block was before.
 */
const rawText = new RawBlockBudget();
let isCompressionQueued = false;

/** Compresses every block waiting raw, now (benches; tests). Answers how many it compressed. */
export function compressRawText(): number {
  let count = 0;
  while (rawText.compressOldest()) count++;
  return count;
}

/** Bytes of closed blocks waiting raw for compression, in this thread. */
export function rawTextBytes(): number {
  return rawText.rawBytes;
}

/** Compresses the blocks waiting raw on later turns of the event loop, one block a turn. */
export function compressRawTextLater(): void {
  if (isCompressionQueued || rawText.rawBytes === 0) return;
  isCompressionQueued = true;
  const step = (): void => {
    if (rawText.compressOldest()) setImmediate(step);
    else isCompressionQueued = false;
  };
  setImmediate(step);
}

/** A row's varint (UTF-8 length + 1, 0 for absent) at `head.at`, moving past it. */
function nextLength(head: { bytes: Buffer; at: number }): number {
  let n = 0;
  let shift = 0;
  let byte: number;
  do {
    byte = head.bytes[head.at++]!;
    n |= (byte & 0x7f) << shift;
    shift += 7;
  } while (byte & 0x80);
  return n;
}

/** A growable byte run outside the V8 heap. */
class Bytes {
  buf = Buffer.allocUnsafe(0);
  length = 0;

  /**
   * `expected`: bytes the run will likely need, allocated at once (the previous block's size).
   * Zero: grown from nothing, by doubling.
   */
  constructor(expected = 0) {
    if (expected > 0) this.buf = Buffer.allocUnsafe(expected);
  }

  /**
   * Room for `more` bytes at `length`: doubles, so a block's run is copied about once in all
   * (growing by half copied it twice, measured as a tenth of ingest with the copies of the wire
   * path). No minimum size: a small fetch keeps its part block for good, in every text column.
   */
  reserve(more: number): Buffer {
    if (this.length + more > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(this.length + more, this.buf.length * 2));
      this.buf.copy(next, 0, 0, this.length);
      this.buf = next;
    }
    return this.buf;
  }
}

/**
 * A string column kept compressed, block by block, outside the V8 heap. Free text and ids are
 * most of an item's bytes, and as JS strings they cost about a byte per character plus a
 * header and an array slot each; a statement that does not read the column never pays for
 * them. A block is all its text as one UTF-8 run followed by a varint per row (UTF-8 length
 * + 1, or 0 where the item has no such attribute): the text is joined and encoded with one
 * call and decoded with one, and each value is a slice of it, so neither side pays a native
 * call per row.
 *
 * `append` writes each page's rows into that layout at once (uncompressed, outside the heap)
 * and closes a block once it holds COLD_BLOCK_ROWS rows or more, to be compressed under the
 * thread's raw budget (`rawText` above): a page's strings die with
 * the page instead of waiting in the heap for the block to fill, where the young-generation
 * collector copied each of them and then promoted it (measured: most of ingest's GC time).
 */
export class ColdStrings implements RawBlockHolder {
  private readonly blocks: Block[] = [];
  /** Rows of the block not closed yet: their text, and their lengths (varints). */
  private text = new Bytes();
  private head = new Bytes();
  private pendingRows = 0;
  rows = 0;

  /** `budget`: the thread's (`rawText`); tests give a small one of their own. */
  constructor(private readonly budget: RawBlockBudget = rawText) {}

  /** Appends the rows given (strings or undefined); a full block is closed. */
  append(values: readonly (string | undefined)[]): void {
    let joined = '';
    for (const value of values) if (value !== undefined) joined += value;
    // Sized for the worst case (3 bytes per UTF-16 unit) rather than measured, which would be
    // another pass over the text.
    const text = this.text.reserve(joined.length * 3);
    const written = text.write(joined, this.text.length, 'utf8');
    this.text.length += written;
    // All ASCII (the common case): each value's UTF-8 length is its length.
    const ascii = written === joined.length;
    const head = this.head.reserve(values.length * 5);
    let at = this.head.length;
    for (const value of values) {
      let n = value === undefined ? 0 : (ascii ? value.length : Buffer.byteLength(value)) + 1;
      while (n >= 0x80) {
        head[at++] = (n & 0x7f) | 0x80;
        n >>>= 7;
      }
      head[at++] = n;
    }
    this.head.length = at;
    this.pendingRows += values.length;
    this.rows += values.length;
    if (this.pendingRows >= COLD_BLOCK_ROWS) this.close();
  }

  /**
   * Row `row` (rows before it that were not put are absent) as the UTF-8 bytes `body[from, to)`:
   * the wire path (wire-columns.ts) copies a JSON string without escapes, or a value's JSON text,
   * straight from the response body, with no JS string made for it.
   */
  putBytes(row: number, body: Buffer, from: number, to: number): void {
    this.padTo(row);
    this.writeLength(to - from + 1);
    const text = this.text.reserve(to - from);
    const at = this.text.length;
    // Ids and tags are a few dozen bytes: a loop, where Buffer#copy's argument checks cost more
    // than the copy (measured: 0.95x the load's CPU on the one-table shape).
    if (to - from <= SHORT_COPY) for (let i = from; i < to; i++) text[at + i - from] = body[i]!;
    else body.copy(text, at, from, to);
    this.text.length = at + to - from;
    this.ended();
  }

  /** Row `row` as a string (a JSON string with escapes, decoded). */
  putString(row: number, value: string): void {
    this.padTo(row);
    const text = this.text.reserve(value.length * 3);
    const written = text.write(value, this.text.length, 'utf8');
    this.text.length += written;
    this.writeLength(written + 1);
    this.ended();
  }

  /** Absent rows up to `row`. */
  padTo(row: number): void {
    while (this.rows < row) {
      this.writeLength(0);
      this.ended();
    }
  }

  private writeLength(length: number): void {
    const head = this.head.reserve(5);
    let at = this.head.length;
    let n = length;
    while (n >= 0x80) {
      head[at++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    head[at++] = n;
    this.head.length = at;
  }

  /** A row put: the block is closed at the page's end (`append`), as a page's rows are. */
  private ended(): void {
    this.pendingRows += 1;
    this.rows += 1;
  }

  /**
   * The read is over: the rows waiting for a full block are closed as a block of their own, to
   * be compressed with the others (measured: a part block of free text left as it was held
   * 15 B/item at 100,000 items).
   */
  finish(): void {
    if (this.pendingRows > 0) this.close();
    // The run sized for a next block that is not coming is let go.
    this.text = new Bytes();
    this.head = new Bytes();
  }

  /** Closes the pending rows as one raw block, queued for compression under the budget. */
  private close(): void {
    const textBytes = this.text.length;
    const raw = this.text.reserve(this.head.length);
    this.head.buf.copy(raw, textBytes, 0, this.head.length);
    const length = textBytes + this.head.length;
    // The run grew by doubling: up to half of it is slack, held while the block waits raw.
    // An exact-size copy then, as the arena makes (one memcpy of the block).
    let bytes = raw.subarray(0, length);
    if (raw.length - length > length >> 3) {
      bytes = Buffer.allocUnsafeSlow(length);
      raw.copy(bytes, 0, 0, length);
    }
    this.blocks.push({ rows: this.pendingRows, textBytes, bytes, isCompressed: false });
    // The next block starts new buffers: kept for the next block, a few megabytes per text
    // column stayed allocated for good (measured: 183 → 275 B/item held after loading 100,000
    // items). Sized for a block like this one (pages of one table are alike), with room for its
    // lengths and a sixteenth more: grown from nothing by doubling, the run was copied once on
    // the way and once more to its exact size here (measured: without those copies the
    // one-table load took ~0.9x the CPU).
    this.text = new Bytes(length + (length >> 4));
    this.head = new Bytes();
    this.pendingRows = 0;
    this.budget.admit(this, this.blocks.length - 1, bytes.buffer.byteLength);
    if (this.budget === rawText) compressRawTextLater();
  }

  /** Compresses a closed raw block (the budget's call). */
  compressBlock(index: number): void {
    const block = this.blocks[index];
    if (!block || block.isCompressed) return;
    const length = block.bytes.length;
    // Output chunks of a quarter of the input (text compresses 4.5×): one or two chunks, where
    // zlib's 16 KB ones were dozens to concatenate (measured: 0.89× the time on free text).
    const compressed = brotliCompressSync(block.bytes, {
      ...BROTLI,
      chunkSize: Math.max(16 * 1024, length >> 2),
    });
    // Output that fits one chunk comes back as a view of that chunk, which can be several times
    // its length (a column of statuses compresses to a few hundred bytes a block): keep a copy
    // of just the output unless the chunk is (nearly) all of it.
    block.bytes =
      compressed.buffer.byteLength > compressed.length + (compressed.length >> 5)
        ? Buffer.from(compressed)
        : compressed;
    block.isCompressed = true;
  }

  /** Every row, in order, appended to `into` (undefined where absent). */
  decode(into: (string | undefined)[] = []): (string | undefined)[] {
    // Short values (statuses, types, countries) repeat: one shared string per value keeps its
    // hash computed once for GROUP BY and joins, and the column small, as JSON.parse's were.
    const shared = new Map<string, string>();
    this.eachRun((raw, textBytes, headAt, rows, text) => {
      // In an ASCII run a byte offset is a character offset, so a short value can be copied
      // out on its own: V8 makes a slice of 13+ characters a SlicedString (32 bytes, and it
      // keeps the whole block's text alive), where a copy of an id like SK's costs 40 with its
      // text. Measured: 40 B/row instead of 55 for 15-character ids, at twice the decode time.
      const isAscii = text.length === textBytes;
      const head = { bytes: raw.head, at: headAt };
      let from = 0;
      for (let row = 0; row < rows; row++) {
        const n = nextLength(head);
        if (n === 0) {
          into.push(undefined);
          continue;
        }
        // Lengths are in bytes: in an ASCII run they are characters too; otherwise each value is
        // decoded from its own bytes.
        const value = !isAscii
          ? raw.text.toString('utf8', from, from + n - 1)
          : n - 1 >= SLICED_MIN_LENGTH && n - 1 <= SHARED_MAX_LENGTH
            ? raw.text.toString('latin1', from, from + n - 1)
            : text.slice(from, from + n - 1);
        from += n - 1;
        if (n - 1 > SHARED_MAX_LENGTH) into.push(value);
        else {
          const known = shared.get(value);
          if (known === undefined && shared.size < SHARED_MAX_VALUES) shared.set(value, value);
          into.push(known ?? value);
        }
      }
    });
    return into;
  }

  /**
   * Sets `mask[row] = 1` for each row whose string begins with `prefix`, without making a
   * string per row: each run's text is decoded once and tested in place (`startsWith` at the
   * row's offset), which is what `value.startsWith(prefix)` on the decoded value answers. An
   * entity view's sort-key condition reads unique ids (SK) this way, so they are never decoded.
   */
  prefixMask(prefix: string, mask: Uint8Array): void {
    let row0 = 0;
    this.eachRun((raw, textBytes, headAt, rows, text) => {
      const head = { bytes: raw.head, at: headAt };
      let from = 0;
      const isAscii = text.length === textBytes;
      for (let row = row0; row < row0 + rows; row++) {
        const n = nextLength(head);
        if (n === 0) continue;
        if (isAscii) {
          if (n - 1 >= prefix.length && text.startsWith(prefix, from)) mask[row] = 1;
        } else if (raw.text.toString('utf8', from, from + n - 1).startsWith(prefix)) mask[row] = 1;
        from += n - 1;
      }
      row0 += rows;
    });
  }

  /** Each block (decompressed unless still raw), then the pending rows: their bytes, and their text decoded once. */
  private eachRun(
    visit: (
      raw: { text: Buffer; head: Buffer },
      textBytes: number,
      headAt: number,
      rows: number,
      text: string,
    ) => void,
  ): void {
    for (const block of this.blocks) {
      const raw = block.isCompressed ? brotliDecompressSync(block.bytes) : block.bytes;
      const text = raw.toString('utf8', 0, block.textBytes);
      visit({ text: raw, head: raw }, block.textBytes, block.textBytes, block.rows, text);
    }
    if (this.pendingRows === 0) return;
    const textBytes = this.text.length;
    const text = this.text.buf.toString('utf8', 0, textBytes);
    visit({ text: this.text.buf, head: this.head.buf }, textBytes, 0, this.pendingRows, text);
  }

  get byteLength(): number {
    return this.blocks.reduce((sum, b) => sum + b.bytes.length, 0) + this.text.length + this.head.length;
  }
}
