import { AppFailure } from '../../shared/errors';
import type { TableInfo } from '../../shared/sql/catalog';
import type { SqlPlan } from '../../shared/sql/plan';

/**
 * The scan limit (issue 17): past it, a statement that would Scan a table whole does not start
 * locally unless the caller chose the local path; the workbench offers Amazon Athena instead.
 * Absent fields are no limit.
 */
export interface ScanLimits {
  items?: number;
  bytes?: number;
  rcu?: number;
}

export const SCAN_LIMIT_EXCEEDED = 'ScanLimitExceeded';

/** What the statement's uncached Scans read: each table whole, as DescribeTable sizes it. */
export interface WholeScans {
  tables: string[];
  items: number;
  bytes: number;
  rcu: number;
}

/**
 * Eventually consistent Scan: half a read unit per 4 KB read (DynamoDB's documented unit);
 * a Scan is charged on the bytes it reads, summed over the page, not per item.
 */
export function scanRcu(bytes: number): number {
  return Math.ceil(bytes / 4096) / 2;
}

/**
 * The default limit: a quarter of the machine's memory as bytes of items, since the engine
 * holds what it fetches columnar, with copies. Compared with each statement's tables' sizes.
 */
export function defaultLimits(machineMemoryBytes: number): ScanLimits {
  return { bytes: Math.floor(machineMemoryBytes / 4) };
}

export function wholeScans(
  plan: Pick<SqlPlan, 'fetches'>,
  tables: readonly Pick<TableInfo, 'name' | 'itemCount' | 'sizeBytes'>[],
): WholeScans {
  const scanned = [
    ...new Set(plan.fetches.filter((f) => f.call.operation === 'Scan' && !f.cached).map((f) => f.call.table)),
  ];
  let items = 0;
  let bytes = 0;
  for (const name of scanned) {
    const info = tables.find((t) => t.name === name);
    items += info?.itemCount ?? 0;
    bytes += info?.sizeBytes ?? 0;
  }
  return { tables: scanned, items, bytes, rcu: scanRcu(bytes) };
}

const count = (value: number): string => Math.round(value).toLocaleString('en-US');

export function gigabytes(bytes: number): string {
  return `${(bytes / 1e9).toLocaleString('en-US', { maximumFractionDigits: 1 })} GB`;
}

/** Why the scans are past the limits, one clause each; empty when they are within them. */
export function pastLimits(scans: Omit<WholeScans, 'tables'>, limits: ScanLimits): string[] {
  const over: string[] = [];
  if (limits.items !== undefined && scans.items > limits.items)
    over.push(`${count(scans.items)} items is more than the limit of ${count(limits.items)}`);
  if (limits.bytes !== undefined && scans.bytes > limits.bytes)
    over.push(`${gigabytes(scans.bytes)} is more than the limit of ${gigabytes(limits.bytes)}`);
  if (limits.rcu !== undefined && scans.rcu > limits.rcu)
    over.push(`${count(scans.rcu)} RCU is more than the limit of ${count(limits.rcu)}`);
  return over;
}

/** Throws before anything is read when the statement's whole-table Scans are past the limits. */
export function holdToScanLimit(scans: WholeScans, limits: ScanLimits): void {
  const over = pastLimits(scans, limits);
  if (over.length === 0) return;
  throw new AppFailure(
    SCAN_LIMIT_EXCEEDED,
    `This statement would scan ${scans.tables.join(', ')} whole and nothing was read: ${over.join('; ')}. Narrow it with a key condition, raise the scan limit, run it on Amazon Athena from the SQL workbench, or choose the local scan explicitly.`,
    false,
    { tables: scans.tables, items: scans.items, bytes: scans.bytes, rcu: scans.rcu, limits },
  );
}
