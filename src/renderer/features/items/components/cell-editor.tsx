import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { columnLabel } from './grid-aria';
import type { InlineKind } from './inline-edit';

export interface CellEditorProps {
  column: string;
  kind: InlineKind;
  text: string;
  /** Why the text cannot be staged; shown next to the cell, the text stays as typed. */
  problem?: string;
  /** The sentence goes above the cell near the grid's bottom edge, where below would be cut off. */
  isProblemAbove: boolean;
  /** …and ends at the cell's right edge in the grid's right half, where it would run out of view. */
  isProblemAtEnd: boolean;
  onChange(text: string): void;
  onCommit(): void;
  onCancel(): void;
}

/**
 * The in-cell editor of a scalar: Enter stages the value (as any edit is staged), Escape
 * leaves the cell as it was. Keys it handles stay here, so arrows move the caret, not the grid.
 */
export function CellEditor({
  column,
  kind,
  text,
  problem,
  isProblemAbove,
  isProblemAtEnd,
  onChange,
  onCommit,
  onCancel,
}: CellEditorProps) {
  const problemId = useId();
  const field = useRef<HTMLInputElement & HTMLSelectElement>(null);
  useEffect(() => {
    field.current?.focus({ preventScroll: true });
    if (kind !== 'BOOL') field.current?.select();
  }, [kind]);
  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.key === 'Tab') return;
    event.stopPropagation();
    if (event.key === 'Enter') {
      event.preventDefault();
      onCommit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    }
  };
  const common = {
    ref: field,
    className: `cell-editor${kind === 'N' ? ' is-number' : ''}`,
    'aria-label': `New value of ${columnLabel(column)} (Enter stages it, Escape cancels)`,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': problem ? problemId : undefined,
    onKeyDown,
  } as const;
  return (
    <>
      {kind === 'BOOL' ? (
        <select {...common} value={text} onChange={(event) => onChange(event.target.value)}>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      ) : (
        <input
          {...common}
          inputMode={kind === 'N' ? 'decimal' : undefined}
          spellCheck={false}
          value={text}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {problem ? (
        <span
          id={problemId}
          className={`cell-editor-problem${isProblemAbove ? ' is-above' : ''}${isProblemAtEnd ? ' is-end' : ''}`}
          role="alert"
        >
          {problem}
        </span>
      ) : null}
    </>
  );
}
