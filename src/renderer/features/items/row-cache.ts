import type { AppError, Item } from '../../../shared/ipc';
import { call } from '../../ipc/client';

export const BLOCK_ROWS = 100;
const MAX_BLOCKS = 80;

/**
 * The few hundred rows around what the grid shows, fetched a block at a time with
 * resultsets:window. The rest stays in main's worker: the renderer never holds a million rows.
 */
export class RowCache {
  private readonly blocks = new Map<number, Item[]>();
  private readonly pending = new Set<number>();
  private readonly listeners = new Set<() => void>();
  columns: string[] = [];
  error?: AppError;
  /** Whether the rows carry entity prefixes in their keys, decided by the first block that arrives. */
  hasEntities?: boolean;

  constructor(
    readonly resultSetId: string,
    readonly viewId: string | undefined,
    readonly version: number,
    private readonly probe?: (row: Item) => boolean,
  ) {}

  row(index: number): Item | undefined {
    return this.blocks.get(Math.floor(index / BLOCK_ROWS))?.[index % BLOCK_ROWS];
  }

  /** Makes sure rows [first, last] are loaded or loading; stale blocks are dropped oldest first. */
  ensure(first: number, last: number, total: number): void {
    const from = Math.floor(Math.max(0, first) / BLOCK_ROWS);
    const to = Math.floor(Math.max(0, Math.min(last, total - 1)) / BLOCK_ROWS);
    for (let block = from; block <= to; block++) {
      const rows = this.blocks.get(block);
      // A block that was short when fetched may have grown as pages streamed in.
      const isShort =
        rows !== undefined && rows.length < BLOCK_ROWS && block * BLOCK_ROWS + rows.length < total;
      if ((rows === undefined || isShort) && !this.pending.has(block)) void this.load(block);
    }
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async load(block: number): Promise<void> {
    this.pending.add(block);
    const envelope = await call('resultsets:window', {
      resultSetId: this.resultSetId,
      offset: block * BLOCK_ROWS,
      limit: BLOCK_ROWS,
      ...(this.viewId ? { viewId: this.viewId } : {}),
    });
    this.pending.delete(block);
    if (!envelope.ok) this.error = envelope.error;
    else {
      this.blocks.delete(block);
      this.blocks.set(block, envelope.value.rows);
      this.columns = envelope.value.columns;
      const first = envelope.value.rows[0];
      if (this.hasEntities === undefined && first && this.probe) this.hasEntities = this.probe(first);
      while (this.blocks.size > MAX_BLOCKS) {
        const oldest = this.blocks.keys().next().value;
        if (oldest === undefined) break;
        this.blocks.delete(oldest);
      }
    }
    for (const listener of this.listeners) listener();
  }
}
