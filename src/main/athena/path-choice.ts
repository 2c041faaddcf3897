import { pastLimits, type ScanLimits, scanRcu } from '../sql/scan-limit';
import { athenaCostUsd } from './pricing';

/**
 * The plan's honest choice for a statement that would scan a table whole: what the local scan
 * costs (items, bytes, read capacity, time) next to what Athena over an export costs (bytes
 * scanned, dollars, time to export when no export is recent). Past the user's limit nothing
 * starts until the user picks one; this module only computes, it never chooses.
 */
export interface PathChoiceInput {
  /** DescribeTable's TableSizeBytes and ItemCount (refreshed by DynamoDB about every six hours). */
  tableSizeBytes: number;
  itemCount: number;
  limits: ScanLimits;
  /** Items a second the local scan reaches (measured; docs/PERFORMANCE.md, docs/SCALE.md). */
  localItemsPerSecond: number;
  /** A recent export's BilledSizeBytes, if there is one. */
  exportBilledBytes?: number;
  /** Bytes an export writes a second, an assumption DynoTable states (AWS documents no rate). */
  exportBytesPerSecond: number;
}

export interface PathChoice {
  /** Why the local scan is past the limit; empty when it is within it. */
  over: string[];
  local: { items: number; bytes: number; rcu: number; seconds: number };
  athena: { scannedBytes: number; costUsd: number; exportNeeded: boolean; exportSeconds: number };
}

export function choosePath(input: PathChoiceInput): PathChoice {
  const { tableSizeBytes: bytes, itemCount: items, limits } = input;
  const rcu = scanRcu(bytes);
  const over = pastLimits({ items, bytes, rcu }, limits);
  const exportNeeded = input.exportBilledBytes === undefined;
  // DynamoDB JSON exports are gzipped; Athena bills the compressed bytes it reads, but before an
  // export exists its billed size is the table's size, the upper bound used here.
  const scannedBytes = input.exportBilledBytes ?? bytes;
  return {
    over,
    local: { items, bytes, rcu, seconds: items / input.localItemsPerSecond },
    athena: {
      scannedBytes,
      costUsd: athenaCostUsd(scannedBytes),
      exportNeeded,
      exportSeconds: exportNeeded ? bytes / input.exportBytesPerSecond : 0,
    },
  };
}
