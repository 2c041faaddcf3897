import { loadSharedConfigFiles } from '@smithy/core/config';
import type { ProfileSummary } from '../../shared/ipc/connection';
import { AppFailure, ErrorCodes } from '../../shared/errors';

type Section = Record<string, string | undefined>;

// Sections of the config file that are not profiles (loadSharedConfigFiles keeps their prefix).
const NON_PROFILE = /^(sso-session|services)\./;
const MAX_PROFILES = 1000;

/**
 * Every profile of the shared config and credentials files (AWS_CONFIG_FILE and
 * AWS_SHARED_CREDENTIALS_FILE are respected), merged the way the SDK merges them:
 * the credentials file wins key by key. Read fresh each time, so edits show up.
 */
export async function loadProfiles(): Promise<Map<string, Section>> {
  const { configFile, credentialsFile } = await loadSharedConfigFiles({ ignoreCache: true });
  const profiles = new Map<string, Section>();
  for (const [name, section] of Object.entries(configFile)) {
    if (!NON_PROFILE.test(name)) profiles.set(name, { ...section });
  }
  for (const [name, section] of Object.entries(credentialsFile)) {
    profiles.set(name, { ...profiles.get(name), ...section });
  }
  return profiles;
}

export function profileKind(section: Section): ProfileSummary['kind'] {
  if (section.sso_session || section.sso_start_url || section.sso_account_id) return 'sso';
  if (section.role_arn) return 'assume-role';
  if (section.credential_process) return 'process';
  if (section.aws_access_key_id) return 'keys';
  return 'other';
}

export async function listProfiles(): Promise<ProfileSummary[]> {
  const profiles = await loadProfiles();
  const names = [...profiles.keys()].sort((a, b) =>
    a === 'default' ? -1 : b === 'default' ? 1 : a.localeCompare(b),
  );
  return names.slice(0, MAX_PROFILES).map((name) => {
    const section = profiles.get(name) ?? {};
    return { name, kind: profileKind(section), ...(section.region ? { region: section.region } : {}) };
  });
}

/** What an SSO sign-in needs, from an sso-session section or a legacy profile. */
export interface SsoSettings {
  startUrl: string;
  region: string;
  /** The sso-session name; absent for legacy profiles, whose token is cached by start URL. */
  sessionName?: string;
  scopes: string[];
}

export async function ssoSettingsFor(profileName: string): Promise<SsoSettings> {
  const { configFile } = await loadSharedConfigFiles({ ignoreCache: true });
  const profile = configFile[profileName];
  const notSso = (): AppFailure =>
    new AppFailure(
      ErrorCodes.invalidInput,
      `The profile "${profileName}" does not use AWS IAM Identity Center (SSO), so there is nothing to sign in to.`,
    );
  if (!profile) throw notSso();
  const sessionName = profile.sso_session;
  if (sessionName) {
    const session = configFile[`sso-session.${sessionName}`];
    if (!session?.sso_start_url || !session.sso_region) {
      throw new AppFailure(
        ErrorCodes.invalidInput,
        `The profile "${profileName}" refers to [sso-session ${sessionName}], which is missing or has no sso_start_url and sso_region.`,
      );
    }
    const scopes = (session.sso_registration_scopes ?? 'sso:account:access')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    return { startUrl: session.sso_start_url, region: session.sso_region, sessionName, scopes };
  }
  if (profile.sso_start_url && profile.sso_region) {
    return { startUrl: profile.sso_start_url, region: profile.sso_region, scopes: [] };
  }
  throw notSso();
}
