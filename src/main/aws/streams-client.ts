import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { keepProtoNames } from './proto-names';

/**
 * A DynamoDB Streams client speaking for the same connection as `client`: its refreshing
 * credential provider and region, and its endpoint when the connection names one (DynamoDB Local
 * serves streams on the same port; on AWS streams have their own endpoint, which the SDK derives
 * from the region). The caller destroys it when the tail stops.
 */
export function streamsClientFor(client: DynamoDBClient): DynamoDBStreamsClient {
  const config = client.config;
  return keepProtoNames(
    new DynamoDBStreamsClient({
      region: config.region,
      credentials: config.credentials,
      maxAttempts: config.maxAttempts,
      ...(config.isCustomEndpoint && config.endpoint ? { endpoint: config.endpoint } : {}),
    }),
  );
}
