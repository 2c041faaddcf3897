import { useState } from 'react';
import { Button } from '../../../ui/button';
import { Check } from '../../../ui/check';
import { Popover } from '../../../ui/popover';

export interface ColumnChooserProps {
  columns: string[];
  hidden: string[];
  onChange(hidden: string[]): void;
}

/** Which attributes the grid shows; the order stays keys first, then by frequency. */
export function ColumnChooser({ columns, hidden, onChange }: ColumnChooserProps) {
  const [isOpen, setOpen] = useState(false);
  return (
    <div className="popover-anchor">
      <Button size="sm" aria-expanded={isOpen} onClick={() => setOpen(!isOpen)}>
        Columns{hidden.length > 0 ? ` (${columns.length - hidden.length}/${columns.length})` : ''}
      </Button>
      {isOpen ? (
        <Popover className="column-chooser" label="Columns" onClose={() => setOpen(false)}>
          <div className="column-chooser-actions">
            <Button size="sm" variant="ghost" onClick={() => onChange([])}>
              Show all
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
              Done
            </Button>
          </div>
          {columns.map((column) => (
            <Check
              key={column}
              checked={!hidden.includes(column)}
              onChange={(isShown) =>
                onChange(isShown ? hidden.filter((h) => h !== column) : [...hidden, column])
              }
            >
              {column}
            </Check>
          ))}
        </Popover>
      ) : null}
    </div>
  );
}
