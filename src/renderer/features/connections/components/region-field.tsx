import { Field } from '../../../ui/field';
import { commonRegions } from '../regions';

export function RegionField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange(v: string): void;
  error?: string;
}) {
  return (
    <Field label="Region" htmlFor="connection-region" error={error} hint="Pick one or type any region code.">
      <input
        id="connection-region"
        className="input mono"
        list="connection-region-list"
        value={value}
        spellCheck={false}
        autoComplete="off"
        onChange={(event) => onChange(event.target.value)}
      />
      <datalist id="connection-region-list">
        {commonRegions.map((region) => (
          <option key={region.code} value={region.code}>
            {region.name}
          </option>
        ))}
      </datalist>
    </Field>
  );
}
