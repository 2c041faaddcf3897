import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { ByteWriter } from './item-codec';

/**
 * Append-only storage for encoded items. Records are packed into ~64 KB blocks kept outside the V8
 * heap, so a million items neither hit the heap limit nor slow the garbage collector. A full
 * block is sealed as it is; once the thread's sealed raw blocks pass a budget (RawBlockBudget),
 * the oldest are compressed (items of one table repeat prefixes, dates and enum values, so blocks
 * typically shrink 2-4x). Two typed arrays say which block holds a record and where it starts
 * there (8 bytes per record). Reading a window inflates the one or two compressed blocks it
 * touches; a few recently inflated blocks are cached for scrolling.
 */
const BLOCK_SIZE = 64 * 1024;
/**
 * Raw sealed bytes a thread keeps before it compresses the oldest blocks. Compressing every
 * block as it filled was a quarter of the CPU from a Scan's response to the grid's rows (see
 * docs/PERFORMANCE.md); most result sets (up to ~100,000 items of 1 KB) now never pay it, and a
 * larger one pays it only for what passes the budget, costing at most this much more memory.
 */
export const RAW_BUDGET_BYTES = 128 * 1024 * 1024;
const CACHED_BLOCKS = 8;
/**
 * Brotli at quality 1, measured against deflate level 1 on encoded ~1 KB items (see
 * docs/PERFORMANCE.md): ~40% less CPU per byte, a slightly better ratio (3.9x vs 3.7x), and on
 * incompressible blocks (random ids, binary) it gives up ~20x sooner. Inflating costs a little
 * more, but only the blocks a window or a sort touches are inflated.
 */
const BROTLI = {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 1,
    [constants.BROTLI_PARAM_LGWIN]: 17,
    [constants.BROTLI_PARAM_SIZE_HINT]: BLOCK_SIZE,
  },
};

interface Block {
  bytes: Buffer;
  isCompressed: boolean;
}

/** What keeps raw blocks under a budget: an arena, or a SQL table's compressed text (cold-strings.ts). */
export interface RawBlockHolder {
  compressBlock(block: number): void;
}

/**
 * The sealed blocks not yet compressed, of every holder of one thread (the result-set worker's
 * arenas; the SQL worker's text columns), oldest first. Admitting a block past the budget
 * compresses the oldest until it fits.
 */
export class RawBlockBudget {
  private queue: { arena: RawBlockHolder; block: number; bytes: number }[] = [];
  private head = 0;
  private raw = 0;

  constructor(readonly limitBytes = RAW_BUDGET_BYTES) {}

  get rawBytes(): number {
    return this.raw;
  }

  admit(arena: RawBlockHolder, block: number, bytes: number): void {
    this.queue.push({ arena, block, bytes });
    this.raw += bytes;
    while (this.raw > this.limitBytes && this.compressOldest());
  }

  /** Compresses the oldest raw block; false when none is left. */
  compressOldest(): boolean {
    if (this.head >= this.queue.length) return false;
    const oldest = this.queue[this.head++] as (typeof this.queue)[number];
    this.raw -= oldest.bytes;
    oldest.arena.compressBlock(oldest.block);
    if (this.head === this.queue.length) this.compact(() => true);
    else if (this.head > 1024 && this.head * 2 > this.queue.length) this.compact(() => true);
    return true;
  }

  /** Forgets an arena's raw blocks (its result set was dropped), so nothing here holds them. */
  release(arena: RawBlockHolder, bytes: number): void {
    this.raw -= bytes;
    this.compact((entry) => entry.arena !== arena);
  }

  private compact(keep: (entry: { arena: RawBlockHolder }) => boolean): void {
    this.queue = this.queue.slice(this.head).filter(keep);
    this.head = 0;
  }
}

/** Used by arenas made without a budget of their own (tests, benches of one arena). */
const sharedBudget = new RawBlockBudget();

/**
 * The open block's size. Records are written straight into it and never split: a block is
 * sealed at the start of the first record that finds it at least BLOCK_SIZE full, so the
 * buffer has room for one more record past BLOCK_SIZE (and grows, once, for a larger one).
 */
const OPEN_BYTES = 2 * BLOCK_SIZE;

export class Arena implements RawBlockHolder {
  private readonly blocks: Block[] = [];
  /**
   * The open block, as the writer encoders write the next record into (see beginRecord). Encoding
   * into a scratch buffer and copying each record in cost ~300 ns per KB, a tenth of the encoder.
   */
  readonly writer = new ByteWriter(OPEN_BYTES);
  private recordStart = 0;
  private blockOf = new Uint32Array(256);
  private startOf = new Uint32Array(256);
  private readonly cache = new Map<number, Buffer>();
  private storedBytes = 0;
  /** Bytes of this arena's sealed blocks still raw, counted in the budget. */
  private rawBytes = 0;
  isReleased = false;
  count = 0;

  constructor(private readonly budget: RawBlockBudget = sharedBudget) {}

  /** Starts a record at the writer's end; write it there, then commitRecord() or replaceRecord(). */
  beginRecord(): void {
    if (this.writer.length >= BLOCK_SIZE) this.seal();
    this.recordStart = this.writer.length;
  }

