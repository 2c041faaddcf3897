import { bindStatement } from './binder/bind-query';
import type { BindingSource, BoundQuery } from './binder/bound';
import { type CatalogView, resolveTable } from './catalog/resolve-table';
import type { Statement } from './parser/ast';
import { QueryRewrites } from './executor/query-rewrites';
import { parseStatement } from './parser/parser';
import type { SourceSpan } from './parser/sql-error';
import { fetchSpecs, type FetchSpecs } from './planner/plan';

/** A FROM name as the binder resolved it, and the catalog's answer, kept to compare. */
interface Resolution {
  name: string;
  schema: string | undefined;
  span: SourceSpan;
  answer: BindingSource;
}

/**
 * The bound query, the catalog answers it was bound with, its reads per plan option and the
 * executor's rewrites of it.
 */
interface Binding {
  query: BoundQuery;
  resolutions: Resolution[];
  specs: Map<string, FetchSpecs>;
  rewrites: QueryRewrites;
}

/**
 * One statement text, parsed once, and its last binding over a catalog. The binder reads the
 * catalog only through `resolveTable`, so a binding is reused exactly when every FROM name it
 * resolved resolves to the same table, view and export description again (the same objects, or
 * equal ones: keys, indexes, item counts, view conditions); a reloaded table, another view,
 * another connection's table of that name is bound again. Nothing here holds data: the fetched tables,
 * the compiled expressions and everything else a run makes stay the run's (execute.ts).
 */
export class PreparedStatement {
  readonly statement: Statement;
  private binding?: Binding;

  constructor(readonly text: string) {
    this.statement = parseStatement(text);
  }

  bound(catalog: CatalogView): BoundQuery {
    const kept = this.binding;
    if (kept && kept.resolutions.every((r) => sameAnswer(catalog, r, this.text))) return kept.query;
    const resolutions: Resolution[] = [];
    const query = bindStatement(this.statement, {
      text: this.text,
      resolveTable: (name, schema, span) => {
        const source = resolveTable(catalog, name, schema, span, this.text);
        resolutions.push({ name, schema, span, answer: source });
        return source;
      },
    });
    this.binding = { query, resolutions, specs: new Map(), rewrites: new QueryRewrites() };
    return query;
  }

  /**
   * The DynamoDB reads of `query` (the statement's last binding) for these options, planned once
   * per binding and options: a spec names no cached data, so a re-run asks the fetch cache again.
   */
  fetchSpecs(query: BoundQuery, options: { maxItems: number; pushdown?: boolean }): FetchSpecs {
    const binding = this.binding;
    if (binding?.query !== query) return fetchSpecs(query, options);
    const key = `${options.maxItems}:${options.pushdown !== false}`;
    let specs = binding.specs.get(key);
    if (!specs) binding.specs.set(key, (specs = fetchSpecs(query, options)));
    return specs;
  }

  /** The executor's rewrites of `query` (the statement's last binding), kept for its re-runs. */
  rewrites(query: BoundQuery): QueryRewrites | undefined {
    return this.binding?.query === query ? this.binding.rewrites : undefined;
  }
}

/**
 * Whether the catalog answers the FROM name as it did. A description is not changed once handed
 * to the binder (a change is a new object: the catalog describes a table afresh, the renderer
 * sends its views with every statement), so the same objects answer at once; equal copies are
 * compared field by field, and kept in place of the old ones so the next run meets them as the
 * same objects. Before this was JSON text made at every bind and run: ~10% of a re-run of a
 * small statement (docs/PERFORMANCE.md, session 23, sqlfixed3).
 */
function sameAnswer(catalog: CatalogView, r: Resolution, text: string): boolean {
  let source: BindingSource;
  try {
    source = resolveTable(catalog, r.name, r.schema, r.span, text);
  } catch {
    return false;
  }
  const kept = r.answer;
  if (source.kind !== 'base' || kept.kind !== 'base') return false;
  if (source.table === kept.table && source.view === kept.view) return true;
  if (!samePlainData(source.table, kept.table) || !samePlainData(source.view, kept.view)) return false;
  r.answer = source;
  return true;
}

/**
 * Equality of JSON-like descriptions: the same keys (own, in any order) with equal values. Any
 * other object (a Date, a typed array) is equal only to itself, so the answer is never a stale yes.
 */
function samePlainData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const prototype = Object.getPrototypeOf(a) as unknown;
  if (prototype !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!samePlainData(a[i], b[i])) return false;
    return true;
  }
  if (prototype !== Object.prototype && prototype !== null) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let keys = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key)) continue;
    keys++;
    if (!Object.hasOwn(right, key) || !samePlainData(left[key], right[key])) return false;
  }
  for (const key in right) if (Object.hasOwn(right, key)) keys--;
  return keys === 0;
}

/**
 * The plan cache of a session, as a database keeps one: the same text in the same scope (a
 * connection) reuses its parse, its binding while the catalog answers the same, and its reads.
 * Least recently used statements go past `limit`. A text that does not parse is not kept.
 */
export class PreparedStatements {
  private readonly entries = new Map<string, PreparedStatement>();

  constructor(private readonly limit = 100) {}

  get(scope: string, text: string): PreparedStatement {
    const key = `${scope}\u0000${text}`;
    let entry = this.entries.get(key);
    if (entry) this.entries.delete(key);
    else entry = new PreparedStatement(text);
    this.entries.set(key, entry);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }
}
