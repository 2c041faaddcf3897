import type { AttributeValue } from '../../../shared/dynamo/attribute-value';

/** A partition key value as a map key; rows without one share ''. */
export function keyOf(value: AttributeValue | undefined): string {
  return value === undefined ? '' : JSON.stringify(value);
}

/**
 * Which item collections of a result set are collapsed. It belongs to the result set, not to a
 * view, so turning item collections off and on, sorting or filtering keeps it. Kept as a default
 * plus the exceptions to it, so "collapse all" also covers collections that stream in later.
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
}
