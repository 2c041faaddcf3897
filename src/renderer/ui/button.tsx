import type { ButtonHTMLAttributes, MouseEvent, Ref } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  size?: 'sm' | 'md';
  isBusy?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

export function Button({
  variant = 'secondary',
  size = 'md',
  isBusy,
  className,
  children,
  disabled,
  onClick,
  ...rest
}: ButtonProps) {
  const classes = ['btn', `btn-${variant}`, `btn-${size}`, isBusy ? 'is-busy' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  // Busy is aria-disabled, not disabled: a button that turns disabled while focused drops focus
  // to the page, so Enter on Refresh, Check health or Sample left a keyboard user nowhere. It
  // keeps focus and refuses the press (a submit button's too) until its work ends.
  const isRefusing = isBusy && !disabled;
  return (
    <button
      type="button"
      className={classes}
      disabled={disabled}
      aria-disabled={isRefusing || undefined}
      aria-busy={isBusy || undefined}
      onClick={isRefusing ? (event: MouseEvent<HTMLButtonElement>) => event.preventDefault() : onClick}
      {...rest}
    >
      {isBusy ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}
