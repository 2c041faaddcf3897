import { useId } from 'react';
import { FieldError } from '../../../ui/field';
import type { BuilderErrors, BuilderPartProps } from '../builder-state';

type RawKey = 'rawKeyCondition' | 'rawFilter' | 'rawNames' | 'rawValues';

const fields: { key: RawKey; label: string; placeholder?: string; isQueryOnly?: boolean }[] = [
  {
    key: 'rawKeyCondition',
    label: 'Key condition expression',
    placeholder: '#pk = :pk AND begins_with(#sk, :prefix)',
    isQueryOnly: true,
  },
  { key: 'rawFilter', label: 'Filter expression', placeholder: '#status = :paid AND size(#items) > :n' },
  { key: 'rawNames', label: 'Expression attribute names', placeholder: '{"#status": "status"}' },
  {
    key: 'rawValues',
    label: 'Expression attribute values',
    placeholder: '{":paid": "PAID", ":n": 3}  (plain JSON, or DynamoDB JSON like {"N": "3"})',
  },
];

function RawBox({
  label,
  placeholder,
  value,
  error,
  onChange,
}: {
  label: string;
  placeholder?: string;
  value: string;
  error?: string;
  onChange(value: string): void;
}) {
  const id = useId();
  return (
    <div className={`qb-raw-box${error ? ' has-error' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="input code"
        placeholder={placeholder}
        spellCheck={false}
        aria-invalid={error !== undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** The read as DynamoDB's own expressions, for what the form cannot say. */
export function RawExpressions({ state, set, errors }: BuilderPartProps & { errors: BuilderErrors }) {
  const shown = fields.filter((field) => state.mode === 'query' || !field.isQueryOnly);
  return (
    <div className="qb-raw">
      {shown.map(({ key, label, placeholder }) => (
        <RawBox
          key={key}
          label={label}
          placeholder={placeholder}
          value={state[key]}
          error={errors[key]}
          onChange={(value) => set({ [key]: value })}
        />
      ))}
    </div>
  );
}
