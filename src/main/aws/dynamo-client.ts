import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { keepProtoNames } from './proto-names';
import { addReadOnlyGuard } from './read-only-guard';
import { sdkTransport } from './sdk-options';

export type DynamoClientSettings = Pick<
  DynamoDBClientConfig,
  'region' | 'endpoint' | 'profile' | 'credentials' | 'maxAttempts' | 'retryMode' | 'requestHandler'
> & {
  /** Refuse every write on this client, whoever builds the command (a read-only connection). */
  readOnly?: boolean;
};

/**
 * Every DynamoDB client DynoTable sends a request through is built here: a connection's (the
 * client factory), the SQL worker's, the CLI's ad-hoc one, health's, "Test connection" and the
 * playground's. Each gets the shared transport (timeouts, adaptive retry; sdk-options.ts) unless
 * the settings bring their own, keeps `__proto__` names as data (proto-names.ts), and carries the
 * read-only guard when asked.
 */
export function dynamoClient(settings: DynamoClientSettings): DynamoDBClient {
  const { readOnly, ...config } = settings;
  const client = keepProtoNames(new DynamoDBClient({ ...sdkTransport(), ...config }));
  if (readOnly) addReadOnlyGuard(client);
  return client;
}
