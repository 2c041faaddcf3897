import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { fromIni, fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { sdkTransport } from '../aws/sdk-options';

export interface AdHocConnection {
  profile?: string;
  region?: string;
  endpoint?: string;
}

/**
 * A client from command-line flags, for CI: nothing is saved as a connection. Credentials come
 * from the profile (SSO, assume-role and credential_process included) or the default chain
 * (environment variables in most pipelines); the region from the flag, the environment or the
 * profile. Same transport settings (timeouts, adaptive retry) as the app's clients.
 */
export function adHocClient(connection: AdHocConnection): DynamoDBClient {
  const region =
    connection.region ??
    process.env.AWS_REGION ??
    process.env.AWS_DEFAULT_REGION ??
    (connection.endpoint ? 'us-east-1' : undefined);
  return new DynamoDBClient({
    ...sdkTransport(),
    ...(region ? { region } : {}),
    ...(connection.endpoint ? { endpoint: connection.endpoint } : {}),
    ...(connection.profile ? { profile: connection.profile } : {}),
    credentials: connection.profile
      ? fromIni({ profile: connection.profile, ignoreCache: true })
      : fromNodeProviderChain(),
  });
}
