import { useId, type ReactNode } from 'react';
import { Check } from './check';

export interface Choice<T extends string> {
  value: T;
  label: ReactNode;
  disabled?: boolean;
  /** The id of a sentence that explains the choice (why it is disabled). */
  describedBy?: string;
}

export interface ChoiceGroupProps<T extends string> {
  /** The group's visible heading. */
  legend: string;
  /** Undefined while nothing is chosen (no destructive default). */
  value: NoInfer<T> | undefined;
  choices: readonly Choice<T>[];
  onChange(value: NoInfer<T>): void;
  /** On the radios' line, after them (the index a whole-index export reads). */
  beside?: ReactNode;
  /** Under the radios: what the choice means, or why one is disabled. */
  children?: ReactNode;
}

/**
 * One choice among a few, as a dialog's form group: a fieldset under its visible legend, its
 * radios sharing one name, so the group is one Tab stop and the arrow keys choose.
 */
export function ChoiceGroup<T extends string>({
  legend,
  value,
  choices,
  onChange,
  beside,
  children,
}: ChoiceGroupProps<T>) {
  const name = useId();
  return (
    <fieldset className="form-group">
      <legend>{legend}</legend>
      <div className="qb-row">
        {choices.map((choice) => (
          <Check
            key={choice.value}
            type="radio"
            name={name}
            checked={value === choice.value}
            disabled={choice.disabled}
            describedBy={choice.describedBy}
            onChange={() => onChange(choice.value)}
          >
            {choice.label}
          </Check>
        ))}
        {beside}
      </div>
      {children}
    </fieldset>
  );
}
