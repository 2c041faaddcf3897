import { fromIni } from '@aws-sdk/credential-providers';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { AppFailure } from '../../shared/errors';
import type { MfaPrompts } from './mfa-prompts';

/** The credential provider of one AWS profile, shared by every client that uses the profile. */
export type ProfileCredentials = (profile: string) => AwsCredentialIdentityProvider;

// Used until a minute before it ends, so no request is signed with credentials that expire in
// flight. (The SDK asks its provider again before each request of a session's last five
// minutes; handing out the kept session then costs nothing, and asks the user nothing.)
const RENEW_WITHIN_MS = 60_000;

function isFresh(credentials: AwsCredentialIdentity): boolean {
  return !credentials.expiration || credentials.expiration.getTime() - Date.now() > RENEW_WITHIN_MS;
}

/** STS's answer to an MFA assume-role, said about the code and the profile rather than DynamoDB. */
function mfaFailure(error: unknown, serialNumber: string, profile: string): unknown {
  const shape = error as { name?: unknown; message?: unknown; $metadata?: unknown } | null;
  if (shape?.name !== 'AccessDenied' || shape.$metadata === undefined) return error;
  const awsMessage = typeof shape.message === 'string' ? shape.message.trim() : '';
  const details = { awsMessage, mfaSerial: serialNumber, profile };
  if (/MultiFactorAuthentication/i.test(awsMessage)) {
    return new AppFailure(
      'AccessDenied',
      `AWS did not accept the MFA code for ${serialNumber}, so profile "${profile}" could not assume its role. Try again with the code your device shows now; DynoTable asks for a new one.`,
      true,
      details,
    );
  }
  return new AppFailure(
    'AccessDenied',
    `AWS did not let profile "${profile}" assume its role with the MFA code for ${serialNumber}. Check \`role_arn\` and \`mfa_serial\` of the profile and the role's trust policy. It said: ${awsMessage}`,
    false,
    details,
  );
}

/**
 * Profiles go through the SDK's own fromIni (SSO, assume-role, credential_process), with an
 * mfaCodeProvider that asks the user. Credentials won with an MFA code are kept, in main's
 * memory only, until shortly before they expire: every client of the profile (each connection,
 * "Test connection", a client rebuilt after an edit or sign-in) shares them, so the user is asked
 * once per role session rather than per client. Other profiles are resolved afresh, so edits to
 * ~/.aws show up at once. Concurrent resolutions of a profile share one, and so one prompt.
 */
export function createProfileCredentials(prompts: Pick<MfaPrompts, 'ask'>): ProfileCredentials {
  const sessions = new Map<string, AwsCredentialIdentity>();
  const pending = new Map<string, Promise<AwsCredentialIdentity>>();

  return (profile) => (properties) => {
    const session = sessions.get(profile);
    if (session && isFresh(session)) return Promise.resolve(session);
    sessions.delete(profile);
    const inFlight = pending.get(profile);
    if (inFlight) return inFlight;

    let askedFor: string | undefined;
    const provider = fromIni({
      profile,
      // ignoreCache: a profile added or fixed in ~/.aws/config while DynoTable runs is seen.
      ignoreCache: true,
      mfaCodeProvider: (serialNumber) => {
        askedFor = serialNumber;
        return prompts.ask({ serialNumber, profile });
      },
    });
    const resolving = provider(properties)
      .then(
        (credentials) => {
          if (askedFor) sessions.set(profile, credentials);
          return credentials;
        },
        (error: unknown) => {
          throw askedFor ? mfaFailure(error, askedFor, profile) : error;
        },
      )
      .finally(() => pending.delete(profile));
    pending.set(profile, resolving);
    return resolving;
  };
}
