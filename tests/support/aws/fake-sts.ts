import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './http-json';

export interface FakeSts {
  endpoint: string;
  /** Every AssumeRole call as STS received it: what the user would see in CloudTrail. */
  assumeRoleCalls: AssumeRoleCall[];
  close(): Promise<void>;
}

export interface AssumeRoleCall {
  callerKeyId: string;
  roleArn: string;
  serialNumber?: string;
  tokenCode?: string;
}

/** A role the fake lets callers assume, the MFA it demands, and the keys a session gets. */
export interface FakeRole {
  mfa?: { serialNumber: string; code: string };
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** How long a session lasts (default an hour, as AWS's default DurationSeconds). */
  ttlMs?: number;
}

const NS = 'https://sts.amazonaws.com/doc/2011-06-15/';

/**
 * STS over its real wire protocol (AWS query in, XML out): GetCallerIdentity and AssumeRole.
 * The caller is recognised by the access key id in the SigV4 Authorization header, as AWS does;
 * any other key gets the InvalidClientTokenId answer AWS gives for an unknown key. A role with
 * MFA answers a missing or wrong code with AccessDenied and STS's own messages.
 */
export async function startFakeSts(
  identities: Record<string, string>,
  roles: Record<string, FakeRole> = {},
): Promise<FakeSts> {
  const assumeRoleCalls: AssumeRoleCall[] = [];
  let sessions = 0;

  function assumeRole(keyId: string, params: URLSearchParams): [number, string] {
    const roleArn = params.get('RoleArn') ?? '';
    const serialNumber = params.get('SerialNumber') ?? undefined;
    const tokenCode = params.get('TokenCode') ?? undefined;
    assumeRoleCalls.push({ callerKeyId: keyId, roleArn, serialNumber, tokenCode });
    const role = roles[roleArn];
    const caller = identities[keyId] ?? '';
    if (!role)
      return [
        403,
        errorXml(
          'AccessDenied',
          `User: ${caller} is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`,
        ),
      ];
    if (role.mfa && (serialNumber !== role.mfa.serialNumber || !tokenCode)) {
      return [
        403,
        errorXml(
          'AccessDenied',
          `User: ${caller} is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`,
        ),
      ];
    }
    if (role.mfa && tokenCode !== role.mfa.code) {
      return [
        403,
        errorXml('AccessDenied', 'MultiFactorAuthentication failed with invalid MFA one time pass code. '),
      ];
    }
    const [, , , , account, resource] = roleArn.split(':');
    const roleName = resource?.split('/').pop() ?? 'role';
    const session = params.get('RoleSessionName') ?? `session-${++sessions}`;
    const arn = `arn:aws:sts::${account}:assumed-role/${roleName}/${session}`;
    identities[role.credentials.accessKeyId] = arn;
    const expiration = new Date(Date.now() + (role.ttlMs ?? 3600_000)).toISOString().replace(/\.\d+Z$/, 'Z');
    return [
      200,
      `<AssumeRoleResponse xmlns="${NS}"><AssumeRoleResult><AssumedRoleUser><Arn>${arn}</Arn><AssumedRoleId>AROAEXAMPLE:${session}</AssumedRoleId></AssumedRoleUser><Credentials><AccessKeyId>${role.credentials.accessKeyId}</AccessKeyId><SecretAccessKey>${role.credentials.secretAccessKey}</SecretAccessKey><SessionToken>fake-session-${sessions}</SessionToken><Expiration>${expiration}</Expiration></Credentials></AssumeRoleResult><ResponseMetadata><RequestId>fake</RequestId></ResponseMetadata></AssumeRoleResponse>`,
    ];
  }

  function route(keyId: string, body: string): [number, string] {
    const params = new URLSearchParams(body);
    const action = params.get('Action');
    if (action !== 'GetCallerIdentity' && action !== 'AssumeRole') {
      return [400, errorXml('InvalidAction', 'Only GetCallerIdentity and AssumeRole are implemented here.')];
    }
    const arn = identities[keyId];
    if (!arn)
      return [
        403,
        errorXml('InvalidClientTokenId', 'The security token included in the request is invalid.'),
      ];
    if (action === 'AssumeRole') return assumeRole(keyId, params);
    const account = arn.split(':')[4];
    return [
      200,
      `<GetCallerIdentityResponse xmlns="${NS}"><GetCallerIdentityResult><Arn>${arn}</Arn><UserId>AIDAEXAMPLE</UserId><Account>${account}</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>fake</RequestId></ResponseMetadata></GetCallerIdentityResponse>`,
    ];
  }

  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const keyId = /Credential=([^/]+)\//.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const [status, xml] = route(keyId, body);
      res.setHeader('content-type', 'text/xml');
      res.writeHead(status).end(xml);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    assumeRoleCalls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function errorXml(code: string, message: string): string {
  return `<ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>fake</RequestId></ErrorResponse>`;
}
