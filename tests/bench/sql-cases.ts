import type { SdkItem } from './sql-data';

/**
 * The four questions of `npm run bench:sql`, each written for every side: DynoTable's SQL (over
 * the entity views `orders` and `users` of the one table), DuckDB's and alasql's SQL over the
 * same items as a typed table `App`, and a hand-written JavaScript reference over the SDK's item
 * objects with Maps and doubles. Every side's answer becomes the same sorted lines, so the
 * benchmark can say whether they agree.
 */
export interface BenchCase {
  label: string;
  dyno: string;
  duck: string;
  alasql: string;
  reference(items: readonly SdkItem[]): unknown[][];
}

const isOrder = (item: SdkItem): boolean => item.SK?.S?.startsWith('ORDER#') === true;
const amountOf = (item: SdkItem): number => Number(item.amount?.N ?? NaN);

export const CASES: BenchCase[] = [
  {
    label: 'JOIN + GROUP BY',
    dyno: 'SELECT u.name, COUNT(*) AS orders, SUM(o.amount) AS revenue FROM orders o JOIN users u ON o.userId = u.userId GROUP BY u.name',
    duck: "SELECT u.name, COUNT(*), SUM(o.amount) FROM App o JOIN App u ON o.userId = u.userId WHERE starts_with(o.SK, 'ORDER#') AND starts_with(u.SK, 'USER#') GROUP BY u.name",
    alasql:
      "SELECT u.name, COUNT(*) AS n, SUM(o.amount) AS s FROM App AS o JOIN App AS u ON o.userId = u.userId WHERE o.SK LIKE 'ORDER#%' AND u.SK LIKE 'USER#%' GROUP BY u.name",
    reference(items) {
      const users = new Map<string, SdkItem>();
      for (const item of items)
        if (item.SK?.S?.startsWith('USER#') && item.userId?.S !== undefined) users.set(item.userId.S, item);
      const groups = new Map<string, [number, number]>();
      for (const item of items) {
        if (!isOrder(item) || item.userId?.S === undefined) continue;
        const name = users.get(item.userId.S)?.name?.S;
        if (name === undefined) continue;
        let group = groups.get(name);
        if (!group) groups.set(name, (group = [0, 0]));
        group[0] += 1;
        if (item.amount?.N !== undefined) group[1] += Number(item.amount.N);
      }
      return [...groups].map(([name, [count, sum]]) => [name, count, sum]);
    },
  },
  {
    label: 'GROUP BY',
    dyno: 'SELECT status, COUNT(*) AS n, SUM(amount) AS total FROM App GROUP BY status',
    duck: 'SELECT status, COUNT(*), SUM(amount) FROM App GROUP BY status',
    alasql: 'SELECT status, COUNT(*) AS n, SUM(amount) AS s FROM App GROUP BY status',
    reference(items) {
      const groups = new Map<string | undefined, [number, number | null]>();
      for (const item of items) {
        const key = item.status?.S;
        let group = groups.get(key);
        if (!group) groups.set(key, (group = [0, null]));
        group[0] += 1;
        if (item.amount?.N !== undefined) group[1] = (group[1] ?? 0) + Number(item.amount.N);
      }
      return [...groups].map(([key, [count, sum]]) => [key ?? null, count, sum]);
    },
  },
  {
    label: 'window (top 3 per user)',
    dyno: 'SELECT COUNT(*) AS n, SUM(amount) AS top3 FROM (SELECT amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC) AS rn FROM orders) t WHERE rn <= 3',
    duck: "SELECT COUNT(*), SUM(amount) FROM (SELECT amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC) AS rn FROM App WHERE starts_with(SK, 'ORDER#')) t WHERE rn <= 3",
    alasql:
      "SELECT COUNT(*) AS n, SUM(amount) AS s FROM (SELECT amount, ROW_NUMBER() OVER (PARTITION BY userId ORDER BY amount DESC) AS rn FROM App WHERE SK LIKE 'ORDER#%') AS t WHERE rn <= 3",
    reference(items) {
      const byUser = new Map<string, number[]>();
      for (const item of items) {
        if (!isOrder(item)) continue;
        const key = item.userId?.S ?? '';
        const amounts = byUser.get(key);
        if (amounts) amounts.push(amountOf(item));
        else byUser.set(key, [amountOf(item)]);
      }
      let count = 0;
      let sum = 0;
      for (const amounts of byUser.values()) {
        amounts.sort((a, b) => b - a);
        for (const a of amounts.slice(0, 3)) {
          count += 1;
          sum += a;
        }
      }
      return [[count, sum]];
    },
  },
  {
    label: 'correlated subquery',
    dyno: 'SELECT COUNT(*) AS n FROM orders o WHERE o.amount > (SELECT AVG(p.amount) FROM orders p WHERE p.userId = o.userId)',
    duck: "SELECT COUNT(*) FROM App o WHERE starts_with(o.SK, 'ORDER#') AND o.amount > (SELECT AVG(p.amount) FROM App p WHERE starts_with(p.SK, 'ORDER#') AND p.userId = o.userId)",
    alasql:
      "SELECT COUNT(*) AS n FROM App AS o WHERE o.SK LIKE 'ORDER#%' AND o.amount > (SELECT AVG(p.amount) FROM App AS p WHERE p.SK LIKE 'ORDER#%' AND p.userId = o.userId)",
    reference(items) {
      // In whole cents, so "above the average" is exact, as it is in the engine.
      const cents = (item: SdkItem): number => Math.round(amountOf(item) * 100);
      const totals = new Map<string, [number, number]>();
      for (const item of items) {
        if (!isOrder(item)) continue;
        const key = item.userId?.S ?? '';
        const total = totals.get(key);
        if (total) {
          total[0] += 1;
          total[1] += cents(item);
        } else totals.set(key, [1, cents(item)]);
      }
      let count = 0;
      for (const item of items) {
        if (!isOrder(item)) continue;
        const [n, sum] = totals.get(item.userId?.S ?? '')!;
        if (cents(item) * n > sum) count += 1;
      }
      return [[count]];
    },
  },
];

/** Sorted lines of a result: numbers to two decimals (the amounts are cents), NULL for none. */
export function canonical(rows: readonly (readonly unknown[])[]): string[] {
  return rows
    .map((row) =>
      row
        .map((v) => {
          if (v === null || v === undefined) return 'NULL';
          if (typeof v === 'number' || typeof v === 'bigint') return Number(v).toFixed(2);
          const text = typeof v === 'string' ? v : JSON.stringify(v);
          return /^-?\d+(\.\d+)?$/.test(text) ? Number(text).toFixed(2) : text;
        })
        .join(' | '),
    )
    .sort();
}
