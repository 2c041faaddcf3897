import type { BoundQuery, BoundSelect } from '../binder/bound';
import { type Correlation, type Decorrelated, decorrelated } from './decorrelate';
import { withConditionsInDerived } from './push-into-derived';

/**
 * The rewrites `executeQuery` makes of a bound query before it runs it: each select with its
 * derived tables' conditions moved in (push-into-derived.ts), and each correlated subquery's
 * uncorrelated form (decorrelate.ts), or null where it has none. They are pure functions of the
 * binding and hold no data, so one run keeps them for its statement, and a prepared statement
 * keeps them with its binding for every re-run (prepared-statements.ts): made afresh they were
 * 4–5% of a re-run of a small statement (docs/PERFORMANCE.md, session 23, sqlfixed3). Maps held
 * by the statement, not module-level WeakMaps keyed by bound queries: those kept every
 * statement's bound objects through V8's young-generation collections (session 20, sqlfixed).
 */
export class QueryRewrites {
  private readonly pushed = new Map<BoundSelect, BoundSelect>();
  private readonly uncorrelated = new Map<BoundQuery, Decorrelated | null>();

  /** The select as it runs: a derived table's conditions moved into it. */
  select(query: BoundSelect): BoundSelect {
    let select = this.pushed.get(query);
    if (!select) this.pushed.set(query, (select = withConditionsInDerived(query)));
    return select;
  }

  /** A correlated subquery as one uncorrelated query; null when it has no such form. */
  decorrelated(query: BoundQuery, use: Correlation, paramCount: number): Decorrelated | null {
    let rewrite = this.uncorrelated.get(query);
    if (rewrite === undefined)
      this.uncorrelated.set(query, (rewrite = decorrelated(query, use, paramCount) ?? null));
    return rewrite;
  }
}
