import type { AppError, Item } from '../../../shared/ipc';
import type { ResultSetChangeEvent } from '../../../shared/ipc/operations';
import type { CollectionHeader } from '../../../shared/ipc/query';
import { call } from '../../ipc/client';
import { asRequested, onCollapseRequest } from './collapse-requests';

export const BLOCK_ROWS = 100;
const MAX_BLOCKS = 80;

/**
 * One position of the grid: an item (with its item position, which selection uses) or, in
 * item-collection mode, a collection's header.
 */
export type GridEntry =
  | { type: 'item'; item: Item; position: number; mark?: RowMark }
  | { type: 'header'; header: CollectionHeader };

/** A row the user's own writes changed or created since the read. */
export type RowMark = 'changed' | 'new';

type ReplacedRows = NonNullable<ResultSetChangeEvent['replaced']>;

/** The caches a grid shows, by result set: rows a write rewrote reach them without a read. */
const shownCaches = new Map<string, Set<RowCache>>();

/**
 * Shows rows a write rewrote in place (from the `resultsets` event) in every grid of that result
 * set at once. Waiting for the windows to be read again cost a round trip and a frame or two
 * after the save's response; the read still follows, for rows a sort or filter moved.
 */
export function showReplacedRows(resultSetId: string, rows: ReplacedRows): void {
  for (const cache of shownCaches.get(resultSetId) ?? []) cache.replaceRows(rows);
}

/**
 * The few hundred rows around what the grid shows, fetched a block at a time with
 * resultsets:window. The rest stays in main's worker: the renderer never holds a million rows.
 */
export class RowCache {
  private readonly blocks = new Map<number, GridEntry[]>();
  private readonly pending = new Set<number>();
  /** Blocks whose positions moved (a collection collapsed, rows streamed into a collection view). */
  private readonly stale = new Set<number>();
  /**
   * Blocks asked for again while their load was in flight. A read's first window is often
   * answered before its first page lands (0 rows); the grid asks again once the rows are
   * counted, but finds the block loading, and nothing would ask once more after the empty
   * answer: the grid showed placeholder rows for good.
   */
  private readonly askedAgain = new Set<number>();
  /** The row count of the latest ensure(), which a block's answer may be short of. */
  private total = 0;
  private generation = 0;
  private readonly listeners = new Set<() => void>();
  private stopRequests?: () => void;
  columns: string[] = [];
  /** Why the latest window failed (the grid shows it with Retry); cleared by the next answer. */
  error?: AppError;
  private range = { first: 0, last: -1 };
  /** Whether the rows carry entity prefixes in their keys, decided by the first block that arrives. */
  hasEntities?: boolean;

  constructor(
    readonly resultSetId: string,
    readonly viewId: string | undefined,
    readonly version: number,
    private readonly probe?: (row: Item) => boolean,
    /** The row's table key as text: how a rewritten row finds its place in the blocks held. */
    private readonly keyOf?: (row: Item) => string,
  ) {}

  entry(index: number): GridEntry | undefined {
    return this.blocks.get(Math.floor(index / BLOCK_ROWS))?.[index % BLOCK_ROWS];
  }

  /** Makes sure rows [first, last] are loaded or loading; stale blocks are dropped oldest first. */
  ensure(first: number, last: number, total: number): void {
    this.total = total;
    this.range = { first, last };
    const from = Math.floor(Math.max(0, first) / BLOCK_ROWS);
    const to = Math.floor(Math.max(0, Math.min(last, total - 1)) / BLOCK_ROWS);
    for (let block = from; block <= to; block++) {
      const isWanted = !this.blocks.has(block) || this.isShort(block) || this.stale.has(block);
      if (!isWanted) continue;
      if (this.pending.has(block)) this.askedAgain.add(block);
      else void this.load(block);
    }
  }

  /** A block that was short when fetched may have grown as pages streamed in. */
  private isShort(block: number): boolean {
    const rows = this.blocks.get(block);
    return rows !== undefined && rows.length < BLOCK_ROWS && block * BLOCK_ROWS + rows.length < this.total;
  }

  /**
   * Positions from `position` on show other rows now. Their blocks stay on screen until their
   * fresh copies arrive (a collapse looks instant instead of flashing empty rows).
   */
  invalidateFrom(position: number): void {
    this.generation += 1;
    const from = Math.floor(Math.max(0, position) / BLOCK_ROWS);
    for (const block of this.blocks.keys()) if (block >= from) this.stale.add(block);
  }

