import type { ReactNode } from 'react';

export interface FieldProps {
  label: string;
  htmlFor?: string;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}

export function Field({ label, htmlFor, hint, error, children }: FieldProps) {
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label className="field-label" htmlFor={htmlFor}>
        {label}
      </label>
      {children}
      {error ? <FieldError message={error} /> : hint ? <p className="field-hint">{hint}</p> : null}
    </div>
  );
}

/** What is wrong with a field, announced as it appears; nothing while all is well. */
export function FieldError({
  message,
  className,
  id,
}: {
  message?: string;
  className?: string;
  id?: string;
}) {
  if (!message) return null;
  return (
    <p id={id} className={className ? `field-error ${className}` : 'field-error'} role="alert">
      {message}
    </p>
  );
}
