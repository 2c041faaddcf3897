import { fromIni, fromNodeProviderChain } from '@aws-sdk/credential-providers';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import type { Connection } from '../../shared/ipc/connection';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import { splitConnectionId } from '../../shared/dynamo/regions';
import type { SecretStore } from '../core/context';
import { PLAYGROUND_CREDENTIALS } from './playground-credentials';
import type { ProfileCredentials } from './profile-credentials';

export interface CredentialDeps {
  secrets: SecretStore;
  /** Profiles that can ask for an MFA code (the core's); without it such a profile fails with the SDK's sentence. */
  profileCredentials?: ProfileCredentials;
}

/**
 * A credential provider per connection kind. Profiles go through the SDK's own refreshing
 * providers (SSO with sso-session, assume-role with source_profile, credential_process), so a
 * session that expires mid-way is renewed instead of failing; only a session won with an MFA
 * code is kept until it expires (profile-credentials.ts), never written anywhere.
 */
export function credentialsFor(connection: Connection, deps: CredentialDeps): AwsCredentialIdentityProvider {
  const { secrets } = deps;
  switch (connection.kind) {
    case 'profile':
      if (deps.profileCredentials && connection.profile) return deps.profileCredentials(connection.profile);
      // ignoreCache: a profile added or fixed in ~/.aws/config while DynoTable runs is seen.
      return fromIni({ profile: connection.profile, ignoreCache: true });
    case 'default-chain':
      return fromNodeProviderChain();
    case 'keys':
      // The same keys in every region: they are stored under the connection's own id.
      return () => storedKeys(splitConnectionId(connection.id).connectionId, secrets);
    case 'playground':
      return () => Promise.resolve({ ...PLAYGROUND_CREDENTIALS });
  }
}

/** Keys are decrypted in main only when a request needs them, and never leave this process. */
async function storedKeys(connectionId: string, secrets: SecretStore): Promise<AwsCredentialIdentity> {
  if (!secrets.isAvailable()) {
    throw new AppFailure(
      ErrorCodes.encryptionUnavailable,
      "This connection uses access keys, which are stored encrypted by the desktop app and cannot be used here. Use an AWS profile, or open DynoTable's desktop app.",
    );
  }
  const keys = await secrets.load(connectionId);
  if (!keys) {
    throw new AppFailure(
      ErrorCodes.invalidInput,
      'No access keys are saved for this connection. Edit it and enter the access key id and secret access key.',
    );
  }
  return {
    accessKeyId: keys.accessKeyId,
    secretAccessKey: keys.secretAccessKey,
    sessionToken: keys.sessionToken,
  };
}
