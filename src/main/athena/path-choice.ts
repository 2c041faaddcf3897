import { athenaCostUsd } from './pricing';

/**
 * The plan's honest choice for a statement that would scan a table whole: what the local scan
 * costs (items, bytes, read capacity, time) next to what Athena over an export costs (bytes
 * scanned, dollars, time to export when no export is recent). Past the user's limit nothing
 * starts until the user picks one; this module only computes, it never chooses.
 */
export interface ScanLimits {
  items?: number;
  bytes?: number;
  rcu?: number;
}

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

/**
 * Eventually consistent Scan: half a read unit per 4 KB read (DynamoDB's documented unit);
 * a Scan is charged on the bytes it reads, summed over the page, not per item.
 */
export function scanRcu(bytes: number): number {
  return Math.ceil(bytes / 4096) / 2;
}

/** A quarter of the machine's memory as bytes of items: the engine holds items columnar, with copies. */
export function defaultLimits(machineMemoryBytes: number): ScanLimits {
  return { bytes: Math.floor(machineMemoryBytes / 4) };
}

export function choosePath(input: PathChoiceInput): PathChoice {
  const { tableSizeBytes: bytes, itemCount: items, limits } = input;
  const rcu = scanRcu(bytes);
  const over: string[] = [];
  if (limits.items !== undefined && items > limits.items)
    over.push(
      `${items.toLocaleString('en-US')} items is more than the limit of ${limits.items.toLocaleString('en-US')}`,
    );
  if (limits.bytes !== undefined && bytes > limits.bytes)
    over.push(`${gb(bytes)} is more than the limit of ${gb(limits.bytes)}`);
  if (limits.rcu !== undefined && rcu > limits.rcu)
    over.push(
      `${Math.round(rcu).toLocaleString('en-US')} RCU is more than the limit of ${limits.rcu.toLocaleString('en-US')}`,
    );
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

function gb(bytes: number): string {
  return `${(bytes / 1e9).toLocaleString('en-US', { maximumFractionDigits: 1 })} GB`;
}