  /** Listeners hear of loaded blocks and of collapse changes the user asked for (see collapse-requests). */
  subscribe(listener: () => void): () => void {
    if (this.listeners.size === 0) {
      this.stopRequests = onCollapseRequest(this.resultSetId, () => this.takeRequests());
      const caches = shownCaches.get(this.resultSetId) ?? new Set<RowCache>();
      shownCaches.set(this.resultSetId, caches.add(this));
    }
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      this.stopRequests?.();
      this.stopRequests = undefined;
      const caches = shownCaches.get(this.resultSetId);
      caches?.delete(this);
      if (caches?.size === 0) shownCaches.delete(this.resultSetId);
    };
  }

  /** Rewritten rows replace the held rows with the same key, keeping their places. */
  replaceRows(rows: ReplacedRows): void {
    const { keyOf } = this;
    if (!keyOf || rows.length === 0) return;
    const byKey = new Map(rows.map((row) => [keyOf(row.item), row]));
    let isChanged = false;
    for (const entries of this.blocks.values())
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i];
        const row = entry?.type === 'item' ? byKey.get(keyOf(entry.item)) : undefined;
        if (entry?.type !== 'item' || !row) continue;
        entries[i] = {
          type: 'item',
          item: row.item,
          position: entry.position,
          ...(row.mark ? { mark: row.mark } : {}),
        };
        isChanged = true;
      }
    if (isChanged) this.notify();
  }

  /** Headers already on screen show a collapse at once, before their blocks come back. */
  private takeRequests(): void {
    for (const [block, entries] of this.blocks) this.blocks.set(block, this.requested(entries));
    this.notify();
  }

  /** Asks again for the rows in view after a failed window (a failed block is not kept). */
  retry(): void {
    this.error = undefined;
    this.notify();
    this.ensure(this.range.first, this.range.last, this.total);
  }

  private requested(entries: GridEntry[]): GridEntry[] {
    return entries.map((entry) => {
      if (entry.type !== 'header') return entry;
      const header = asRequested(this.resultSetId, entry.header);
      return header === entry.header ? entry : { type: 'header', header };
    });
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  private async load(block: number): Promise<void> {
    this.pending.add(block);
    const sentIn = this.generation;
    const envelope = await call('resultsets:window', {
      resultSetId: this.resultSetId,
      offset: block * BLOCK_ROWS,
      limit: BLOCK_ROWS,
      ...(this.viewId ? { viewId: this.viewId } : {}),
    });
    this.pending.delete(block);
    const isAskedAgain = this.askedAgain.delete(block);
    if (!envelope.ok) this.error = envelope.error;
    else {
      this.error = undefined;
      this.blocks.delete(block);
      this.blocks.set(block, this.requested(toEntries(envelope.value)));
      this.columns = envelope.value.columns;
      const first = envelope.value.rows[0];
      if (this.hasEntities === undefined && first && this.probe) this.hasEntities = this.probe(first);
      // Answered from before a later invalidation: show it, but fetch it again.
      if (sentIn !== this.generation) void this.load(block);
      else {
        this.stale.delete(block);
        // Rows arrived while it was in flight: fetch them too (once per ask, so never a loop).
        if (isAskedAgain && this.isShort(block)) void this.load(block);
      }
      while (this.blocks.size > MAX_BLOCKS) {
        const oldest = this.blocks.keys().next().value;
        if (oldest === undefined) break;
        this.blocks.delete(oldest);
        this.stale.delete(oldest);
      }
    }
    this.notify();
  }
}

interface WindowValue {
  offset: number;
  rows: Item[];
  headers?: CollectionHeader[];
  positions?: number[];
  marks?: { at: number; mark: RowMark }[];
}

/** Interleaves a window's headers with its rows, in position order. */
function toEntries({ offset, rows, headers = [], positions, marks = [] }: WindowValue): GridEntry[] {
  const markAt = new Map(marks.map(({ at, mark }) => [at, mark]));
  const entries: GridEntry[] = [];
  let next = 0;
  for (const header of headers) {
    while (entries.length < header.at && next < rows.length) entries.push(itemEntry(next++));
    entries.push({ type: 'header', header });
  }
  while (next < rows.length) entries.push(itemEntry(next++));
  return entries;

  function itemEntry(i: number): GridEntry {
    const mark = markAt.get(i);
    return {
      type: 'item',
      item: rows[i] ?? {},
      position: positions?.[i] ?? offset + i,
      ...(mark ? { mark } : {}),
    };
  }
}
