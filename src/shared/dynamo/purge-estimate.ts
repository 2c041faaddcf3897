import type { TableSummary } from '../ipc/tables';
import { formatBytes } from './item-size';

export interface PurgeEstimate {
  /** DynamoDB's approximate item count (refreshed about every six hours on AWS). */
  itemCount: number;
  sizeBytes: number;
  /** Read units the Scan of every key consumes (eventually consistent). */
  readUnits: number;
  /** Write units the deletes consume: one per item per started KB. */
  writeUnits: number;
  /** At the table's provisioned write capacity, when it has one. */
  seconds?: number;
  /** What the purge costs and takes, then how it compares with delete-and-recreate. */
  sentences: string[];
}

const plural = (n: number, word: string): string =>
  `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/**
 * What one full Scan of `sizeBytes` costs: whole items at 4 KB per read unit, halved for the
 * eventually consistent reads a Scan makes by default.
 */
export function fullScanReadUnits(sizeBytes: number): number {
  return Math.ceil(Math.ceil(sizeBytes / 4096) / 2);
}

/**
 * What deleting every item will consume, from DescribeTable's counts. A Scan is charged for the
 * whole items it reads even when only keys come back (4 KB per read unit, halved for eventually
 * consistent reads); a delete is charged for the size of the item it removes (1 KB per write unit).
 */
export function estimatePurge(summary: TableSummary): PurgeEstimate {
  const { itemCount, sizeBytes } = summary;
  const averageBytes = itemCount > 0 ? sizeBytes / itemCount : 0;
  const readUnits = fullScanReadUnits(sizeBytes);
  const writeUnits = itemCount * Math.max(1, Math.ceil(averageBytes / 1024));
  const seconds =
    summary.billingMode === 'PROVISIONED' && summary.writeCapacity
      ? Math.ceil(writeUnits / summary.writeCapacity)
      : undefined;
  const sentences = [
    `DynamoDB reports about ${plural(itemCount, 'item')} (${formatBytes(sizeBytes)}); on AWS it refreshes this count about every six hours, so the purge reads the table to find every key.`,
    `Reading every key costs about ${plural(readUnits, 'read unit')} (a Scan is charged for whole items even when it returns only keys); deleting costs about ${plural(writeUnits, 'write unit')}.`,
    seconds === undefined
      ? 'On-demand billing charges these as request units; the purge slows down by itself if DynamoDB throttles it.'
      : `At the provisioned ${plural(summary.writeCapacity ?? 0, 'write unit')} per second that takes at least ${formatSeconds(seconds)}, and the purge uses write capacity your application shares; set a rate limit to leave it some.`,
    'Deleting the table and creating it again is faster and costs no write units, but the new table has a new ARN and creation time, its stream starts over (consumers and triggers must be reattached), and its tags, point-in-time recovery history, auto scaling and alarms are lost. The purge keeps all of them.',
  ];
  return {
    itemCount,
    sizeBytes,
    readUnits,
    writeUnits,
    ...(seconds === undefined ? {} : { seconds }),
    sentences,
  };
}

export function formatSeconds(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
