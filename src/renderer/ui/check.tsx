import type { ReactNode } from 'react';

export interface CheckProps {
  type?: 'checkbox' | 'radio';
  checked: boolean;
  /** A radio reports only being chosen, so its handler can ignore the argument. */
  onChange(checked: boolean): void;
  disabled?: boolean;
  title?: string;
  /** A radio's group: radios of one name take one Tab stop, and the arrow keys choose among them. */
  name?: string;
  /** The id of a sentence that explains the choice, read after its words. */
  describedBy?: string;
  children: ReactNode;
}

/** A small checkbox or radio with its words, for rows of options beside other controls. */
export function Check({
  type = 'checkbox',
  checked,
  onChange,
  disabled,
  title,
  name,
  describedBy,
  children,
}: CheckProps) {
  return (
    <label className="check" title={title}>
      <input
        type={type}
        name={name}
        checked={checked}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.checked)}
      />
      {children}
    </label>
  );
}
