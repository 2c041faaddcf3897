import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listProfiles, ssoSettingsFor } from '../../../src/main/aws/profiles';

const config = `
[default]
region = eu-west-1

[profile dev]
sso_session = corp
sso_account_id = 123456789012
sso_role_name = Developer
region = eu-central-1

[sso-session corp]
sso_start_url = https://corp.awsapps.com/start
sso_region = eu-west-1
sso_registration_scopes = sso:account:access, sso:other

[profile legacy-sso]
sso_start_url = https://old.awsapps.com/start
sso_region = us-east-1
sso_account_id = 123456789012
sso_role_name = ReadOnly

[profile admin]
role_arn = arn:aws:iam::123456789012:role/Admin
source_profile = default
region = us-west-2

[profile tool]
credential_process = /usr/local/bin/get-creds

[services local-dynamo]
dynamodb =
  endpoint_url = http://localhost:8000
`;

const credentials = `
[default]
aws_access_key_id = AKIAIOSFODNN7EXAMPLE
aws_secret_access_key = secret

[ci]
aws_access_key_id = AKIAI44QH8DHBEXAMPLE
aws_secret_access_key = secret
`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dynotable-profiles-'));
  await writeFile(join(dir, 'config'), config);
  await writeFile(join(dir, 'credentials'), credentials);
  vi.stubEnv('AWS_CONFIG_FILE', join(dir, 'config'));
  vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(dir, 'credentials'));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

describe('AWS profiles', () => {
  it('lists every profile of both files with its kind and region, default first', async () => {
    expect(await listProfiles()).toEqual([
      { name: 'default', kind: 'keys', region: 'eu-west-1' },
      { name: 'admin', kind: 'assume-role', region: 'us-west-2' },
      { name: 'ci', kind: 'keys' },
      { name: 'dev', kind: 'sso', region: 'eu-central-1' },
      { name: 'legacy-sso', kind: 'sso' },
      { name: 'tool', kind: 'process' },
    ]);
  });

  it('sees a profile added while the app runs', async () => {
    await listProfiles();
    await writeFile(join(dir, 'config'), `${config}\n[profile late]\nregion = ap-south-1\n`);
    expect(await listProfiles()).toContainEqual({ name: 'late', kind: 'other', region: 'ap-south-1' });
  });

  it('finds the SSO settings of an sso-session profile and of a legacy one', async () => {
    expect(await ssoSettingsFor('dev')).toEqual({
      startUrl: 'https://corp.awsapps.com/start',
      region: 'eu-west-1',
      sessionName: 'corp',
      scopes: ['sso:account:access', 'sso:other'],
    });
    expect(await ssoSettingsFor('legacy-sso')).toEqual({
      startUrl: 'https://old.awsapps.com/start',
      region: 'us-east-1',
      scopes: [],
    });
    await expect(ssoSettingsFor('admin')).rejects.toMatchObject({ code: 'InvalidInput' });
  });

  it('answers with an empty list when there are no AWS files at all', async () => {
    vi.stubEnv('AWS_CONFIG_FILE', join(dir, 'missing-config'));
    vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(dir, 'missing-credentials'));
    expect(await listProfiles()).toEqual([]);
  });
});
