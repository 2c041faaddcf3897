import type { FetchPlan, SqlPlan } from '../../../shared/sql/plan';
import type { TableInfo } from '../../../shared/sql/catalog';
import type { Binding, BoundQuery } from '../binder/bound';
import { type Access, chooseAccess } from './access-path';
import { type DCond, toDCond } from './conditions';
import { estimate } from './estimate';
import { showCondition } from './expression-builder';
import { baseBindings } from './walk';
import { EXPORT_REASON, exportEstimate } from '../catalog/export-tables';

/** One DynamoDB read (possibly several requests: pages, segments, batches) serving some bindings. */
export interface FetchSpec {
  id: string;
  table: TableInfo;
  access: Access;
  filter?: DCond;
  /** Top-level attributes to fetch; undefined fetches whole items. */
  projection?: string[];
  bindings: Binding[];
  reason: string;
  /** Same table, access and filter → same items; the cache is keyed by this. */
  cacheKey: string;
  maxItems: number;
}

export interface CachedInfo {
  fetchedAt: number;
  items: number;
}

export interface PlanOptions {
  maxItems: number;
  /** The cache's answer for a spec: data that can serve it, if any. */
  cached?: (spec: FetchSpec) => CachedInfo | undefined;
  /**
   * Internal (tests): false reads every table whole, with no key condition or filter, so a
   * result can be compared with and without pushdown. The engine applies every condition anyway.
   */
  pushdown?: boolean;
}

function flatten(c: DCond): DCond[] {
  return c.op === 'and' ? c.parts.flatMap(flatten) : [c];
}

function conditionsOf(binding: Binding): DCond[] {
  const exprs = binding.nullable ? [...binding.local, ...binding.after] : binding.local;
  return exprs
    .map((e) => toDCond(e, binding.id, binding.nullable))
    .filter((c): c is DCond => c !== undefined)
    .flatMap(flatten);
}

function and(conds: DCond[]): DCond | undefined {
  if (conds.length === 0) return undefined;
  return conds.length === 1 ? conds[0] : { op: 'and', parts: conds };
}

function keyAttributes(table: TableInfo): string[] {
  return [table.keys.partitionKey.name, ...(table.keys.sortKey ? [table.keys.sortKey.name] : [])];
}

function projectionOf(bindings: Binding[], table: TableInfo): string[] | undefined {
  if (bindings.some((b) => b.attributes === 'ALL')) return undefined;
  const names = new Set(keyAttributes(table));
  for (const b of bindings) for (const a of b.attributes as Set<string>) names.add(a);
  return [...names];
}

function cacheKey(table: TableInfo, access: Access, filter: DCond | undefined): string {
  const a = access.operation === 'Scan' ? { operation: 'Scan' } : access;
  return JSON.stringify({ table: table.name, access: a, filter: filter ? showCondition(filter) : null });
}

/** A statement's reads, and the read that serves each base binding. */
export interface FetchSpecs {
  specs: readonly FetchSpec[];
  forBinding: ReadonlyMap<Binding, FetchSpec>;
}

/** The reads and their description, which says what the fetch cache holds now. */
export function planFetches(query: BoundQuery, options: PlanOptions): FetchSpecs & { plan: SqlPlan } {
  const { specs, forBinding } = fetchSpecs(query, options);
  return { specs, forBinding, plan: describePlan(specs, options) };
}

/**
 * Decides the DynamoDB reads for a bound statement. Bindings whose best read is a Scan of the
 * same table share one Scan (with the OR of their filters), so a self-join or two entity views
 * of one table read it once. Identical reads are made once. Nothing in the answer depends on
 * the fetch cache: a prepared statement keeps it (prepared-statements.ts).
 */
