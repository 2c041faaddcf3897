import type { ColumnarTable } from '../executor/table';
import type { FetchSpec } from '../planner/plan';

export interface CacheEntry {
  cacheKey: string;
  tableName: string;
  table: ColumnarTable;
  /** Attributes fetched; undefined when whole items were fetched. */
  projection?: ReadonlySet<string>;
  /** A Scan without a filter: the whole table, which can serve any read of it. */
  wholeTable: boolean;
  fetchedAt: number;
  usedAt: number;
  items: number;
}

export interface CacheSummary {
  table: string;
  description: string;
  items: number;
  fetchedAt: string;
}

function covers(entry: CacheEntry, spec: FetchSpec): boolean {
  if (!entry.projection) return true;
  if (!spec.projection) return false;
  return spec.projection.every((a) => entry.projection!.has(a));
}

/**
 * Fetched tables per connection, reused until refreshed. Only complete reads are kept (a
 * truncated or cancelled read would silently answer later queries from part of the data).
 * Bounded by items held: the least recently used entries go first.
 */
export class FetchCache {
  private readonly byConnection = new Map<string, CacheEntry[]>();

  constructor(private readonly maxItems = 3_000_000) {}

  find(connectionId: string, spec: FetchSpec): CacheEntry | undefined {
    const entries = this.byConnection.get(connectionId) ?? [];
    const exact = entries.find((e) => e.cacheKey === spec.cacheKey && covers(e, spec));
    const whole = entries.find((e) => e.wholeTable && e.tableName === spec.table.name && covers(e, spec));
    return exact ?? whole;
  }

  touch(entry: CacheEntry): void {
    entry.usedAt = Date.now();
  }

  put(connectionId: string, spec: FetchSpec, table: ColumnarTable, items: number): void {
    const entries = (this.byConnection.get(connectionId) ?? []).filter((e) => e.cacheKey !== spec.cacheKey);
    const now = Date.now();
    entries.push({
      cacheKey: spec.cacheKey,
      tableName: spec.table.name,
      table,
      projection: spec.projection ? new Set(spec.projection) : undefined,
      wholeTable: spec.access.operation === 'Scan' && !spec.filter,
      fetchedAt: now,
      usedAt: now,
      items,
    });
    this.byConnection.set(connectionId, entries);
    this.evict();
  }

  private evict(): void {
    const all = [...this.byConnection.values()].flat().sort((a, b) => a.usedAt - b.usedAt);
    let total = all.reduce((sum, e) => sum + e.items, 0);
    for (const entry of all) {
      if (total <= this.maxItems) break;
      for (const [id, entries] of this.byConnection)
        this.byConnection.set(
          id,
          entries.filter((e) => e !== entry),
        );
      total -= entry.items;
    }
  }

  list(connectionId: string): CacheSummary[] {
    return (this.byConnection.get(connectionId) ?? []).map((e) => ({
      table: e.tableName,
      description: describeKey(e.cacheKey),
      items: e.items,
      fetchedAt: new Date(e.fetchedAt).toISOString(),
    }));
  }

  clear(connectionId?: string, table?: string): number {
    if (connectionId !== undefined && table !== undefined) {
      const entries = this.byConnection.get(connectionId) ?? [];
      const kept = entries.filter((e) => e.tableName !== table);
      this.byConnection.set(connectionId, kept);
      return entries.length - kept.length;
    }
    if (connectionId === undefined) {
      const count = [...this.byConnection.values()].reduce((n, e) => n + e.length, 0);
      this.byConnection.clear();
      return count;
    }
    const count = this.byConnection.get(connectionId)?.length ?? 0;
    this.byConnection.delete(connectionId);
    return count;
  }
}

function describeKey(key: string): string {
  const parsed = JSON.parse(key) as { access: { operation: string; index?: string }; filter: string | null };
  const on = parsed.access.index ? ` on ${parsed.access.index}` : '';
  return `${parsed.access.operation}${on}${parsed.filter ? ` where ${parsed.filter}` : ''}`;
}
