import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { ReadLimit } from '../../shared/ipc/migration';
import { RateLimiter } from '../dynamo/rate-limiter';
import type { MigrationTableInfo } from './table-info';

export interface ScanPacing {
  limiter?: RateLimiter;
  unit: 'capacity' | 'items';
  pageLimit?: number;
  /** For people: "at most 100 items/s". */
  description: string;
}

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

/**
 * Turns the user's read limit into a limiter and a page size. Pages are sized so one page costs
 * about a segment's share of one second: a 1 MB page (128 RCU) against a 10 RCU/s limit would
 * otherwise read in bursts with 13-second gaps.
 */
export function pacingFor(
  limit: ReadLimit | undefined,
  info: MigrationTableInfo,
  segments: number,
): ScanPacing {
  if (
    !limit ||
    (limit.itemsPerSecond === undefined &&
      limit.readCapacityPerSecond === undefined &&
      limit.shareOfProvisioned === undefined)
  )
    return { unit: 'capacity', description: 'no read limit' };
  if (limit.itemsPerSecond !== undefined) {
    const rate = limit.itemsPerSecond;
    return {
      limiter: new RateLimiter(rate),
      unit: 'items',
      pageLimit: clamp(Math.ceil(rate / segments), 1, 1000),
      description: `at most ${rate} items/s`,
    };
  }
  let rcu = limit.readCapacityPerSecond;
  let description = `at most ${rcu} RCU/s`;
  if (limit.shareOfProvisioned !== undefined) {
    if (!info.readCapacity) {
      throw new AppFailure(
        ErrorCodes.invalidInput,
        `${info.table} is on-demand, so it has no provisioned read capacity to take a share of. Set a limit in items or read capacity units per second instead.`,
      );
    }
    rcu = Math.max(0.5, info.readCapacity * limit.shareOfProvisioned);
    description = `at most ${Math.round(limit.shareOfProvisioned * 100)}% of ${info.readCapacity} provisioned RCU (${rcu} RCU/s)`;
  }
  const rate = rcu ?? 1;
  // An eventually consistent Scan costs 0.5 RCU per 4 KB read.
  const averageItemBytes = info.itemCount > 0 && info.sizeBytes > 0 ? info.sizeBytes / info.itemCount : 1024;
  const itemsPerSecond = rate / (averageItemBytes / 8192);
  return {
    limiter: new RateLimiter(rate),
    unit: 'capacity',
    pageLimit: clamp(Math.ceil(itemsPerSecond / segments), 1, 1000),
    description,
  };
}
