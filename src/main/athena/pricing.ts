/**
 * Athena's published price for SQL queries: $5.00 per TB of data scanned, rounded up to the
 * nearest megabyte with a 10 MB minimum per query (https://aws.amazon.com/athena/pricing/,
 * US East; other regions differ). A cancelled query is billed for what it scanned.
 */
export const ATHENA_USD_PER_TB = 5;
const MB = 1024 * 1024;
const TB = 1024 ** 4;

export function athenaCostUsd(scannedBytes: number, usdPerTb = ATHENA_USD_PER_TB): number {
  if (scannedBytes <= 0) return 0;
  const billed = Math.max(10 * MB, Math.ceil(scannedBytes / MB) * MB);
  return (billed / TB) * usdPerTb;
}
