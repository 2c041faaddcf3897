import type { AppError, Envelope } from '../../shared/errors';
import { WINDOW_LIMIT_MAX } from '../../shared/ipc/window';

export interface WindowCacheOptions<T> {
  /** Reads rows [offset, offset + limit) of the result in main, as the grid shows them. */
  read(offset: number, limit: number): Promise<Envelope<T[]>>;
  /** Rows per block: one read each. */
  blockRows: number;
  /** Blocks held at most; the oldest read goes first. */
  maxBlocks: number;
}

/**
 * The one renderer cache of result windows, for the item grid (`resultsets:window`) and the SQL
 * results grid (`sql:window`): the few hundred rows around what a grid shows, read a block at a
 * time; the rest stays in main's worker, so the renderer never holds a million rows.
 *
 * - A block asked for while in flight is read once more after its answer when that answer came
 *   back short of the rows counted meanwhile (a read's first window is often answered before its
 *   first page lands): otherwise nothing would ask again and placeholder rows stayed for good.
 * - `invalidateFrom` marks blocks stale (their positions show other rows now): they stay on
 *   screen until their fresh copies arrive, so a collapse or a write looks instant instead of
 *   flashing empty rows; an answer sent before the invalidation is shown and read again.
 * - A failed read keeps no block and sets `error` (a grid shows it with Retry).
 */
export class WindowCache<T> {
  private readonly blocks = new Map<number, T[]>();
  private readonly pending = new Set<number>();
  private readonly stale = new Set<number>();
  private readonly askedAgain = new Set<number>();
  private readonly listeners = new Set<() => void>();
  /** The row count of the latest ensure(), which a block's answer may be short of. */
  private total = 0;
  private generation = 0;
  private range = { first: 0, last: -1 };
  /** Why the latest read failed; cleared by the next answer or by retry(). */
  error?: AppError;

  constructor(private readonly options: WindowCacheOptions<T>) {}

  row(index: number): T | undefined {
    const { blockRows } = this.options;
    return this.blocks.get(Math.floor(index / blockRows))?.[index % blockRows];
  }

  /**
   * Rows [first, last] at once, for a copy of a range: the rows held as they are, the others read
   * (in reads of up to WINDOW_LIMIT_MAX rows) without keeping them, so a long range does not push the
   * rows in view out of the cache. Short when the result ends before `last`.
   */
  async readRange(first: number, last: number): Promise<Envelope<T[]>> {
    const rows: T[] = [];
    const { blockRows } = this.options;
    for (let at = first; at <= last;) {
      const block = Math.floor(at / blockRows);
      const held = this.stale.has(block) ? undefined : this.blocks.get(block)?.[at % blockRows];
      if (held !== undefined) {
        rows.push(held);
        at++;
        continue;
      }
      const answer = await this.options.read(at, Math.min(WINDOW_LIMIT_MAX, last - at + 1));
      if (!answer.ok) return answer;
      rows.push(...answer.value);
      if (answer.value.length === 0) break;
      at += answer.value.length;
    }
    return { ok: true, value: rows };
  }

  /** Holds rows already in hand as block `block` (unless it is held already), without a read. */
  hold(block: number, rows: T[]): void {
    if (this.blocks.has(block)) return;
    this.blocks.set(block, rows);
  }

  /** Makes sure rows [first, last] are loaded or loading. */
  ensure(first: number, last: number, total: number): void {
    this.total = total;
    this.range = { first, last };
    const { blockRows } = this.options;
    const from = Math.floor(Math.max(0, first) / blockRows);
    const to = Math.floor(Math.max(0, Math.min(last, total - 1)) / blockRows);
    for (let block = from; block <= to; block++) {
      const isWanted = !this.blocks.has(block) || this.isShort(block) || this.stale.has(block);
      if (!isWanted) continue;
      if (this.pending.has(block)) this.askedAgain.add(block);
      else void this.load(block);
    }
  }

  /** Positions from `position` on show other rows now: their blocks are read again. */
  invalidateFrom(position: number): void {
    this.generation += 1;
    const from = Math.floor(Math.max(0, position) / this.options.blockRows);
    for (const block of this.blocks.keys()) if (block >= from) this.stale.add(block);
  }

  /** Rewrites held rows in place (`rewrite` returns the row itself to keep it): whether any changed. */
  rewriteRows(rewrite: (row: T) => T): boolean {
    let isChanged = false;
    for (const rows of this.blocks.values())
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i] as T;
        const next = rewrite(row);
        if (next === row) continue;
        rows[i] = next;
        isChanged = true;
      }
    return isChanged;
  }

  /** Listeners hear of every answer, failure and rewrite. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Asks again for the rows of the latest ensure() after a failed read. */
  retry(): void {
    this.error = undefined;
    this.notify();
    this.ensure(this.range.first, this.range.last, this.total);
  }

  notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** A block that was short when read may have grown as pages streamed in. */
  private isShort(block: number): boolean {
    const rows = this.blocks.get(block);
    const { blockRows } = this.options;
    return rows !== undefined && rows.length < blockRows && block * blockRows + rows.length < this.total;
  }

  private async load(block: number): Promise<void> {
    this.pending.add(block);
    const sentIn = this.generation;
    const { blockRows, maxBlocks } = this.options;
    const answer = await this.options.read(block * blockRows, blockRows);
    this.pending.delete(block);
    const isAskedAgain = this.askedAgain.delete(block);
    if (!answer.ok) this.error = answer.error;
    else {
      this.error = undefined;
      // Delete first: a Map keeps insertion order, which makes the oldest read go first.
      this.blocks.delete(block);
      this.blocks.set(block, answer.value);
      if (sentIn !== this.generation) void this.load(block);
      else {
        this.stale.delete(block);
        // Rows arrived while it was in flight: read them too (once per ask, so never a loop).
        if (isAskedAgain && this.isShort(block)) void this.load(block);
      }
      while (this.blocks.size > maxBlocks) {
        const oldest = this.blocks.keys().next().value;
        if (oldest === undefined) break;
        this.blocks.delete(oldest);
        this.stale.delete(oldest);
      }
    }
    this.notify();
  }
}
