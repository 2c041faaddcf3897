import type { ReactNode } from 'react';

/**
 * A wrapping row of small labelled fields: the layout the export form, the Import-from-S3 dialog
 * and the copy dialog share.
 */
export function FormRow({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={className ? `form-row ${className}` : 'form-row'}>{children}</div>;
}

/**
 * One field of a FormRow: its caption above the control, both inside one <label>, so clicking
 * the caption focuses the control. `grow` gives the field the row's spare width.
 */
export function RowField({
  caption,
  grow = false,
  children,
}: {
  caption: ReactNode;
  grow?: boolean;
  children: ReactNode;
}) {
  return (
    <label className={grow ? 'row-field row-field-grow' : 'row-field'}>
      <span>{caption}</span>
      {children}
    </label>
  );
}
