import { FieldError } from '../../../ui/field';
import type { BuilderPartProps } from '../builder-state';

type RawKey = 'rawKeyCondition' | 'rawFilter' | 'rawNames' | 'rawValues';

const fields: { key: RawKey; label: string; placeholder?: string; isQueryOnly?: boolean }[] = [
  {
    key: 'rawKeyCondition',
    label: 'Key condition expression',
    placeholder: '#pk = :pk AND begins_with(#sk, :prefix)',
    isQueryOnly: true,
  },
  { key: 'rawFilter', label: 'Filter expression', placeholder: '#status = :paid AND size(#items) > :n' },
  { key: 'rawNames', label: 'Expression attribute names' },
  { key: 'rawValues', label: 'Expression attribute values' },
];

/** The read as DynamoDB's own expressions, for what the form cannot say. */
export function RawExpressions({ state, set, error }: BuilderPartProps & { error?: string }) {
  const shown = fields.filter((field) => state.mode === 'query' || !field.isQueryOnly);
  return (
    <div className="qb-raw">
      {shown.map(({ key, label, placeholder }) => (
        <textarea
          key={key}
          className="input code"
          aria-label={label}
          placeholder={placeholder}
          value={state[key]}
          onChange={(e) => set({ [key]: e.target.value })}
        />
      ))}
      <FieldError message={error} />
    </div>
  );
}
