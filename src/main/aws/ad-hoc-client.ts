import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { fromEnv, fromIni, fromNodeProviderChain } from '@aws-sdk/credential-providers';
import type { AwsCredentialIdentityProvider } from '@smithy/types';
import { dynamoClient } from './dynamo-client';
import type { MfaPrompts } from './mfa-prompts';
import { createProfileCredentials } from './profile-credentials';

export interface AdHocConnection {
  profile?: string;
  region?: string;
  endpoint?: string;
  /** Asks for the code of a profile with mfa_serial; the CLI asks on the terminal. */
  mfa: Pick<MfaPrompts, 'ask'>;
}

function isLoopback(endpoint: string | undefined): boolean {
  if (!endpoint) return false;
  try {
    const host = new URL(endpoint).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/**
 * DynamoDB Local accepts any keys, so a CI job pointing at it need not invent some: the
 * environment, then the default profile, then fixed placeholder keys. Not the full default chain:
 * its instance-metadata step would dial out of the machine looking for keys Local never checks.
 */
function localCredentials(): AwsCredentialIdentityProvider {
  const env = fromEnv();
  const ini = fromIni({ ignoreCache: true });
  return async () => {
    for (const provider of [env, ini]) {
      try {
        return await provider();
      } catch {
        // try the next one
      }
    }
    return { accessKeyId: 'local', secretAccessKey: 'local' };
  };
}

/**
 * A client from command-line flags (the CLI's sql, copy, export, schema, health, pre-flight and
 * mcp), for CI: nothing is saved as a connection. Credentials come from the profile (SSO,
 * assume-role and credential_process included) or the default chain (environment variables in
 * most pipelines); the region from the flag, the environment or the profile. Built by the one
 * builder (dynamo-client.ts), so it has the app's transport (timeouts, adaptive retry) and keeps
 * `__proto__` names. An MFA profile goes through the app's createProfileCredentials, so its STS
 * answers read the same.
 */
export function adHocClient(connection: AdHocConnection): DynamoDBClient {
  const region =
    connection.region ??
    process.env.AWS_REGION ??
    process.env.AWS_DEFAULT_REGION ??
    (connection.endpoint ? 'us-east-1' : undefined);
  return dynamoClient({
    ...(region ? { region } : {}),
    ...(connection.endpoint ? { endpoint: connection.endpoint } : {}),
    ...(connection.profile ? { profile: connection.profile } : {}),
    credentials: connection.profile
      ? createProfileCredentials(connection.mfa)(connection.profile)
      : isLoopback(connection.endpoint)
        ? localCredentials()
        : fromNodeProviderChain(),
  });
}
