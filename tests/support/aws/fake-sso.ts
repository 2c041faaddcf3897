import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, sendJson } from './http-json';

export interface FakeSso {
  /** Base URL for AWS_ENDPOINT_URL_SSO_OIDC and AWS_ENDPOINT_URL_SSO. */
  endpoint: string;
  /** What the user would see: the page the app opened, and the calls made. */
  openedPages: string[];
  calls: string[];
  /** Role credentials handed out by GetRoleCredentials. */
  roleCredentials: { accessKeyId: string; secretAccessKey: string; sessionToken: string };
  close(): Promise<void>;
}

/**
 * A local IAM Identity Center: the SSO-OIDC device flow (RegisterClient,
 * StartDeviceAuthorization, CreateToken) and the SSO portal's GetRoleCredentials, speaking
 * the real REST-JSON wire protocol so the real SDK clients talk to it unchanged. Visiting
 * the verification page approves the code, as a person clicking "Allow" would.
 */
export async function startFakeSso(roleCredentials: FakeSso['roleCredentials']): Promise<FakeSso> {
  const clients = new Map<string, string>();
  const devices = new Map<string, { userCode: string; approved: boolean; clientId: string }>();
  const validTokens = new Set<string>();
  const calls: string[] = [];
  const openedPages: string[] = [];
  let counter = 0;
  let endpoint = '';

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', endpoint);
      const body = req.method === 'POST' ? (JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>) : {};
      calls.push(`${req.method} ${url.pathname}`);

      if (req.method === 'POST' && url.pathname === '/client/register') {
        const clientId = `client-${++counter}`;
        clients.set(clientId, `secret-${counter}`);
        const now = Math.floor(Date.now() / 1000);
        return sendJson(res, 200, {
          clientId,
          clientSecret: clients.get(clientId),
          clientIdIssuedAt: now,
          clientSecretExpiresAt: now + 90 * 24 * 3600,
        });
      }
      if (req.method === 'POST' && url.pathname === '/device_authorization') {
        if (clients.get(String(body.clientId)) !== body.clientSecret) {
          return sendJson(res, 400, { error: 'invalid_client' }, 'InvalidClientException');
        }
        const deviceCode = `device-${++counter}`;
        const userCode = `WXYZ-${counter}`;
        devices.set(deviceCode, { userCode, approved: false, clientId: String(body.clientId) });
        return sendJson(res, 200, {
          deviceCode,
          userCode,
          verificationUri: `${endpoint}/device`,
          verificationUriComplete: `${endpoint}/device?user_code=${userCode}`,
          expiresIn: 600,
          interval: 1,
        });
      }
      if (req.method === 'GET' && url.pathname === '/device') {
        openedPages.push(url.toString());
        for (const device of devices.values()) {
          if (device.userCode === url.searchParams.get('user_code')) device.approved = true;
        }
        res.writeHead(200, { 'content-type': 'text/plain' }).end('Request approved');
        return;
      }
      if (req.method === 'POST' && url.pathname === '/token') {
        if (body.grantType === 'refresh_token') {
          return sendJson(res, 400, { error: 'invalid_grant', error_description: 'refresh token revoked' }, 'InvalidGrantException');
        }
        const device = devices.get(String(body.deviceCode));
        if (!device || device.clientId !== body.clientId) return sendJson(res, 400, { error: 'invalid_grant' }, 'InvalidGrantException');
        if (!device.approved) {
          return sendJson(res, 400, { error: 'authorization_pending', error_description: 'pending' }, 'AuthorizationPendingException');
        }
        devices.delete(String(body.deviceCode));
        const accessToken = `access-${++counter}`;
        validTokens.add(accessToken);
        return sendJson(res, 200, { accessToken, tokenType: 'Bearer', expiresIn: 3600, refreshToken: `refresh-${counter}` });
      }
      if (req.method === 'GET' && url.pathname === '/federation/credentials') {
        const token = req.headers['x-amz-sso_bearer_token'];
        if (typeof token !== 'string' || !validTokens.has(token)) {
          return sendJson(res, 401, { message: 'Session token not found or invalid' }, 'UnauthorizedException');
        }
        return sendJson(res, 200, { roleCredentials: { ...roleCredentials, expiration: Date.now() + 3600_000 } });
      }
      sendJson(res, 404, { message: `no route ${req.method} ${url.pathname}` }, 'ResourceNotFoundException');
    })().catch((error: unknown) => sendJson(res, 500, { message: String(error) }, 'InternalServerException'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    openedPages,
    calls,
    roleCredentials,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
