import type { Connection } from '../ipc/connection';

/**
 * The commercial regions where DynamoDB runs. Opt-in regions an account has not enabled answer
 * with UnrecognizedClientException; a listing across regions leaves those out without calling
 * them errors, so this list may name more than one account can use.
 */
export const DYNAMODB_REGIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'af-south-1',
  'ap-east-1',
  'ap-east-2',
  'ap-south-1',
  'ap-south-2',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-southeast-3',
  'ap-southeast-4',
  'ap-southeast-5',
  'ap-southeast-7',
  'ca-central-1',
  'ca-west-1',
  'eu-central-1',
  'eu-central-2',
  'eu-north-1',
  'eu-south-1',
  'eu-south-2',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'il-central-1',
  'me-central-1',
  'me-south-1',
  'mx-central-1',
  'sa-east-1',
] as const;

/** How an AWS region's name is spelled (eu-west-1, ap-southeast-7, us-gov-west-1). */
export const REGION_NAME = /^[a-z]{2}(-[a-z]+)+-\d$/;

/**
 * A connection with its own endpoint (DynamoDB Local, the playground, LocalStack) is one region:
 * the endpoint answers for whatever region is signed, so "every region" would list it many times.
 */
export function isSingleRegion(connection: Pick<Connection, 'kind' | 'endpoint'>): boolean {
  return connection.kind === 'playground' || connection.endpoint !== undefined;
}

/**
 * A table of another region than the connection's is opened as the same connection in that
 * region: `<connection id>@<region>`. Everything keyed by a connection id (its client, SQL's
 * catalog and cache, result sets) then works there unchanged. Connection ids are UUIDs or
 * `playground`, so `@` never occurs in one.
 */
export function regionalConnectionId(connectionId: string, region: string): string {
  return `${connectionId}@${region}`;
}

/** The stored connection's id, and the region when the id names the connection in another region. */
export function splitConnectionId(id: string): { connectionId: string; region?: string } {
  const at = id.lastIndexOf('@');
  return at <= 0 ? { connectionId: id } : { connectionId: id.slice(0, at), region: id.slice(at + 1) };
}

/**
 * The stored connection as it acts in `region` (the id from regionalConnectionId): same
 * credentials, read-only and production flags, another region. `undefined` when `region` is not
 * a region's name or the connection has one region only (its own endpoint).
 */
export function connectionInRegion<C extends Pick<Connection, 'id' | 'kind' | 'endpoint' | 'region'>>(
  connection: C,
  region: string,
): C | undefined {
  if (!REGION_NAME.test(region) || isSingleRegion(connection)) return undefined;
  return region === connection.region
    ? connection
    : { ...connection, id: regionalConnectionId(connection.id, region), region };
}
