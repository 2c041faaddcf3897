import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, sendJson } from './http-json';

export interface FakeSso {
  /** Base URL for AWS_ENDPOINT_URL_SSO_OIDC and AWS_ENDPOINT_URL_SSO. */
  endpoint: string;
  /** What the user would see: the page the app opened, and the calls made. */
  openedPages: string[];
  calls: string[];
  /** An access token the fake accepts, as if the user had signed in before the test began. */
  issueAccessToken(): string;
  /**
   * Holds every GetRoleCredentials call until the returned function is called: the app's next
   * AWS calls wait on their credentials, as on a slow network, so a test can order what the user
   * does against when those calls answer.
   */
  holdRoleCredentials(): () => void;
  close(): Promise<void>;
}

export interface FakeSsoOptions {
  /**
   * How long role credentials last. The SDK renews credentials that expire within five
   * minutes before every request, so a shorter life makes each DynamoDB call go back to the
   * cached SSO token, the way an hour-old session does once its role credentials run out.
   */
  roleCredentialsTtlMs?: number;
}

type RoleCredentials = { accessKeyId: string; secretAccessKey: string; sessionToken: string };
interface Reply {
  status: number;
  body: unknown;
  errorType?: string;
}

const ok = (body: unknown): Reply => ({ status: 200, body });
const fail = (status: number, errorType: string, body: unknown): Reply => ({ status, body, errorType });

/**
 * A local IAM Identity Center: the SSO-OIDC device flow (RegisterClient,
 * StartDeviceAuthorization, CreateToken) and the SSO portal's GetRoleCredentials, speaking
 * the real REST-JSON wire protocol so the real SDK clients talk to it unchanged. Visiting
 * the verification page approves the code, as a person clicking "Allow" would.
 */
export async function startFakeSso(
  roleCredentials: RoleCredentials,
  options: FakeSsoOptions = {},
): Promise<FakeSso> {
  const roleTtlMs = options.roleCredentialsTtlMs ?? 3600_000;
  const clients = new Map<string, string>();
  const devices = new Map<string, { userCode: string; approved: boolean; clientId: string }>();
  const validTokens = new Set<string>();
  const calls: string[] = [];
  const openedPages: string[] = [];
  let counter = 0;
  let endpoint = '';
  let held: Promise<void> | undefined;

  function route(
    method: string,
    url: URL,
    body: Record<string, unknown>,
    headers: IncomingHttpHeaders,
  ): Reply {
    if (method === 'POST' && url.pathname === '/client/register') {
      const clientId = `client-${++counter}`;
      clients.set(clientId, `secret-${counter}`);
      const now = Math.floor(Date.now() / 1000);
      return ok({
        clientId,
        clientSecret: clients.get(clientId),
        clientIdIssuedAt: now,
        clientSecretExpiresAt: now + 90 * 24 * 3600,
      });
    }
    if (method === 'POST' && url.pathname === '/device_authorization') {
      if (clients.get(String(body.clientId)) !== body.clientSecret)
        return fail(400, 'InvalidClientException', { error: 'invalid_client' });
      const deviceCode = `device-${++counter}`;
      const userCode = `WXYZ-${counter}`;
      devices.set(deviceCode, { userCode, approved: false, clientId: String(body.clientId) });
      return ok({
        deviceCode,
        userCode,
        verificationUri: `${endpoint}/device`,
        verificationUriComplete: `${endpoint}/device?user_code=${userCode}`,
        expiresIn: 600,
        interval: 1,
      });
    }
    if (method === 'GET' && url.pathname === '/device') {
      openedPages.push(url.toString());
      for (const device of devices.values()) {
        if (device.userCode === url.searchParams.get('user_code')) device.approved = true;
      }
      return ok({ approved: true });
    }
    if (method === 'POST' && url.pathname === '/token') {
      if (body.grantType === 'refresh_token') {
        return fail(400, 'InvalidGrantException', {
          error: 'invalid_grant',
          error_description: 'refresh token revoked',
        });
      }
      const device = devices.get(String(body.deviceCode));
      if (!device || device.clientId !== body.clientId)
        return fail(400, 'InvalidGrantException', { error: 'invalid_grant' });
      if (!device.approved) {
        return fail(400, 'AuthorizationPendingException', {
          error: 'authorization_pending',
          error_description: 'pending',
        });
      }
      devices.delete(String(body.deviceCode));
      const accessToken = `access-${++counter}`;
      validTokens.add(accessToken);
      return ok({ accessToken, tokenType: 'Bearer', expiresIn: 3600, refreshToken: `refresh-${counter}` });
    }
    if (method === 'GET' && url.pathname === '/federation/credentials') {
      const token = headers['x-amz-sso_bearer_token'];
      if (typeof token !== 'string' || !validTokens.has(token)) {
        return fail(401, 'UnauthorizedException', { message: 'Session token not found or invalid' });
      }
      return ok({ roleCredentials: { ...roleCredentials, expiration: Date.now() + roleTtlMs } });
    }
    return fail(404, 'ResourceNotFoundException', { message: `no route ${method} ${url.pathname}` });
  }

  const server: Server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', endpoint);
    calls.push(`${method} ${url.pathname}`);
    const gate = url.pathname === '/federation/credentials' ? held : undefined;
    Promise.all([readBody(req), gate])
      .then(([text]) => {
        const reply = route(
          method,
          url,
          text ? (JSON.parse(text) as Record<string, unknown>) : {},
          req.headers,
        );
        sendJson(res, reply.status, reply.body, reply.errorType);
      })
      .catch((error: unknown) => {
        sendJson(res, 500, { message: String(error) }, 'InternalServerException');
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    openedPages,
    calls,
    issueAccessToken() {
      const token = `access-${++counter}`;
      validTokens.add(token);
      return token;
    },
    holdRoleCredentials() {
      let release = (): void => undefined;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A browser or SDK client may hold a keep-alive socket open; do not wait for it.
        server.closeAllConnections();
      }),
  };
}
