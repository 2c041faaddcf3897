import type { EntityView } from '../../src/shared/sql/catalog';

/**
 * Entity views of one table told apart by their sort key's prefix (`users`: SK begins with
 * `USER#`), as the catalog detects them in a single-table design.
 */
export function sortKeyViews(table: string, prefixes: Readonly<Record<string, string>>): EntityView[] {
  return Object.entries(prefixes).map(([name, prefix]) => ({
    name,
    table,
    conditions: [{ attribute: 'SK', op: 'begins_with', values: [{ S: prefix }] }],
    source: 'detected',
  }));
}