  /** What was written since beginRecord() becomes the next record. */
  commitRecord(): void {
    if (this.count === this.startOf.length) this.grow();
    this.index(this.count);
    this.count += 1;
  }

  /**
   * What was written since beginRecord() becomes record `index` (an item the user wrote). The old
   * bytes stay where they are, unreferenced: blocks are compressed whole, and user writes are few
   * next to a read.
   */
  replaceRecord(index: number): void {
    if (index < 0 || index >= this.count) throw new RangeError(`No record ${index}.`);
    this.index(index);
  }

  /**
   * Forgets the records from `count` on (a page whose response failed after some were written):
   * the next record is number `count` again. Their bytes stay where they are, unreferenced, as a
   * replaced record's do.
   */
  dropFrom(count: number): void {
    if (count < 0 || count > this.count) throw new RangeError(`No record ${count}.`);
    this.count = count;
  }

  /** Copies bytes[0, length) in as the next record. */
  push(bytes: Buffer, length: number): void {
    this.copyIn(bytes, length);
    this.commitRecord();
  }

  /** Points record `index` at a copy of bytes[0, length) (see replaceRecord). */
  replace(index: number, bytes: Buffer, length: number): void {
    if (index < 0 || index >= this.count) throw new RangeError(`No record ${index}.`);
    this.copyIn(bytes, length);
    this.replaceRecord(index);
  }

  private copyIn(bytes: Buffer, length: number): void {
    this.beginRecord();
    this.writer.ensure(length);
    bytes.copy(this.writer.buffer, this.writer.length, 0, length);
    this.writer.length += length;
  }

  private index(index: number): void {
    this.blockOf[index] = this.blocks.length;
    this.startOf[index] = this.recordStart;
  }

  /** The buffer holding record `index` and where it starts in it. */
  locate(index: number): { buffer: Buffer; start: number } {
    if (index < 0 || index >= this.count) throw new RangeError(`No record ${index}.`);
    const blockIndex = this.blockOf[index] ?? 0;
    const start = this.startOf[index] ?? 0;
    if (blockIndex === this.blocks.length) return { buffer: this.writer.buffer, start };
    return { buffer: this.inflate(blockIndex), start };
  }

  /** Bytes held: sealed blocks, the open block and the record index. */
  get reservedBytes(): number {
    return this.storedBytes + this.writer.buffer.length + this.startOf.byteLength * 2;
  }

  private seal(): void {
    const writer = this.writer;
    if (writer.length === 0) return;
    // An exact-size copy, so the open buffer is reused: a fresh 64 KB per block is external
    // memory that makes V8 collect garbage more often. One grown for an outsized record goes.
    const bytes = Buffer.allocUnsafeSlow(writer.length);
    writer.buffer.copy(bytes, 0, 0, writer.length);
    this.blocks.push({ bytes, isCompressed: false });
    this.storedBytes += bytes.length;
    this.rawBytes += bytes.length;
    if (writer.buffer.length !== OPEN_BYTES) writer.buffer = Buffer.allocUnsafe(OPEN_BYTES);
    writer.reset();
    this.budget.admit(this, this.blocks.length - 1, bytes.length);
  }

  /** Compresses a sealed raw block (the budget's call); incompressible data stays as it is. */
  compressBlock(blockIndex: number): void {
    const block = this.blocks[blockIndex];
    if (!block || block.isCompressed) return;
    const raw = block.bytes;
    this.rawBytes -= raw.length;
    const packed = brotliCompressSync(raw, BROTLI);
    // Incompressible data (random ids, binary) is kept as is rather than paying to inflate it.
    if (packed.length >= raw.length * 0.9) return;
    // An exact-size copy: zlib's output may be a view into a larger allocation.
    const bytes = Buffer.allocUnsafeSlow(packed.length);
    packed.copy(bytes);
    this.blocks[blockIndex] = { bytes, isCompressed: true };
    this.storedBytes += bytes.length - raw.length;
  }

  /** The arena's result set is gone: its raw blocks no longer count against the budget. */
  release(): void {
    if (this.isReleased) return;
    this.isReleased = true;
    this.budget.release(this, this.rawBytes);
    this.rawBytes = 0;
  }

  private inflate(blockIndex: number): Buffer {
    const block = this.blocks[blockIndex];
    if (!block) throw new RangeError(`No block ${blockIndex}.`);
    if (!block.isCompressed) return block.bytes;
    const cached = this.cache.get(blockIndex);
    if (cached) {
      this.cache.delete(blockIndex);
      this.cache.set(blockIndex, cached); // most recently used last
      return cached;
    }
    const raw = brotliDecompressSync(block.bytes);
    this.cache.set(blockIndex, raw);
    const oldest = this.cache.keys().next();
    if (this.cache.size > CACHED_BLOCKS && !oldest.done) this.cache.delete(oldest.value);
    return raw;
  }

  private grow(): void {
    const size = this.startOf.length * 2;
    const blockOf = new Uint32Array(size);
    const startOf = new Uint32Array(size);
    blockOf.set(this.blockOf);
    startOf.set(this.startOf);
    this.blockOf = blockOf;
    this.startOf = startOf;
  }
}
