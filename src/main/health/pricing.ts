/**
 * DynamoDB's published prices for a Standard table class in US East (N. Virginia), after the
 * November 2024 on-demand reduction (https://aws.amazon.com/dynamodb/pricing/). Other regions
 * cost up to ~50% more; the report says which prices it used. The free tier is not subtracted.
 */
export const DYNAMO_PRICES = {
  /** USD per million write request units (on-demand). */
  writeRequestPerMillion: 0.625,
  readRequestPerMillion: 0.125,
  /** USD per provisioned WCU / RCU hour. */
  wcuHour: 0.00065,
  rcuHour: 0.00013,
  /** USD per GB-month stored (table and each index). */
  storageGbMonth: 0.25,
  /** Contributor Insights for DynamoDB: USD per 100,000 events (each read or write request is one). */
  insightsPer100kEvents: 0.02,
} as const;

export const PRICES_TEXT =
  'US East (N. Virginia) list prices, Standard table class: on-demand $0.625 per million writes and $0.125 per million reads, provisioned $0.00065 per WCU-hour and $0.00013 per RCU-hour, storage $0.25 per GB-month; free tier not subtracted.';

const HOURS_PER_MONTH = 730;
const SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600;
const GB = 1024 ** 3;
/** Provisioned capacity is set with headroom over the average: auto scaling's default target. */
const PROVISIONED_UTILIZATION = 0.7;

export function storageMonthly(bytes: number): number {
  return (bytes / GB) * DYNAMO_PRICES.storageGbMonth;
}

/** A window's consumed units scaled to a month. */
export function perMonth(units: number, windowSeconds: number): number {
  return windowSeconds > 0 ? (units * SECONDS_PER_MONTH) / windowSeconds : 0;
}

export function onDemandMonthly(readUnitsPerMonth: number, writeUnitsPerMonth: number): number {
  return (
    (readUnitsPerMonth / 1e6) * DYNAMO_PRICES.readRequestPerMillion +
    (writeUnitsPerMonth / 1e6) * DYNAMO_PRICES.writeRequestPerMillion
  );
}

/** Provisioned at the average rate over 70% utilisation (at least 1 unit each). */
export function provisionedMonthly(readUnitsPerMonth: number, writeUnitsPerMonth: number): number {
  const rcu = Math.max(1, readUnitsPerMonth / SECONDS_PER_MONTH / PROVISIONED_UTILIZATION);
  const wcu = Math.max(1, writeUnitsPerMonth / SECONDS_PER_MONTH / PROVISIONED_UTILIZATION);
  return HOURS_PER_MONTH * (rcu * DYNAMO_PRICES.rcuHour + wcu * DYNAMO_PRICES.wcuHour);
}

export function insightsMonthly(requestsPerMonth: number): number {
  return (requestsPerMonth / 100_000) * DYNAMO_PRICES.insightsPer100kEvents;
}

export function usd(amount: number): string {
  return amount < 0.01 && amount > 0 ? '< $0.01' : `$${amount.toFixed(2)}`;
}
