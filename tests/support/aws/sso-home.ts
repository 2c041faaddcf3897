import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConnectionDraft } from '../../../src/shared/ipc/connection';

export interface SsoHomeOptions {
  /** The fake IAM Identity Center (tests/support/aws/fake-sso.ts) the SDK's SSO clients should call. */
  ssoEndpoint: string;
  startUrl: string;
  /** Profile "dev" signs in through [sso-session corp] in this region. */
  ssoRegion?: string;
  region?: string;
  /** Also writes profile "old-style": the legacy SSO form (no sso-session) on this start URL. */
  legacyStartUrl?: string;
}

export interface SsoHome {
  home: string;
  /** The token file the AWS CLI and SDK use for a session name, computed independently of DynoTable. */
  cachePath(key: string): string;
  writeToken(key: string, token: Record<string, string>): Promise<void>;
  /** Puts every environment variable back as it was and deletes the folder. */
  restore(): Promise<void>;
}

const VARIABLES = [
  'HOME',
  'USERPROFILE',
  'AWS_CONFIG_FILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_ENDPOINT_URL_SSO_OIDC',
  'AWS_ENDPOINT_URL_SSO',
] as const;

/**
 * A home folder of the test's own with an SSO profile "dev" ([sso-session corp]) and an empty
 * token cache, and the SDK's documented per-service endpoint variables pointing its real SSO
 * clients at the fake. Sets process.env directly because the app under test reads it in-process.
 */
export async function createSsoHome(options: SsoHomeOptions): Promise<SsoHome> {
  const home = await mkdtemp(join(tmpdir(), 'dynotable-sso-home-'));
  const saved = new Map(VARIABLES.map((name) => [name, process.env[name]]));
  await mkdir(join(home, '.aws', 'sso', 'cache'), { recursive: true });
  const config = join(home, '.aws', 'config');
  const credentials = join(home, '.aws', 'credentials');
  await writeFile(
    config,
    [
      '[profile dev]',
      'sso_session = corp',
      'sso_account_id = 123456789012',
      'sso_role_name = Developer',
      `region = ${options.region ?? 'eu-west-1'}`,
      '',
      '[sso-session corp]',
      `sso_start_url = ${options.startUrl}`,
      `sso_region = ${options.ssoRegion ?? 'eu-west-1'}`,
      'sso_registration_scopes = sso:account:access',
      '',
      ...(options.legacyStartUrl
        ? [
            '[profile old-style]',
            `sso_start_url = ${options.legacyStartUrl}`,
            `sso_region = ${options.ssoRegion ?? 'eu-west-1'}`,
            'sso_account_id = 123456789012',
            'sso_role_name = Developer',
            '',
          ]
        : []),
    ].join('\n'),
  );
  await writeFile(credentials, '');
  Object.assign(process.env, {
    HOME: home,
    USERPROFILE: home,
    AWS_CONFIG_FILE: config,
    AWS_SHARED_CREDENTIALS_FILE: credentials,
    AWS_ENDPOINT_URL_SSO_OIDC: options.ssoEndpoint,
    AWS_ENDPOINT_URL_SSO: options.ssoEndpoint,
  });

  const cachePath = (key: string) =>
    join(home, '.aws', 'sso', 'cache', `${createHash('sha1').update(key).digest('hex')}.json`);
  return {
    home,
    cachePath,
    writeToken: (key, token) => writeFile(cachePath(key), JSON.stringify(token)),
    async restore() {
      for (const [name, value] of saved) {
        if (value === undefined) Reflect.deleteProperty(process.env, name);
        else process.env[name] = value;
      }
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** The connection a user saves for profile "dev" of an SSO home, talking to `endpoint`. */
export function devSsoConnection(endpoint: string): ConnectionDraft {
  return {
    label: 'Dev (SSO)',
    color: '#8250df',
    kind: 'profile',
    profile: 'dev',
    region: 'eu-west-1',
    endpoint,
    readOnly: false,
    isProduction: false,
  };
}
