import {
  AccessDeniedException,
  AuthorizationPendingException,
  CreateTokenCommand,
  ExpiredTokenException,
  RegisterClientCommand,
  SlowDownException,
  SSOOIDCClient,
  StartDeviceAuthorizationCommand,
} from '@aws-sdk/client-sso-oidc';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Connection } from '../../shared/ipc/connection';
import type { Progress } from '../../shared/ipc/operations';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { CoreContext } from '../core/context';
import type { OperationOutcome, OperationRun } from '../core/operations';
import { ssoSettingsFor } from './profiles';
import { sdkTransport } from './sdk-options';
import { signInFailure } from './sso-sign-in-failure';
import { writeSsoToken } from './sso-token-cache';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
// RFC 8628: on slow_down the client adds 5 seconds to its polling interval.
const SLOW_DOWN_STEP_S = 5;

function progress(message: string, verification?: Progress['verification']): Progress {
  return { items: 0, pages: 0, consumedCapacity: 0, message, ...(verification ? { verification } : {}) };
}

/**
 * Signs a profile connection in again through IAM Identity Center's device flow (what
 * `aws sso login` does), then writes the token where the SDK's SSO provider reads it. The
 * renderer keeps its tabs; the operation just ends with done and the next request works.
 */
export async function startSsoSignIn(
  connection: Connection,
  run: OperationRun,
  ctx: Pick<CoreContext, 'openExternal' | 'clients' | 'mode'>,
): Promise<OperationOutcome<'connections:signIn'>> {
  if (connection.kind !== 'profile' || !connection.profile) {
    throw new AppFailure(
      ErrorCodes.invalidInput,
      'Only connections that use an AWS profile with IAM Identity Center (SSO) can sign in again.',
    );
  }
  const profile = connection.profile;
  const sso = await ssoSettingsFor(profile);
  const { requestHandler } = sdkTransport();
  // No credentials: these OIDC operations are unsigned by design.
  const oidc = new SSOOIDCClient({ region: sso.region, requestHandler, maxAttempts: 3 });
  const { signal } = run;
  try {
    const registration = await oidc.send(
      new RegisterClientCommand({
        clientName: 'DynoTable',
        clientType: 'public',
        ...(sso.scopes.length ? { scopes: sso.scopes } : {}),
      }),
      { abortSignal: signal },
    );
    const clientId = registration.clientId ?? '';
    const clientSecret = registration.clientSecret ?? '';
    const device = await oidc.send(
      new StartDeviceAuthorizationCommand({ clientId, clientSecret, startUrl: sso.startUrl }),
      {
        abortSignal: signal,
      },
    );
    const pageUrl = device.verificationUriComplete ?? device.verificationUri ?? sso.startUrl;
    // In browser mode main may run on another machine (an SSH tunnel): opening a browser here
    // would open it there. The page in the user's browser shows the link instead.
    const opened = ctx.mode === 'desktop' && (await ctx.openExternal(pageUrl));
    const code = device.userCode ?? '';
    run.emit({
      type: 'progress',
      progress: progress(
        opened
          ? `Confirm the code ${code} in the page your browser opened (${pageUrl}) to sign in to profile "${profile}". DynoTable waits until you do.`
          : `Open ${pageUrl} in your browser and confirm the code ${code} to sign in to profile "${profile}". DynoTable waits until you do.`,
        { url: pageUrl, userCode: code, isOpened: opened },
      ),
    });

    let intervalS = Math.max(device.interval ?? 5, 1);
    const deadline = Date.now() + (device.expiresIn ?? 600) * 1000;
    for (;;) {
      if (Date.now() > deadline) throw codeExpired();
      await sleep(intervalS * 1000, undefined, { signal });
      try {
        const token = await oidc.send(
          new CreateTokenCommand({
            clientId,
            clientSecret,
            grantType: DEVICE_GRANT,
            deviceCode: device.deviceCode,
          }),
          { abortSignal: signal },
        );
        const expiresAt = new Date(Date.now() + (token.expiresIn ?? 3600) * 1000);
        await writeSsoToken(sso.sessionName ?? sso.startUrl, {
          startUrl: sso.startUrl,
          region: sso.region,
          accessToken: token.accessToken ?? '',
          expiresAt: expiresAt.toISOString(),
          clientId,
          clientSecret,
          ...(registration.clientSecretExpiresAt
            ? { registrationExpiresAt: new Date(registration.clientSecretExpiresAt * 1000).toISOString() }
            : {}),
          ...(token.refreshToken ? { refreshToken: token.refreshToken } : {}),
        });
        // Every cached client: other connections may use the same SSO session.
        ctx.clients.invalidate();
        return {
          progress: progress(`Signed in to profile "${profile}".`),
          value: { expiresAt: expiresAt.toISOString() },
        };
      } catch (error) {
        if (error instanceof AuthorizationPendingException) continue;
        if (error instanceof SlowDownException) intervalS += SLOW_DOWN_STEP_S;
        else if (error instanceof ExpiredTokenException) throw codeExpired();
        else if (error instanceof AccessDeniedException) {
          throw new AppFailure(
            'AccessDeniedException',
            'The sign-in was denied in the browser, so nothing changed.',
          );
        } else throw error;
      }
    }
  } catch (error) {
    throw signInFailure(error, sso, profile);
  } finally {
    oidc.destroy();
  }
}

function codeExpired(): AppFailure {
  return new AppFailure(
    'ExpiredTokenException',
    'The sign-in code expired before it was confirmed. Choose "Sign in again" for a new code.',
  );
}
