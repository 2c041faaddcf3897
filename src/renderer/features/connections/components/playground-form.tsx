import { useState } from 'react';
import type { AppError, Connection } from '../../../../shared/ipc';
import { Field } from '../../../ui/field';
import { useConnectionsStore } from '../store';
import { ConnectionDialog } from './connection-dialog';
import { ColourField, ConnectionFlags } from './connection-fields';

export interface PlaygroundFormProps {
  playground: Connection;
  onClose(): void;
}

type PlaygroundDraft = Pick<Connection, 'label' | 'color' | 'readOnly' | 'isProduction'>;

/**
 * The built-in playground keeps its credentials, region and endpoint (DynoTable runs it), so
 * only what main lets a user change is here: name, colour, and the read-only and production
 * flags, which main enforces on the playground like on any other connection.
 */
export function PlaygroundForm({ playground, onClose }: PlaygroundFormProps) {
  const [draft, setDraft] = useState<PlaygroundDraft>(() => ({
    label: playground.label,
    color: playground.color,
    readOnly: playground.readOnly,
    isProduction: playground.isProduction,
  }));
  const [labelError, setLabelError] = useState<string>();
  const [saveError, setSaveError] = useState<AppError>();
  const [isSaving, setIsSaving] = useState(false);
  const save = useConnectionsStore((state) => state.save);

  const update = (patch: Partial<PlaygroundDraft>) => setDraft((current) => ({ ...current, ...patch }));

  async function submit() {
    if (!draft.label.trim()) {
      setLabelError('Give the playground a name you will recognise.');
      return;
    }
    setLabelError(undefined);
    setIsSaving(true);
    const result = await save({
      connection: {
        id: playground.id,
        kind: playground.kind,
        region: playground.region,
        ...draft,
        label: draft.label.trim(),
      },
    });
    setIsSaving(false);
    if (result.error) setSaveError(result.error);
    else onClose();
  }

  return (
    <ConnectionDialog
      title="Edit the local playground"
      width="md"
      saveLabel="Save"
      isSaving={isSaving}
      saveError={saveError}
      onSave={() => void submit()}
      onClose={onClose}
    >
      <p className="muted">
        DynoTable runs the playground on this machine, so where it connects is not editable.
      </p>
      <Field label="Name" htmlFor="playground-label" error={labelError}>
        <input
          id="playground-label"
          className="input"
          value={draft.label}
          maxLength={80}
          autoFocus
          onChange={(event) => {
            update({ label: event.target.value });
            // The complaint goes once there is a name again, not only on the next Save.
            if (event.target.value.trim()) setLabelError(undefined);
          }}
        />
      </Field>
      <ColourField value={draft.color} onChange={(color) => update({ color })} />
      <ConnectionFlags
        flags={draft}
        readOnlyHint="DynoTable refuses every write to the playground."
        onChange={update}
      />
    </ConnectionDialog>
  );
}
