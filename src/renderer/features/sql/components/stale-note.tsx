import type { ReactNode } from 'react';

/** Says that what follows answers an earlier statement, so nobody reads it as current. */
export function StaleNote({ children }: { children: ReactNode }) {
  return (
    <p className="sql-stale" role="status">
      <strong>Out of date.</strong> {children}
    </p>
  );
}
