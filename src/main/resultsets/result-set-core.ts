import { randomUUID } from 'node:crypto';
import type { Item } from '../../shared/dynamo/attribute-value';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { ResultSetWindow } from '../core/context';
import { Arena } from './arena';
import { ByteWriter, decodeItem, encodeItem, NameDictionary } from './item-codec';
import type { ViewSpec } from '../../shared/ipc/query';
import { buildRowView } from '../dynamo/query/row-view';
import { encodeWirePage, type PageMeta } from '../dynamo/query/wire-encoder';

export interface ResultSetMeta {
  connectionId: string;
  table: string;
  keyAttributes: string[];
}

/** A window never decodes more than this many rows, whatever the caller asks for. */
export const MAX_WINDOW = 5000;

class ResultSet {
  readonly names = new NameDictionary();
  readonly arena = new Arena();
  /** How many items carry each top-level attribute, indexed by name id. */
  readonly counts: number[] = [];
  /** Sorted/filtered orders of the rows (row indexes), by view id; see buildRowView. */
  readonly views = new Map<string, Uint32Array>();

  constructor(readonly meta: ResultSetMeta) {}

  columns(): string[] {
    const keys = this.meta.keyAttributes;
    const others: number[] = [];
    this.counts.forEach((count, id) => {
      if (count > 0 && !keys.includes(this.names.name(id))) others.push(id);
    });
    // Most frequent first; ties keep the order in which attributes first appeared.
    others.sort((a, b) => (this.counts[b] ?? 0) - (this.counts[a] ?? 0) || a - b);
    return [...keys, ...others.map((id) => this.names.name(id))];
  }
}

/**
 * The result-set store's logic, free of threads and messages so it can be tested directly.
 * The worker (worker.ts) owns one instance; main talks to it through store.ts.
 */
export class ResultSetCore {
  private readonly sets = new Map<string, ResultSet>();
  private readonly writer = new ByteWriter();

  create(meta: ResultSetMeta): string {
    const id = randomUUID();
    this.sets.set(id, new ResultSet({ ...meta, keyAttributes: [...new Set(meta.keyAttributes)] }));
    return id;
  }

  /** Adds items at the end; returns the number of rows in the set afterwards. */
  append(id: string, items: Item[]): number {
    const set = this.get(id);
    for (const item of items) {
      this.writer.reset();
      for (const name of Object.keys(item)) {
        const nameId = set.names.id(name);
        set.counts[nameId] = (set.counts[nameId] ?? 0) + 1;
      }
      encodeItem(item, set.names, this.writer);
      set.arena.push(this.writer.buffer, this.writer.length);
    }
    return set.arena.count;
  }

  /**
   * Adds the Items of a raw Query/Scan response body, encoded straight from its bytes (see
   * wire-encoder.ts); returns the rows after it and the response's other fields.
   */
  appendWire(id: string, body: Uint8Array): PageMeta & { total: number } {
    const set = this.get(id);
    const meta = encodeWirePage(
      Buffer.from(body.buffer, body.byteOffset, body.byteLength),
      { writer: this.writer, names: set.names },
      (names) => {
        for (const nameId of names) set.counts[nameId] = (set.counts[nameId] ?? 0) + 1;
        set.arena.push(this.writer.buffer, this.writer.length);
      },
    );
    return { ...meta, total: set.arena.count };
  }

  /** Rows [offset, offset + limit), the total and the column order. */
  window(id: string, offset: number, limit: number, viewId?: string): ResultSetWindow {
    const set = this.get(id);
    const view = viewId === undefined ? undefined : set.views.get(viewId);
    if (viewId !== undefined && !view) {
      throw new AppFailure(
        ErrorCodes.notFound,
        'This sorted or filtered view is gone; sort or filter again.',
        false,
        { viewId },
      );
    }
    const total = view ? view.length : set.arena.count;
    const start = Math.max(0, Math.min(Math.floor(offset), total));
    const end = Math.min(total, start + Math.max(0, Math.min(Math.floor(limit), MAX_WINDOW)));
    const rows: Item[] = [];
    for (let i = start; i < end; i++) {
      const { buffer, start: at } = set.arena.locate(view ? (view[i] ?? 0) : i);
      rows.push(decodeItem(buffer, at, set.names));
    }
    return { total, offset: start, rows, columns: set.columns() };
  }

  /**
   * Sorts/filters the rows fetched so far into a new view (replacing older views of the set:
   * the grid shows one order at a time). Rows appended later are not in it until it is rebuilt.
   */
  view(id: string, spec: ViewSpec): { viewId: string; total: number; entities?: Record<string, number> } {
    const set = this.get(id);
    const view = buildRowView(
      set.arena.count,
      (i) => {
        const { buffer, start } = set.arena.locate(i);
        return decodeItem(buffer, start, set.names);
      },
      spec,
    );
    set.views.clear();
    const viewId = randomUUID();
    set.views.set(viewId, view.rows);
    return { viewId, total: view.rows.length, entities: view.entities };
  }

  drop(id: string): boolean {
    return this.sets.delete(id);
  }

  has(id: string): boolean {
    return this.sets.has(id);
  }

  stats(): { resultSets: number; items: number; reservedBytes: number } {
    let items = 0;
    let reservedBytes = 0;
    for (const set of this.sets.values()) {
      items += set.arena.count;
      reservedBytes += set.arena.reservedBytes;
    }
    return { resultSets: this.sets.size, items, reservedBytes };
  }

  private get(id: string): ResultSet {
    const set = this.sets.get(id);
    if (!set) {
      throw new AppFailure(
        ErrorCodes.notFound,
        'This result set no longer exists: it was closed, or its worker restarted. Run the query again.',
        false,
        { resultSetId: id },
      );
    }
    return set;
  }
}
