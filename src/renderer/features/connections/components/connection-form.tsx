import { useState } from 'react';
import { flushSync } from 'react-dom';
import type { AppError, Connection } from '../../../../shared/ipc';
import { Field } from '../../../ui/field';
import { moveFocus } from '../../../ui/move-focus';
import { useAppInfoStore } from '../../app-info/store';
import {
  draftFrom,
  newDraft,
  toSaveInput,
  validateDraft,
  type ConnectionDraft,
  type DraftErrors,
} from '../draft';
import { endpointPresets } from '../regions';
import { useConnectionsStore } from '../store';
import { ConnectionDialog } from './connection-dialog';
import { ColourField, ConnectionFlags } from './connection-fields';
import { CredentialFields } from './credential-fields';
import { RegionField } from './region-field';

export interface ConnectionFormProps {
  connection?: Connection;
  onClose(): void;
  onSaved(connection: Connection): void;
}

function useKeysUnavailableReason(): string | undefined {
  const info = useAppInfoStore((state) => state.info);
  if (!info || info.encryptionAvailable) return undefined;
  return info.mode === 'browser'
    ? 'Access keys need the desktop app: browser mode has no encrypted storage. Use a profile instead.'
    : 'This system offers no encrypted storage, so access keys cannot be saved. Use a profile instead.';
}

export function ConnectionForm({ connection, onClose, onSaved }: ConnectionFormProps) {
  const [draft, setDraft] = useState<ConnectionDraft>(() =>
    connection ? draftFrom(connection) : newDraft(),
  );
  const [errors, setErrors] = useState<DraftErrors>({});
  const [saveError, setSaveError] = useState<AppError>();
  const [isSaving, setIsSaving] = useState(false);
  const save = useConnectionsStore((state) => state.save);
  const keysUnavailableReason = useKeysUnavailableReason();

  const update = (patch: Partial<ConnectionDraft>) => setDraft((current) => ({ ...current, ...patch }));

  async function submit() {
    const found = validateDraft(draft);
    flushSync(() => setErrors(found));
    if (Object.keys(found).length > 0) {
      // The first field that says what is wrong takes focus: Save refused with focus left on
      // Save, and a keyboard user had to hunt back up the form for the red line.
      const first = document.querySelector<HTMLElement>(
        'dialog[open] .field.has-error :is(input, select, textarea, [role="option"])',
      );
      if (first) moveFocus(first);
      return;
    }
    setIsSaving(true);
    const result = await save(toSaveInput(draft));
    setIsSaving(false);
    if (result.error) setSaveError(result.error);
    else if (result.connection) onSaved(result.connection);
  }

  return (
    <ConnectionDialog
      title={connection ? `Edit ${connection.label}` : 'New connection'}
      width="lg"
      saveLabel={connection ? 'Save' : 'Save and test'}
      isSaving={isSaving}
      saveError={saveError}
      onSave={() => void submit()}
      onClose={onClose}
    >
      <div className="field-row">
        <Field label="Name" htmlFor="connection-label" error={errors.label}>
          <input
            id="connection-label"
            className="input"
            value={draft.label}
            autoFocus
            placeholder="e.g. Orders — production"
            onChange={(event) => update({ label: event.target.value })}
          />
        </Field>
        <ColourField value={draft.color} onChange={(color) => update({ color })} />
      </div>
      <CredentialFields
        draft={draft}
        errors={errors}
        update={update}
        keysUnavailableReason={keysUnavailableReason}
      />
      <div className="field-row">
        <RegionField value={draft.region} onChange={(region) => update({ region })} error={errors.region} />
        <Field
          label="Endpoint override"
          htmlFor="connection-endpoint"
          error={errors.endpoint}
          hint={
            <span className="preset-links">
              Optional.{' '}
              {endpointPresets.map((preset) => (
                <button
                  type="button"
                  className="link"
                  key={preset.url}
                  onClick={() => update({ endpoint: preset.url })}
                >
                  {preset.label}
                </button>
              ))}
            </span>
          }
        >
          <input
            id="connection-endpoint"
            className="input mono"
            value={draft.endpoint}
            spellCheck={false}
            placeholder="https://dynamodb.<region>.amazonaws.com"
            onChange={(event) => update({ endpoint: event.target.value })}
          />
        </Field>
      </div>
      <ConnectionFlags
        flags={draft}
        readOnlyHint="DynoTable refuses every write on this connection."
        onChange={update}
      />
    </ConnectionDialog>
  );
}
