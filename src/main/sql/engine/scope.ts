import type { PathPart } from '../parser/ast';
import { type SourceSpan, SqlError, SqlErrorCodes } from '../parser/sql-error';
import type { Binding, BoundQuery, PathStep } from './bound';

/**
 * The tables visible to one SELECT, and the rule for names:
 *   `x.y...`  — if x is a table alias (or table name) in FROM, y is its attribute and the rest a path;
 *   `y...`    — otherwise y is an attribute of the only table in FROM (several tables: qualify it);
 *   `"a.b"`   — quotes make one name, so an attribute literally called "a.b" is reachable.
 */
export class Scope {
  constructor(
    readonly bindings: Binding[],
    readonly text: string,
    readonly parent?: Scope,
  ) {}

  findAlias(name: string): Binding | undefined {
    const exact = this.bindings.filter((b) => b.alias === name);
    if (exact.length === 1) return exact[0];
    const folded = this.bindings.filter((b) => b.alias.toLowerCase() === name.toLowerCase());
    return folded.length === 1 ? folded[0] : undefined;
  }

  resolve(parts: PathPart[], span: SourceSpan): { binding: Binding; attr: string; path: PathStep[] } {
    const [first, second] = parts;
    if (first?.kind !== 'name') throw this.error('A column must start with a name', span);
    if (second?.kind === 'name') {
      const binding = this.findAlias(first.name);
      if (binding) {
        checkDerivedColumn(binding, second.name, this.text, second.span);
        return { binding, attr: second.name, path: toPath(parts.slice(2)) };
      }
      if (this.bindings.length !== 1 && this.outerHas(first.name)) throw this.correlated(first.name, span);
    }
    if (this.bindings.length === 1) {
      const binding = this.bindings[0]!;
      if (binding.source.kind === 'derived') checkDerivedColumn(binding, first.name, this.text, first.span);
      return { binding, attr: first.name, path: toPath(parts.slice(1)) };
    }
    if (this.bindings.length === 0) {
      if (this.outerHas(first.name) || this.parent) throw this.correlated(first.name, span);
      throw this.error(`"${first.name}" cannot be read here: the query has no FROM`, span);
    }
    const aliases = this.bindings.map((b) => b.alias).join(', ');
    throw this.error(
      `"${first.name}" is ambiguous: several tables are joined, so write it as alias.${first.name} (aliases: ${aliases})`,
      span,
    );
  }

  private outerHas(alias: string): boolean {
    for (let scope = this.parent; scope; scope = scope.parent) if (scope.findAlias(alias)) return true;
    return false;
  }

  private correlated(name: string, span: SourceSpan): SqlError {
    return new SqlError(
      SqlErrorCodes.unsupported,
      `"${name}" refers to the outer query; correlated subqueries are not supported yet, rewrite it as a JOIN`,
      this.text,
      span,
    );
  }

  error(message: string, span: SourceSpan): SqlError {
    return new SqlError(SqlErrorCodes.semantic, message, this.text, span);
  }
}

function toPath(parts: PathPart[]): PathStep[] {
  return parts.map((part) => (part.kind === 'name' ? part.name : part.index));
}

/** Output names of a bound query, when they are known before running (no `*`). */
export function outputNames(query: BoundQuery): string[] | undefined {
  if (query.kind === 'union') return outputNames(query.left);
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
