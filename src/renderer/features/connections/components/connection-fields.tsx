import { Field } from '../../../ui/field';
import { Switch } from '../../../ui/switch';
import { ColorPicker } from './color-picker';

export function ColourField({ value, onChange }: { value: string; onChange(color: string): void }) {
  return (
    <Field label="Colour" hint="The top bar takes this colour while you are connected.">
      <ColorPicker value={value} onChange={onChange} />
    </Field>
  );
}

export interface ConnectionFlagsProps {
  flags: { readOnly: boolean; isProduction: boolean };
  /** What read-only refuses, in the words of the connection at hand. */
  readOnlyHint: string;
  onChange(flags: { readOnly?: boolean; isProduction?: boolean }): void;
}

/** The two flags main enforces on every connection, the playground included. */
export function ConnectionFlags({ flags, readOnlyHint, onChange }: ConnectionFlagsProps) {
  return (
    <div className="field-row">
      <Switch
        checked={flags.readOnly}
        onChange={(next) => onChange({ readOnly: next })}
        label="Read-only"
        hint={readOnlyHint}
      />
      <Switch
        checked={flags.isProduction}
        onChange={(next) => onChange({ isProduction: next })}
        label="Production"
        hint="Marked in red; destructive work asks you to type the table name."
      />
    </div>
  );
}
