export interface SelectProps<T extends string> {
  /** The accessible name: these selects sit in rows of controls, without a label element. */
  label: string;
  value: T;
  options: readonly T[];
  /** The words shown for an option; the option itself by default. */
  labelOf?: (option: T) => string;
  onChange(value: T): void;
  className?: string;
}

/** A select over a fixed list of options that reports the chosen one with its own type. */
export function Select<T extends string>({
  label,
  value,
  options,
  labelOf,
  onChange,
  className,
}: SelectProps<T>) {
  return (
    <select
      className={className ? `input ${className}` : 'input'}
      aria-label={label}
      value={value}
      // Only the options above can be chosen, so the value is one of them.
      onChange={(event) => onChange(event.target.value as T)}
    >
      {options.map((option) => (
        <option key={option} value={option}>
          {labelOf ? labelOf(option) : option}
        </option>
      ))}
    </select>
  );
}
