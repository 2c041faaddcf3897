import type { ReactNode } from 'react';

export interface BadgeProps {
  tone?: 'neutral' | 'accent' | 'success' | 'warning' | 'danger' | 'muted';
  title?: string;
  children: ReactNode;
}

export function Badge({ tone = 'neutral', title, children }: BadgeProps) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}
