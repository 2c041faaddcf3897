import { useState } from 'react';
import type { AppError, Connection } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { ErrorMessage } from '../../../ui/error-message';
import { Field } from '../../../ui/field';
import { Switch } from '../../../ui/switch';
import { useConnectionsStore } from '../store';
import { ColorPicker } from './color-picker';

export interface PlaygroundFormProps {
  playground: Connection;
  onClose(): void;
}

/**
 * The built-in playground keeps its credentials, region and endpoint (DynoTable runs it), so
 * only what main lets a user change is here: name, colour, and the read-only and production
 * flags, which main enforces on the playground like on any other connection.
 */
export function PlaygroundForm({ playground, onClose }: PlaygroundFormProps) {
  const [label, setLabel] = useState(playground.label);
  const [color, setColor] = useState(playground.color);
  const [readOnly, setReadOnly] = useState(playground.readOnly);
  const [isProduction, setIsProduction] = useState(playground.isProduction);
  const [labelError, setLabelError] = useState<string>();
  const [saveError, setSaveError] = useState<AppError>();
  const [isSaving, setIsSaving] = useState(false);
  const save = useConnectionsStore((state) => state.save);

  async function submit() {
    if (!label.trim()) {
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
        label: label.trim(),
        color,
        readOnly,
        isProduction,
      },
    });
    setIsSaving(false);
    if (result.error) setSaveError(result.error);
    else onClose();
  }

  return (
    <Dialog
      title="Edit the local playground"
      onClose={onClose}
      width="md"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" isBusy={isSaving} onClick={() => void submit()}>
            Save
          </Button>
        </>
      }
    >
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <p className="muted">
          DynoTable runs the playground on this machine, so where it connects is not editable.
        </p>
        <Field label="Name" htmlFor="playground-label" error={labelError}>
          <input
            id="playground-label"
            className="input"
            value={label}
            maxLength={80}
            autoFocus
            onChange={(event) => {
              setLabel(event.target.value);
              // The complaint goes once there is a name again, not only on the next Save.
              if (event.target.value.trim()) setLabelError(undefined);
            }}
          />
        </Field>
        <Field label="Colour" hint="The top bar takes this colour while you are connected.">
          <ColorPicker value={color} onChange={setColor} />
        </Field>
        <div className="field-row">
          <Switch
            checked={readOnly}
            onChange={setReadOnly}
            label="Read-only"
            hint="DynoTable refuses every write to the playground."
          />
          <Switch
            checked={isProduction}
            onChange={setIsProduction}
            label="Production"
            hint="Marked in red; destructive work asks you to type the table name."
          />
        </div>
        {saveError ? <ErrorMessage error={saveError} /> : null}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
