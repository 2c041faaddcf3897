import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccessKeys } from '../../../src/shared/ipc/connection';
import { uniqueKeys } from './connection-fixture';
import { startFakeSts, type FakeSts } from './fake-sts';

export interface MfaHome {
  /** The profile that assumes the role with MFA. */
  profile: string;
  serialNumber: string;
  roleArn: string;
  /** The code the fake STS accepts. */
  code: string;
  /** The keys a role session gets: DynamoDB Local shows tables made with them. */
  roleKeys: AccessKeys;
  sourceKeys: AccessKeys;
  sts: FakeSts;
  /** Removes the files, stops STS and puts every environment variable back as it was. */
  close(): Promise<void>;
}

const VARIABLES = ['AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE', 'AWS_ENDPOINT_URL_STS'] as const;

/**
 * AWS config files of the test's own: a source profile with long-term keys and a profile
 * "admin" that assumes a role with `mfa_serial`, the way the AWS CLI documents it. The SDK's
 * per-service endpoint variable points its real STS client at a local STS. Sets process.env
 * directly because the app under test reads it in-process.
 */
export async function createMfaHome(): Promise<MfaHome> {
  const dir = await mkdtemp(join(tmpdir(), 'dynotable-mfa-'));
  const saved = new Map(VARIABLES.map((name) => [name, process.env[name]]));
  const sourceKeys = uniqueKeys();
  const roleKeys = uniqueKeys();
  const serialNumber = 'arn:aws:iam::123456789012:mfa/alice';
  const roleArn = 'arn:aws:iam::123456789012:role/Admin';
  const code = '482915';
  const sts = await startFakeSts(
    { [sourceKeys.accessKeyId]: 'arn:aws:iam::123456789012:user/alice' },
    { [roleArn]: { mfa: { serialNumber, code }, credentials: roleKeys } },
  );
  const config = join(dir, 'config');
  const credentials = join(dir, 'credentials');
  await writeFile(
    config,
    [
      '[profile admin]',
      `role_arn = ${roleArn}`,
      'source_profile = alice',
      `mfa_serial = ${serialNumber}`,
      'region = eu-west-1',
      '',
    ].join('\n'),
  );
  await writeFile(
    credentials,
    `[alice]\naws_access_key_id = ${sourceKeys.accessKeyId}\naws_secret_access_key = ${sourceKeys.secretAccessKey}\n`,
  );
  Object.assign(process.env, {
    AWS_CONFIG_FILE: config,
    AWS_SHARED_CREDENTIALS_FILE: credentials,
    AWS_ENDPOINT_URL_STS: sts.endpoint,
  });
  return {
    profile: 'admin',
    serialNumber,
    roleArn,
    code,
    roleKeys,
    sourceKeys,
    sts,
    async close() {
      for (const [name, value] of saved) {
        if (value === undefined) Reflect.deleteProperty(process.env, name);
        else process.env[name] = value;
      }
      await sts.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
