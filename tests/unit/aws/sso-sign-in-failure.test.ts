import {
  InvalidClientException,
  InvalidRequestException,
  InvalidScopeException,
} from '@aws-sdk/client-sso-oidc';
import { describe, expect, it } from 'vitest';
import type { SsoSettings } from '../../../src/main/aws/profiles';
import { signInFailure } from '../../../src/main/aws/sso-sign-in-failure';
import { toAppError } from '../../../src/main/core/to-app-error';
import { AppFailure } from '../../../src/shared/errors';

const session: SsoSettings = {
  startUrl: 'https://corp.awsapps.com/start',
  region: 'eu-west-1',
  sessionName: 'corp',
  scopes: ['sso:account:access'],
};
const legacy: SsoSettings = { startUrl: 'https://old.awsapps.com/start', region: 'us-east-1', scopes: [] };
const metadata = { $metadata: { httpStatusCode: 400 } };

/** What the user reads: the sign-in failure as the dialog receives it. */
function shown(error: unknown, sso = session, profile = 'dev') {
  return toAppError(signInFailure(error, sso, profile));
}

/** A socket error as Node's HTTP client raises it. */
function socketError(code: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`${code} something`), { code, ...extra });
}

describe('a sign-in that cannot reach IAM Identity Center', () => {
  it('says the sign-in service name did not resolve, naming host, region, start URL and config section', () => {
    const error = shown(socketError('ENOTFOUND', { hostname: 'oidc.eu-west-1.amazonaws.com' }));
    expect(error.code).toBe('ENOTFOUND');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(
      'Could not reach IAM Identity Center in eu-west-1 (start URL https://corp.awsapps.com/start): the name of its sign-in service (oidc.eu-west-1.amazonaws.com) did not resolve. Check your network connection, VPN or proxy, and that `sso_region` in `[sso-session corp]` of your AWS config is the region of your AWS access portal, then sign in again.',
    );
    // The generic sentence for the same socket error blames DynamoDB, which is what this avoids.
    expect(toAppError(socketError('ENOTFOUND')).message).toMatch(/DynamoDB/);
  });

  it('points a legacy profile at its own [profile …] section', () => {
    const error = shown(socketError('ETIMEDOUT'), legacy, 'old-style');
    expect(error.message).toContain(
      'IAM Identity Center in us-east-1 (start URL https://old.awsapps.com/start): it did not answer in time',
    );
    expect(error.message).toContain('`sso_region` in `[profile old-style]`');
  });

  it('reads a socket error wrapped in an AggregateError (several addresses tried)', () => {
    const error = shown(new AggregateError([socketError('ECONNREFUSED')], 'connect failed'));
    expect(error.code).toBe('ECONNREFUSED');
    expect(error.message).toContain('the connection was refused');
  });

  it('reads an SDK timeout the same way', () => {
    const timeout = Object.assign(new Error('Connection timed out after 5000 ms'), { name: 'TimeoutError' });
    expect(shown(timeout)).toMatchObject({ code: 'TimeoutError', retryable: true });
  });
});

describe('a sign-in that IAM Identity Center refuses', () => {
  it('keeps the AWS error name and says which settings to check', () => {
    const refused = shown(new InvalidRequestException({ message: 'Invalid start URL', ...metadata }));
    expect(refused.code).toBe('InvalidRequestException');
    expect(refused.message).toBe(
      'IAM Identity Center in eu-west-1 (start URL https://corp.awsapps.com/start) refused the sign-in request. Check `sso_start_url` and `sso_region` in `[sso-session corp]` of your AWS config. It said: Invalid start URL',
    );
    expect(refused.details).toMatchObject({ startUrl: session.startUrl, ssoRegion: 'eu-west-1' });
  });

  it('explains bad scopes and a rejected client registration', () => {
    expect(shown(new InvalidScopeException({ message: 'bad scope', ...metadata })).message).toContain(
      'does not accept the scopes in `sso_registration_scopes` of `[sso-session corp]`',
    );
    const client = shown(new InvalidClientException({ message: 'expired client', ...metadata }));
    expect(client).toMatchObject({ code: 'InvalidClientException', retryable: true });
    expect(client.message).toContain('Sign in again for a fresh one');
  });
});

describe('what passes through unchanged', () => {
  it('keeps our own failures and cancellation as they are', () => {
    const denied = new AppFailure('AccessDeniedException', 'The sign-in was denied in the browser.');
    expect(signInFailure(denied, session, 'dev')).toBe(denied);
    const abort = Object.assign(new Error('aborted'), { name: 'AbortError' });
    expect(signInFailure(abort, session, 'dev')).toBe(abort);
    expect(toAppError(signInFailure(abort, session, 'dev')).code).toBe('Cancelled');
  });
});
