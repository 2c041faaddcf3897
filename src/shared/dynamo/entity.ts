import type { KeySchema } from '../ipc/tables';
import type { AttributeValue, Item } from './attribute-value';
import { ownValue } from './proto-keys';

/**
 * Entity types of a single-table design, read from key prefixes: `ORDER#2026-11-01` is an
 * ORDER, `PROFILE` is a PROFILE. The sort key names the entity in most designs (PK=USER#1,
 * SK=ORDER#9 is an order of user 1), so it wins; the partition key is the fallback.
 */
const PREFIX = /^([A-Za-z][A-Za-z0-9_-]{0,39})[#|:]/;
const BARE = /^[A-Z][A-Z0-9_]{1,39}$/;

function prefixOf(value: AttributeValue | undefined, allowBare: boolean): string | undefined {
  if (!value || !('S' in value)) return undefined;
  const match = PREFIX.exec(value.S);
  if (match) return match[1]?.toUpperCase();
  return allowBare && BARE.test(value.S) ? value.S : undefined;
}

export function entityOf(item: Item, keys: KeySchema): string | undefined {
  const sk = keys.sortKey ? prefixOf(ownValue(item, keys.sortKey.name), true) : undefined;
  return sk ?? prefixOf(ownValue(item, keys.partitionKey.name), false);
}
