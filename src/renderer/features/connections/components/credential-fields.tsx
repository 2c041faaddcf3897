import { Field } from '../../../ui/field';
import type { ConnectionDraft, DraftErrors, EditableKind } from '../draft';
import { ProfilePicker } from './profile-picker';

interface CredentialFieldsProps {
  draft: ConnectionDraft;
  errors: DraftErrors;
  update(patch: Partial<ConnectionDraft>): void;
  /** Why access keys cannot be stored here, or undefined when they can. */
  keysUnavailableReason?: string;
}

const kinds: { kind: EditableKind; title: string; hint: string }[] = [
  { kind: 'profile', title: 'AWS profile', hint: 'SSO, assume-role and key profiles from ~/.aws' },
  { kind: 'keys', title: 'Access keys', hint: 'Stored encrypted on this machine' },
  { kind: 'default-chain', title: 'Default chain', hint: 'Environment, instance or container role' },
];

export function CredentialFields({ draft, errors, update, keysUnavailableReason }: CredentialFieldsProps) {
  return (
    <>
      <div className="field">
        <span className="field-label" id="connection-kind-label">
          Credentials
        </span>
        <div className="segmented" role="radiogroup" aria-labelledby="connection-kind-label">
          {kinds.map(({ kind, title, hint }) => {
            const isDisabled =
              kind === 'keys' && keysUnavailableReason !== undefined && draft.kind !== 'keys';
            return (
              <button
                type="button"
                role="radio"
                aria-checked={draft.kind === kind}
                disabled={isDisabled}
                title={isDisabled ? keysUnavailableReason : hint}
                key={kind}
                className={`segment${draft.kind === kind ? ' is-selected' : ''}`}
                onClick={() => update({ kind })}
              >
                <span className="segment-title">{title}</span>
                <span className="segment-hint">{hint}</span>
              </button>
            );
          })}
        </div>
        {keysUnavailableReason ? <p className="field-hint">{keysUnavailableReason}</p> : null}
      </div>

      {draft.kind === 'profile' ? (
        <Field label="Profile" htmlFor="connection-profile" error={errors.profile}>
          <ProfilePicker
            value={draft.profile}
            onChange={(profile, region) => update(region ? { profile, region } : { profile })}
          />
        </Field>
      ) : null}

      {draft.kind === 'keys' ? (
        <div className="field-row">
          <Field label="Access key id" htmlFor="connection-key-id" error={errors.accessKeyId}>
            <input
              id="connection-key-id"
              className="input mono"
              value={draft.accessKeyId}
              autoComplete="off"
              spellCheck={false}
              placeholder={draft.hasStoredKeys ? 'unchanged (stored encrypted)' : 'AKIA…'}
              onChange={(event) => update({ accessKeyId: event.target.value })}
            />
          </Field>
          <Field label="Secret access key" htmlFor="connection-secret" error={errors.secretAccessKey}>
            <input
              id="connection-secret"
              className="input mono"
              type="password"
              value={draft.secretAccessKey}
              autoComplete="off"
              placeholder={draft.hasStoredKeys ? 'unchanged' : ''}
              onChange={(event) => update({ secretAccessKey: event.target.value })}
            />
          </Field>
        </div>
      ) : null}

      {draft.kind === 'default-chain' ? (
        <p className="field-hint">
          Uses the AWS SDK's default chain: environment variables, web identity, container or instance role,
          then the default profile.
        </p>
      ) : null}
    </>
  );
}
