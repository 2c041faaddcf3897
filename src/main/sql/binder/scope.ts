import type { Expr, PathPart } from '../parser/ast';
import { type SourceSpan, SqlError, SqlErrorCodes } from '../parser/sql-error';
import type { BExpr, Binding, BoundQuery, PathStep } from './bound';
import { fingerprint } from './fingerprint';

export type RefExpr = Extract<Expr, { kind: 'ref' }>;
type AggregateExpr = Extract<Expr, { kind: 'call' }>;

/** How a subquery reaches the query around it (one per subquery in an expression). */
export interface OuterLink {
  scope: Scope;
  /**
   * Binds a name, or an aggregate of the enclosing query's columns, in the enclosing query's
   * clause: a column, a group key's or aggregate's slot, or its own outer value.
   */
  bind(e: RefExpr | AggregateExpr): BExpr;
  /** The outer values the subquery reads (`param` i is params[i]), in the enclosing query's terms. */
  params: BExpr[];
}

/**
 * The tables visible to one SELECT, and the rule for names (inner names first):
 *   `x.y...`  — if x is a table alias (or table name) in this FROM, y is its attribute and the rest a path;
 *               else if x is an alias of an enclosing query (a correlated subquery), the outer row's y;
 *   `y...`    — otherwise y is an attribute of the only table in FROM (several tables: qualify it);
 *   `"a.b"`   — quotes make one name, so an attribute literally called "a.b" is reachable.
 */
export class Scope {
  constructor(
    readonly bindings: Binding[],
    readonly text: string,
    readonly outer?: OuterLink,
  ) {}

  get parent(): Scope | undefined {
    return this.outer?.scope;
  }

  findAlias(name: string): Binding | undefined {
    const exact = this.bindings.filter((b) => b.alias === name);
    if (exact.length === 1) return exact[0];
    const folded = this.bindings.filter((b) => b.alias.toLowerCase() === name.toLowerCase());
    return folded.length === 1 ? folded[0] : undefined;
  }

  /** A name → a column of this query, or a value of the enclosing query's row (`param`). */
  resolve(ref: RefExpr): BExpr {
    const { parts, span } = ref;
    const [first, second] = parts;
    if (first?.kind !== 'name') throw this.error('A column must start with a name', span);
    if (second?.kind === 'name') {
      const binding = this.findAlias(first.name);
      if (binding) {
        checkDerivedColumn(binding, second.name, this.text, second.span);
        return column(binding, second.name, toPath(parts.slice(2)));
      }
      if (this.outerHas(first.name)) return this.outerValue(ref);
    }
    if (this.bindings.length === 1) {
      const binding = this.bindings[0]!;
      if (binding.source.kind === 'derived') checkDerivedColumn(binding, first.name, this.text, first.span);
      return column(binding, first.name, toPath(parts.slice(1)));
    }
    if (this.bindings.length === 0) {
      if (this.outer) return this.outerValue(ref);
      throw this.error(`"${first.name}" cannot be read here: the query has no FROM`, span);
    }
    const aliases = this.bindings.map((b) => b.alias).join(', ');
    throw this.error(
      `"${first.name}" is ambiguous: several tables are joined, so write it as alias.${first.name} (aliases: ${aliases})`,
      span,
    );
  }

  /** `x.y` where x is no alias of this query but one of an enclosing query's. */
  isOuterName(ref: RefExpr): boolean {
    const [first, second] = ref.parts;
    return (
      first?.kind === 'name' &&
      second?.kind === 'name' &&
      !this.findAlias(first.name) &&
      this.outerHas(first.name)
    );
  }

  /** An aggregate of the enclosing query's rows, seen here as that query's value (see bind-expr). */
  outerAggregate(call: AggregateExpr): BExpr {
    if (!this.outer) throw this.error(`${call.name}() reads no table of this query`, call.span);
    return this.outerValue(call);
  }

  private outerHas(alias: string): boolean {
    for (let scope = this.parent; scope; scope = scope.parent) if (scope.findAlias(alias)) return true;
    return false;
  }

  /** One param per distinct outer value; the enclosing query binds it (and may pass it further out). */
  private outerValue(e: RefExpr | AggregateExpr): BExpr {
    const outer = this.outer!;
    const bound = outer.bind(e);
    const print = fingerprint(bound);
    let index = outer.params.findIndex((p) => fingerprint(p) === print);
    if (index < 0) {
      index = outer.params.length;
      outer.params.push(bound);
    }
    return { kind: 'param', index };
  }

  error(message: string, span: SourceSpan): SqlError {
    return new SqlError(SqlErrorCodes.semantic, message, this.text, span);
  }
}

function column(binding: Binding, attr: string, path: PathStep[]): BExpr {
  if (binding.attributes !== 'ALL') binding.attributes.add(attr);
  return { kind: 'col', binding: binding.id, attr, path };
}

function toPath(parts: PathPart[]): PathStep[] {
  return parts.map((part) => (part.kind === 'name' ? part.name : part.index));
}

/** Output names of a bound query, when they are known before running (no `*`). */
export function outputNames(query: BoundQuery): string[] | undefined {
  if (query.kind === 'setop') return outputNames(query.left);
  if (query.outputs.some((o) => o.kind === 'star')) return undefined;
  return query.outputs.map((o) => (o.kind === 'expr' ? o.name : ''));
}

function checkDerivedColumn(binding: Binding, name: string, text: string, span: SourceSpan): void {
  if (binding.source.kind !== 'derived') return;
  const names = outputNames(binding.source.query);
  if (names && !names.includes(name)) {
    throw new SqlError(
      SqlErrorCodes.semantic,
      `"${name}" is not a column of ${binding.alias} (its columns: ${names.join(', ')})`,
      text,
      span,
    );
  }
}
