/**
 * DynamoDB's published list prices for the Standard table class in the common regions, after the
 * November 2024 on-demand reduction (https://aws.amazon.com/dynamodb/pricing/, on-demand and
 * provisioned pages). A region not listed here is not priced: the report says so rather than
 * borrowing another region's prices. The free tier is not subtracted.
 */
export interface RegionPrices {
  region: string;
  /** The region as AWS's pricing page names it. */
  place: string;
  /** USD per million write / read request units (on-demand). */
  writeRequestPerMillion: number;
  readRequestPerMillion: number;
  /** USD per provisioned WCU / RCU hour. */
  wcuHour: number;
  rcuHour: number;
  /** USD per GB-month stored (table and each index). */
  storageGbMonth: number;
}

type Row = [place: string, write: number, read: number, wcuHour: number, rcuHour: number, storage: number];

const ROWS: Record<string, Row> = {
  'us-east-1': ['US East (N. Virginia)', 0.625, 0.125, 0.00065, 0.00013, 0.25],
  'us-east-2': ['US East (Ohio)', 0.625, 0.125, 0.00065, 0.00013, 0.25],
  'us-west-2': ['US West (Oregon)', 0.625, 0.125, 0.00065, 0.00013, 0.25],
  'us-west-1': ['US West (N. California)', 0.6971, 0.1394, 0.000725, 0.000145, 0.28],
  'ca-central-1': ['Canada (Central)', 0.6875, 0.1375, 0.000715, 0.000143, 0.275],
  'eu-west-1': ['Europe (Ireland)', 0.7068, 0.1413, 0.000735, 0.000147, 0.283],
  'eu-west-2': ['Europe (London)', 0.7423, 0.1485, 0.000772, 0.0001544, 0.297],
  'eu-central-1': ['Europe (Frankfurt)', 0.7625, 0.1525, 0.000793, 0.0001586, 0.306],
  'ap-south-1': ['Asia Pacific (Mumbai)', 0.7116, 0.1423, 0.00074, 0.000148, 0.285],
  'ap-southeast-1': ['Asia Pacific (Singapore)', 0.7116, 0.1423, 0.00074, 0.000148, 0.285],
  'ap-southeast-2': ['Asia Pacific (Sydney)', 0.7116, 0.1423, 0.00074, 0.000148, 0.285],
  'ap-northeast-1': ['Asia Pacific (Tokyo)', 0.7135, 0.1427, 0.000742, 0.0001484, 0.285],
  'sa-east-1': ['South America (São Paulo)', 0.9375, 0.1875, 0.000975, 0.000195, 0.375],
};

/** Contributor Insights for DynamoDB: USD per 100,000 events in US East; other regions' rate is not carried. */
const INSIGHTS_US_EAST_PER_100K = 0.02;

/** The regions DynoTable has prices for. */
export const PRICED_REGIONS: readonly string[] = Object.keys(ROWS);

/** A region's prices, or undefined for a region not in the table. */
export function pricesFor(region: string | undefined): RegionPrices | undefined {
  if (region === undefined || !Object.prototype.hasOwnProperty.call(ROWS, region)) return undefined;
  const [place, write, read, wcuHour, rcuHour, storage] = ROWS[region]!;
  return {
    region,
    place,
    writeRequestPerMillion: write,
    readRequestPerMillion: read,
    wcuHour,
    rcuHour,
    storageGbMonth: storage,
  };
}

/** Which prices a report used, in one sentence. */
export function pricesText(region: string | undefined, prices: RegionPrices | undefined): string {
  if (!prices)
    return `DynoTable has no DynamoDB prices for ${region ?? 'this connection’s region'} (it carries ${PRICED_REGIONS.join(', ')}), so no cost is estimated; see aws.amazon.com/dynamodb/pricing.`;
  return `${prices.place} (${prices.region}) list prices, Standard table class: on-demand $${prices.writeRequestPerMillion} per million writes and $${prices.readRequestPerMillion} per million reads, provisioned $${prices.wcuHour} per WCU-hour and $${prices.rcuHour} per RCU-hour, storage $${prices.storageGbMonth} per GB-month; free tier not subtracted.`;
}

const HOURS_PER_MONTH = 730;
const SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600;
const GB = 1024 ** 3;
/** Provisioned capacity is set with headroom over the average: auto scaling's default target. */
const PROVISIONED_UTILIZATION = 0.7;

export function storageMonthly(prices: RegionPrices, bytes: number): number {
  return (bytes / GB) * prices.storageGbMonth;
}

/** A window's consumed units scaled to a month. */
export function perMonth(units: number, windowSeconds: number): number {
  return windowSeconds > 0 ? (units * SECONDS_PER_MONTH) / windowSeconds : 0;
}

export function onDemandMonthly(
  prices: RegionPrices,
  readUnitsPerMonth: number,
  writeUnitsPerMonth: number,
): number {
  return (
    (readUnitsPerMonth / 1e6) * prices.readRequestPerMillion +
    (writeUnitsPerMonth / 1e6) * prices.writeRequestPerMillion
  );
}

/** Provisioned at the average rate over 70% utilisation (at least 1 unit each). */
export function provisionedMonthly(
  prices: RegionPrices,
  readUnitsPerMonth: number,
  writeUnitsPerMonth: number,
): number {
  const rcu = Math.max(1, readUnitsPerMonth / SECONDS_PER_MONTH / PROVISIONED_UTILIZATION);
  const wcu = Math.max(1, writeUnitsPerMonth / SECONDS_PER_MONTH / PROVISIONED_UTILIZATION);
  return HOURS_PER_MONTH * (rcu * prices.rcuHour + wcu * prices.wcuHour);
}

/** Contributor Insights' cost at a month of requests, in words naming whose rate it is. */
export function insightsCostNote(prices: RegionPrices | undefined, requestsPerMonth: number): string {
  if (prices?.region === 'us-east-1')
    return `About ${usd((requestsPerMonth / 100_000) * INSIGHTS_US_EAST_PER_100K)} a month at this window's traffic ($0.02 per 100,000 requests).`;
  return `At US East's rate ($0.02 per 100,000 requests) about ${usd((requestsPerMonth / 100_000) * INSIGHTS_US_EAST_PER_100K)} a month at this window's traffic; DynoTable does not carry ${prices?.region ?? 'this region'}'s rate, which may differ.`;
}

export function usd(amount: number): string {
  return amount < 0.01 && amount > 0 ? '< $0.01' : `$${amount.toFixed(2)}`;
}
