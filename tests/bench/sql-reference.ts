import type { SdkItem } from './sql-data';

/**
 * The hand-written references the engine is measured against: what a person would write for
 * these two questions over the fetched items (the SDK's item objects), with Maps and doubles.
 * Doubles make the reference's sums inexact; the benchmark reports how far off they are.
 */
export function referenceJoinGroup(items: readonly SdkItem[]): Map<string, { count: number; sum: number }> {
  const users = new Map<string, SdkItem>();
  for (const item of items)
    if (item.SK?.S?.startsWith('USER#') && item.userId?.S !== undefined) users.set(item.userId.S, item);
  const groups = new Map<string, { count: number; sum: number }>();
  for (const item of items) {
    if (!item.SK?.S?.startsWith('ORDER#') || item.userId?.S === undefined) continue;
    const user = users.get(item.userId.S);
    const name = user?.name?.S;
    if (name === undefined) continue;
    let group = groups.get(name);
    if (!group) groups.set(name, (group = { count: 0, sum: 0 }));
    group.count += 1;
    if (item.amount?.N !== undefined) group.sum += Number(item.amount.N);
  }
  return groups;
}

export function referenceGroup(
  items: readonly SdkItem[],
): Map<string | undefined, { count: number; sum: number }> {
  const groups = new Map<string | undefined, { count: number; sum: number }>();
  for (const item of items) {
    const key = item.status?.S;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { count: 0, sum: 0 }));
    group.count += 1;
    if (item.amount?.N !== undefined) group.sum += Number(item.amount.N);
  }
  return groups;
}
