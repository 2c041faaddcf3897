import type { AppError, Envelope } from '../../../shared/errors';
import type { Item } from '../../../shared/ipc';
import { FIRST_WINDOW_ROWS, type ResultSetChangeEvent } from '../../../shared/ipc/operations';
import type { CollectionHeader } from '../../../shared/ipc/query';
import { call } from '../../ipc/client';
import { WindowCache } from '../../ui/window-cache';
import { asRequested, onCollapseRequest } from './collapse-requests';

/** The item grid's block: what a fresh read's first page event carries (FIRST_WINDOW_ROWS). */
export const BLOCK_ROWS = FIRST_WINDOW_ROWS;
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

/** A fresh read's first rows, from its first page event, until the grid's first block takes them. */
const firstWindows = new Map<string, { rows: Item[]; columns: string[] }>();

/**
 * Keeps the first rows a read's first page event carried, for the grid's first block: asking
 * for them after the event cost a round trip (and a worker decode) on every table's first open.
 */
export function keepFirstWindow(resultSetId: string, first: { rows: Item[]; columns: string[] }): void {
  // Only the newest few: a grid that never shows them (item collections, a view) leaves them.
  if (firstWindows.size >= 8) firstWindows.delete(firstWindows.keys().next().value as string);
  firstWindows.set(resultSetId, first);
}

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
 * The item grid's window cache: the one renderer window cache (ui/window-cache) over
 * resultsets:window, with what only result sets have — views, collection headers interleaved with
 * rows, marks, rows a write rewrote, and collapses the user asked for.
 */
export class RowCache {
  private readonly windows: WindowCache<GridEntry>;
  private stopRequests?: () => void;
  columns: string[] = [];
  /** Whether the rows carry entity prefixes in their keys, decided by the first block that arrives. */
  hasEntities?: boolean;

  constructor(
    readonly resultSetId: string,
    readonly viewId: string | undefined,
    readonly version: number,
    private readonly probe?: (row: Item) => boolean,
    /** The row's table key as text: how a rewritten row finds its place in the blocks held. */
    private readonly keyOf?: (row: Item) => string,
  ) {
    this.windows = new WindowCache({
      blockRows: BLOCK_ROWS,
      maxBlocks: MAX_BLOCKS,
      read: (o, l) => this.read(o, l),
    });
  }

  /** Why the latest window failed (the grid shows it with Retry); cleared by the next answer. */
  get error(): AppError | undefined {
    return this.windows.error;
  }

  entry(index: number): GridEntry | undefined {
    return this.windows.row(index);
  }

  /** Rows [first, last] for a range copy: held ones at once, the rest read without keeping them. */
  readRange(first: number, last: number): Promise<Envelope<GridEntry[]>> {
    return this.windows.readRange(first, last);
  }

  /** Makes sure rows [first, last] are loaded or loading; stale blocks are dropped oldest first. */
  ensure(first: number, last: number, total: number): void {
    this.windows.ensure(first, last, total);
  }

  /**
   * Positions from `position` on show other rows now. Their blocks stay on screen until their
   * fresh copies arrive (a collapse looks instant instead of flashing empty rows).
   */
  invalidateFrom(position: number): void {
    this.windows.invalidateFrom(position);
  }

  /** Listeners hear of loaded blocks and of collapse changes the user asked for (see collapse-requests). */
  subscribe(listener: () => void): () => void {
    if (this.windows.listenerCount === 0) {
      this.stopRequests = onCollapseRequest(this.resultSetId, () => this.takeRequests());
      const caches = shownCaches.get(this.resultSetId) ?? new Set<RowCache>();
      shownCaches.set(this.resultSetId, caches.add(this));
    }
    const stop = this.windows.subscribe(listener);
    return () => {
      stop();
      if (this.windows.listenerCount > 0) return;
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
    const isChanged = this.windows.rewriteRows((entry) => {
      const row = entry.type === 'item' ? byKey.get(keyOf(entry.item)) : undefined;
      if (entry.type !== 'item' || !row) return entry;
      return {
        type: 'item',
        item: row.item,
        position: entry.position,
        ...(row.mark ? { mark: row.mark } : {}),
      };
    });
    if (isChanged) this.windows.notify();
  }

  /** Headers already on screen show a collapse at once, before their blocks come back. */
  private takeRequests(): void {
    this.windows.rewriteRows((entry) => this.requested(entry));
    this.windows.notify();
  }

  /** Asks again for the rows in view after a failed window (a failed block is not kept). */
  retry(): void {
    this.windows.retry();
  }

  private requested(entry: GridEntry): GridEntry {
    if (entry.type !== 'header') return entry;
    const header = asRequested(this.resultSetId, entry.header);
    return header === entry.header ? entry : { type: 'header', header };
  }

  /**
   * Takes the rows a fresh read's first page event brought as the first block, so the render
   * that follows the event draws them: reading them through ensure() would wait for the effect
   * after that render's paint, one frame of grey placeholders more. They are the rows in fetched
   * order, so only a grid with no view takes them.
   */
  takeFirstWindow(): void {
    if (this.viewId || this.windows.row(0) !== undefined) return;
    const first = firstWindows.get(this.resultSetId);
    if (!first || first.rows.length === 0) return;
    firstWindows.delete(this.resultSetId);
    const answer = this.answer({ offset: 0, ...first });
    if (answer.ok) this.windows.hold(0, answer.value);
  }

  private async read(offset: number, limit: number): Promise<Envelope<GridEntry[]>> {
    const envelope = await call('resultsets:window', {
      resultSetId: this.resultSetId,
      offset,
      limit,
      ...(this.viewId ? { viewId: this.viewId } : {}),
    });
    if (!envelope.ok) return envelope;
    return this.answer(envelope.value);
  }

  private answer(value: WindowValue & { columns: string[] }): Envelope<GridEntry[]> {
    this.columns = value.columns;
    const first = value.rows[0];
    if (this.hasEntities === undefined && first && this.probe) this.hasEntities = this.probe(first);
    return { ok: true, value: toEntries(value).map((entry) => this.requested(entry)) };
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