export function fetchSpecs(
  query: BoundQuery,
  options: Pick<PlanOptions, 'maxItems' | 'pushdown'>,
): FetchSpecs {
  const specs: FetchSpec[] = [];
  const forBinding = new Map<Binding, FetchSpec>();
  for (const binding of baseBindings(query)) {
    if (binding.source.kind !== 'base') continue;
    const table = binding.source.table;
    const conds = options.pushdown === false ? [] : conditionsOf(binding);
    const choice = table.export
      ? {
          access: { operation: 'Scan' as const, segments: 1 },
          consumed: new Set(conds),
          reason: EXPORT_REASON,
        }
      : chooseAccess(table, conds, binding.attributes);
    const filter = and(conds.filter((c) => !choice.consumed.has(c)));
    const key = cacheKey(table, choice.access, filter);
    let spec = specs.find(
      (s) =>
        s.cacheKey === key ||
        (s.access.operation === 'Scan' && choice.access.operation === 'Scan' && s.table.name === table.name),
    );
    if (spec && spec.cacheKey !== key) {
      // Two Scans of one table: one Scan whose filter keeps what either needs.
      spec.filter = spec.filter && filter ? { op: 'or', parts: [spec.filter, filter] } : undefined;
      spec.cacheKey = cacheKey(table, spec.access, spec.filter);
      spec.reason = `${spec.reason}; shared by ${spec.bindings.length + 1} FROM entries so the table is scanned once`;
    }
    if (!spec) {
      spec = {
        id: `f${specs.length + 1}`,
        table,
        access: choice.access,
        filter,
        bindings: [],
        reason: choice.reason,
        cacheKey: key,
        maxItems: options.maxItems,
      };
      specs.push(spec);
    }
    spec.bindings.push(binding);
    spec.projection = projectionOf(spec.bindings, table);
    forBinding.set(binding, spec);
  }
  return { specs, forBinding };
}

function describeKey(access: Access): string | undefined {
  if (access.operation !== 'Query') return undefined;
  const p = access.partition;
  const parts: DCond[] = [
    p.values.length === 1
      ? { op: '=', path: [p.name], value: p.values[0]! }
      : { op: 'in', path: [p.name], values: p.values },
  ];
  for (const e of access.equalities ?? []) parts.push({ op: '=', path: [e.name], value: e.value });
  const s = access.sort;
  if (s) {
    if (s.op === 'between')
      parts.push({ op: 'between', path: [s.name], low: s.values[0]!, high: s.values[1]! });
    else if (s.op === 'begins_with') parts.push({ op: 'begins_with', path: [s.name], value: s.values[0]! });
    else parts.push({ op: s.op, path: [s.name], value: s.values[0]! });
  }
  return parts.map(showCondition).join(' AND ');
}

export function describePlan(specs: readonly FetchSpec[], options: Pick<PlanOptions, 'cached'>): SqlPlan {
  const fetches: FetchPlan[] = specs.map((spec) => {
    const views = spec.bindings.map((b) =>
      b.source.kind === 'base' && b.source.view ? b.source.view : undefined,
    );
    const share = views.every((v) => v?.share !== undefined)
      ? Math.min(
          1,
          views.reduce((sum, v) => sum + (v?.share ?? 0), 0),
        )
      : undefined;
    const cached = options.cached?.(spec);
    const access = spec.access;
    return {
      id: spec.id,
      serves: spec.bindings.map((b) =>
        b.source.kind === 'base' && b.source.view
          ? `${b.alias} (view ${b.source.view.name})`
          : b.alias === spec.table.name
            ? b.alias
            : `${b.alias} (${spec.table.name})`,
      ),
      call: {
        operation: spec.table.export ? 'ReadExport' : access.operation,
        table: spec.table.name,
        index: access.operation === 'Query' ? access.index : undefined,
        keyCondition: describeKey(access),
        filter: spec.filter ? showCondition(spec.filter) : undefined,
        projection: spec.projection,
        segments: access.operation === 'Scan' ? access.segments : undefined,
        keys:
          access.operation === 'Query'
            ? access.partition.values.length
            : access.operation === 'Scan'
              ? undefined
              : access.keys.length,
      },
      reason: spec.reason,
      estimate: spec.table.export ? exportEstimate(spec.table.export) : estimate(spec.table, access, share),
      cached: cached
        ? { fetchedAt: new Date(cached.fetchedAt).toISOString(), items: cached.items }
        : undefined,
      maxItems: spec.maxItems,
    };
  });
  const live = fetches.filter((f) => !f.cached);
  const notes: string[] = [];
  if (fetches.some((f) => f.cached))
    notes.push('Some data comes from the cache; run with Refresh to read it again.');
  if (live.some((f) => f.call.operation === 'ReadExport'))
    notes.push(
      "An export is read from its files in S3 or on disk: it uses none of the table's read capacity.",
    );
  if (live.some((f) => f.call.operation === 'Scan'))
    notes.push('A Scan reads the whole table; conditions on a partition key turn it into a Query.');
  return {
    fetches,
    totals: {
      itemsRead: live.reduce((sum, f) => sum + f.estimate.itemsRead, 0),
      rcu: live.reduce((sum, f) => sum + f.estimate.rcu, 0),
      calls: live.length,
    },
    notes,
  };
}
