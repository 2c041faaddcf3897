import type { AttributeValue } from './attribute-value';

/** A partition key value as a map key; rows without one share ''. */
export function keyOf(value: AttributeValue | undefined): string {
  return value === undefined ? '' : JSON.stringify(value);
}

/** One item collection (absent partitionKey: the rows without one), or with `all` every one. */
export interface CollapseChange {
  isCollapsed: boolean;
  all?: boolean;
  partitionKey?: AttributeValue;
}

/**
 * Which item collections of a result set are collapsed. It belongs to the result set, not to a
 * view, so turning item collections off and on, sorting or filtering keeps it. Kept as a default
 * plus the exceptions to it, so "collapse all" also covers collections that stream in later.
 * The worker holds the real one; the renderer keeps a copy it changes as the user asks.
 */
export class CollapseState {
  private isCollapsedByDefault = false;
  private readonly exceptions = new Set<string>();

  isCollapsed(key: string): boolean {
    return this.exceptions.has(key) !== this.isCollapsedByDefault;
  }

  set(key: string, isCollapsed: boolean): void {
    if (isCollapsed === this.isCollapsedByDefault) this.exceptions.delete(key);
    else this.exceptions.add(key);
  }

  setAll(isCollapsed: boolean): void {
    this.isCollapsedByDefault = isCollapsed;
    this.exceptions.clear();
  }

  apply(change: CollapseChange): void {
    if (change.all) this.setAll(change.isCollapsed);
    else this.set(keyOf(change.partitionKey), change.isCollapsed);
  }
}
