import { getSSOTokenFilepath } from '@smithy/core/config';
import { writeFileAtomic } from '../files/atomic-file';

/** The JSON the SDK's SSO providers read from ~/.aws/sso/cache (the AWS CLI writes the same). */
export interface SsoCachedToken {
  startUrl: string;
  region: string;
  accessToken: string;
  expiresAt: string;
  clientId?: string;
  clientSecret?: string;
  registrationExpiresAt?: string;
  refreshToken?: string;
}

/**
 * Writes the token under sha1(sso-session name), or sha1(start URL) for legacy profiles,
 * using the SDK's own path function so the file lands exactly where the SDK looks.
 * Owner-only, atomic: a reader never sees half a token.
 */
export async function writeSsoToken(cacheKey: string, token: SsoCachedToken): Promise<string> {
  const path = getSSOTokenFilepath(cacheKey);
  await writeFileAtomic(path, JSON.stringify(token, null, 2), 0o600);
  return path;
}
