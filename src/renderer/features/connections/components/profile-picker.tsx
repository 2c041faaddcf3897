import { useEffect } from 'react';
import { Badge } from '../../../ui/badge';
import { profileKindLabels } from '../describe';
import { useConnectionsStore } from '../store';

export interface ProfilePickerProps {
  value: string;
  onChange(profile: string, region?: string): void;
}

/** The profiles of ~/.aws/config and ~/.aws/credentials, each with how it gets credentials. */
export function ProfilePicker({ value, onChange }: ProfilePickerProps) {
  const profiles = useConnectionsStore((state) => state.profiles);
  const profilesError = useConnectionsStore((state) => state.profilesError);
  const loadProfiles = useConnectionsStore((state) => state.loadProfiles);

  useEffect(() => {
    if (!profiles) void loadProfiles();
  }, [profiles, loadProfiles]);

  if (!profiles) return <p className="muted">Reading your AWS profiles…</p>;
  if (profiles.length === 0) {
    return (
      <div className="profile-empty">
        <p className="muted">
          {profilesError?.message ?? 'No profiles found in ~/.aws/config or ~/.aws/credentials.'} Type a
          profile name if it lives elsewhere (AWS_CONFIG_FILE).
        </p>
        <input
          id="connection-profile"
          className="input"
          value={value}
          placeholder="profile name"
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
    );
  }
  return (
    <div className="profile-list" role="listbox" id="connection-profile" aria-label="AWS profiles">
      {profiles.map((profile) => (
        <button
          type="button"
          role="option"
          aria-selected={profile.name === value}
          key={profile.name}
          className={`profile-option${profile.name === value ? ' is-selected' : ''}`}
          onClick={() => onChange(profile.name, profile.region)}
        >
          <span className="profile-name">{profile.name}</span>
          {profile.region ? <span className="profile-region">{profile.region}</span> : null}
          <Badge
            tone={profile.kind === 'sso' ? 'accent' : profile.kind === 'assume-role' ? 'warning' : 'neutral'}
          >
            {profileKindLabels[profile.kind] ?? profile.kind}
          </Badge>
        </button>
      ))}
    </div>
  );
}
