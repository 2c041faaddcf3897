import { FieldError } from '../../../ui/field';
import { TextInput } from '../../../ui/text-input';
import type { BuilderErrors, BuilderPartProps } from '../builder-state';

function LimitField({
  label,
  value,
  isCount,
  placeholder,
  onChange,
}: {
  label: string;
  value: string;
  isCount?: boolean;
  placeholder?: string;
  onChange(value: string): void;
}) {
  return (
    <label className="qb-key">
      <span>{label}</span>
      <TextInput
        className={isCount ? 'qb-number' : undefined}
        label={label}
        inputMode={isCount ? 'numeric' : undefined}
        placeholder={placeholder}
        value={value}
        onChange={onChange}
      />
    </label>
  );
}

/** The Options row: which attributes to read, and how much per page and in all. */
export function ReadLimits({ state, set, errors }: BuilderPartProps & { errors: BuilderErrors }) {
  return (
    <div className="qb-row qb-options">
      <LimitField
        label="Projection"
        placeholder="all attributes (or: total, address.city)"
        value={state.projection}
        onChange={(projection) => set({ projection })}
      />
      <LimitField
        label="Page size"
        isCount
        value={state.pageSize}
        onChange={(pageSize) => set({ pageSize })}
      />
      <LimitField
        label="Max items"
        isCount
        value={state.maxItems}
        onChange={(maxItems) => set({ maxItems })}
      />
      <FieldError message={errors.projection ?? errors.pageSize ?? errors.maxItems} />
    </div>
  );
}
