import { useId } from 'react';
import { FieldError } from '../../../ui/field';
import { TextInput } from '../../../ui/text-input';
import { limitProblem, type BuilderErrors, type BuilderPartProps } from '../builder-state';

function LimitField({
  label,
  value,
  isCount,
  placeholder,
  error,
  onChange,
}: {
  label: string;
  value: string;
  isCount?: boolean;
  placeholder?: string;
  error?: string;
  onChange(value: string): void;
}) {
  const id = useId();
  return (
    <div className={`qb-limit${error ? ' has-error' : ''}${isCount ? '' : ' is-wide'}`}>
      <label className="qb-key">
        <span>{label}</span>
        <TextInput
          className={isCount ? 'qb-number' : undefined}
          label={label}
          inputMode={isCount ? 'numeric' : undefined}
          placeholder={placeholder}
          aria-invalid={error !== undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          value={value}
          onChange={onChange}
        />
      </label>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/**
 * The Options row: which attributes to read, and how much per page and in all. Limits are
 * checked as they are typed, each under its own field.
 */
export function ReadLimits({ state, set, errors }: BuilderPartProps & { errors: BuilderErrors }) {
  return (
    <div className="qb-row qb-options">
      <LimitField
        label="Projection"
        placeholder="all attributes (or: total, address.city)"
        value={state.projection}
        error={errors.projection}
        onChange={(projection) => set({ projection })}
      />
      <LimitField
        label="Page size"
        isCount
        value={state.pageSize}
        error={limitProblem('pageSize', state.pageSize)}
        onChange={(pageSize) => set({ pageSize })}
      />
      <LimitField
        label="Max items"
        isCount
        value={state.maxItems}
        error={limitProblem('maxItems', state.maxItems)}
        onChange={(maxItems) => set({ maxItems })}
      />
    </div>
  );
}
