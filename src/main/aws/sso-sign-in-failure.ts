import { AppFailure } from '../../shared/errors';
import type { SsoSettings } from './profiles';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

interface ErrorShape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  hostname?: unknown;
  errors?: unknown;
  $metadata?: unknown;
}

/** The socket error's code, also when Node reports several addresses tried as one AggregateError. */
function networkCode(error: ErrorShape): string | undefined {
  if (typeof error.code === 'string' && NETWORK_CODES.has(error.code)) return error.code;
  if (error.name === 'TimeoutError') return 'TimeoutError';
  const first: unknown = Array.isArray(error.errors) ? error.errors[0] : undefined;
  return typeof first === 'object' && first !== null ? networkCode(first) : undefined;
}

/** Where in ~/.aws/config the user fixes these settings. */
function section(sso: SsoSettings, profile: string): string {
  // Backticks: the renderer shows these as code, something to look for in the file.
  return sso.sessionName ? `\`[sso-session ${sso.sessionName}]\`` : `\`[profile ${profile}]\``;
}

function portal(sso: SsoSettings): string {
  return `IAM Identity Center in ${sso.region} (start URL ${sso.startUrl})`;
}

/**
 * A failed device sign-in, said about IAM Identity Center rather than DynamoDB: the generic
 * mapping would blame "DynamoDB" and "the endpoint", which is not what the user has to fix.
 * The code stays the socket or AWS error name.
 */
export function signInFailure(error: unknown, sso: SsoSettings, profile: string): unknown {
  if (error instanceof AppFailure || typeof error !== 'object' || error === null) return error;
  const shape = error as ErrorShape;
  if (shape.name === 'AbortError') return error;
  const awsMessage = typeof shape.message === 'string' ? shape.message : undefined;
  const details = { startUrl: sso.startUrl, ssoRegion: sso.region, ...(awsMessage ? { awsMessage } : {}) };
  const where = section(sso, profile);

  const network = networkCode(shape);
  if (network) {
    const host = typeof shape.hostname === 'string' ? ` (${shape.hostname})` : '';
    const reason =
      network === 'ENOTFOUND' || network === 'EAI_AGAIN'
        ? `the name of its sign-in service${host} did not resolve`
        : network === 'ECONNREFUSED'
          ? 'the connection was refused'
          : 'it did not answer in time';
    return new AppFailure(
      network,
      `Could not reach ${portal(sso)}: ${reason}. Check your network connection, VPN or proxy, and that \`sso_region\` in ${where} of your AWS config is the region of your AWS access portal, then sign in again.`,
      true,
      details,
    );
  }

  const name = typeof shape.name === 'string' && shape.$metadata !== undefined ? shape.name : undefined;
  if (!name) return error;
  const said = awsMessage ? ` It said: ${awsMessage}` : '';
  switch (name) {
    case 'InvalidRequestException':
      return new AppFailure(
        name,
        `${portal(sso)} refused the sign-in request. Check \`sso_start_url\` and \`sso_region\` in ${where} of your AWS config.${said}`,
        false,
        details,
      );
    case 'InvalidScopeException':
      return new AppFailure(
        name,
        `${portal(sso)} does not accept the scopes in \`sso_registration_scopes\` of ${where}. Remove that line to use the default (\`sso:account:access\`).${said}`,
        false,
        details,
      );
    case 'InvalidClientException':
    case 'UnauthorizedClientException':
      return new AppFailure(
        name,
        `${portal(sso)} did not accept DynoTable's sign-in registration. Sign in again for a fresh one; if it keeps failing, your administrator may restrict which applications can sign in.${said}`,
        true,
        details,
      );
    case 'InternalServerException':
    case 'SlowDownException':
      return new AppFailure(
        name,
        `${portal(sso)} is having trouble right now. Wait a moment and sign in again.${said}`,
        true,
        details,
      );
    default:
      return new AppFailure(name, `${portal(sso)} could not sign you in.${said}`, false, details);
  }
}
