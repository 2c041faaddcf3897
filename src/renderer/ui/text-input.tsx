import type { InputHTMLAttributes } from 'react';

export interface TextInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange' | 'aria-label'
> {
  /** The accessible name: these inputs sit in rows of controls, mostly without a label element. */
  label: string;
  value: string;
  onChange(value: string): void;
}

/** A text input that reports its new value rather than the event. */
export function TextInput({ label, value, onChange, className, ...rest }: TextInputProps) {
  return (
    <input
      {...rest}
      className={className ? `input ${className}` : 'input'}
      aria-label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
