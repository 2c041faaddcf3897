import { memo, type ReactNode } from 'react';
import type { AttributeValue, Item } from '../../../../shared/dynamo/attribute-value';
import { entityOf } from '../../../../shared/dynamo/entity';
import { ownValue } from '../../../../shared/dynamo/proto-keys';
import { valuesEqual } from '../../../../shared/dynamo/value-equality';
import type { KeySchema } from '../../../../shared/ipc/tables';
import type { RowMark } from '../row-cache';
import { colIndexOf, rowIndexOf } from '../../../ui/grid-keys';
import { spokenValue } from '../../../ui/cell-text';
import { cellLabel } from './grid-aria';
import { columnLeft, columnWidth, ENTITY_COLUMN } from './grid-layout';
import { ROW_HEIGHT } from '../../../ui/virtual-rows';
import { isKeyColumn, KEY_CELL_TITLE } from './inline-edit';
import { ValueCell } from './value-cell';

export const MARK_LABELS: Record<RowMark | 'staged', string> = {
  changed: 'Changed by you',
  new: 'Created by you',
  staged: 'Staged change, not committed yet',
};

export interface GridRowProps {
  index: number;
  position: number;
  item: Item | undefined;
  mark?: RowMark | 'staged';
  /** The item as staged (null: staged for deletion); its values show in place of the read ones. */
  staged?: Item | null;
  /** The key columns pinned at the left (grid columns 1…), rendered whatever the scroll. */
  pinned: string[];
  /** The columns in view, the grid column of the first of them (1-based), and the width left of them. */
  columns: string[];
  firstCol: number;
  leftPad: number;
  keys: KeySchema;
  isSelected: boolean;
  isGrouped: boolean;
  width: number;
  top: number;
  /** The grid column that is the grid's one tab stop, when it is in this row. */
  activeCol?: number;
  /** The data columns [left, right] of a selected range of cells, when it covers this row. */
  rangeLeft?: number;
  rangeRight?: number;
  /** The in-cell editor, and the grid column it is open in. */
  editor?: { col: number; node: ReactNode };
  onToggleRow(item: Item, position: number, isRange: boolean): void;
  onExpand(name: string, value: AttributeValue): void;
}

function sameValue(a: AttributeValue | undefined, b: AttributeValue | undefined): boolean {
  return a === undefined || b === undefined ? a === b : valuesEqual(a, b);
}

/**
 * One item row of the ARIA grid. Memoized: while scrolling only the rows that come into view
 * render; the others keep their DOM. Loading rows render the same cells (empty), so a focused
 * cell keeps its element when its block arrives.
 */
export const GridRow = memo(function GridRow(props: GridRowProps) {
  const { index, position, item, mark, staged, pinned, columns, firstCol, keys, activeCol, editor } = props;
  const pk = keys.partitionKey.name;
  const shown = staged ?? item;
  const classes = [
    'item-grid-row',
    index % 2 === 1 ? 'is-odd' : '',
    props.isSelected ? 'is-selected' : '',
    mark ? `is-${mark}` : '',
    item === undefined ? 'is-loading' : '',
    editor ? 'is-editing' : '',
  ];
  const cell = (column: string, col: number, pinnedLeft?: number) => {
    const value = shown ? ownValue(shown, column) : undefined;
    const isStagedValue = staged && item ? !sameValue(value, ownValue(item, column)) : false;
    const isKey = isKeyColumn(column, keys);
    const isActive = activeCol === col;
    const isEditing = editor?.col === col;
    const isInRange =
      props.rangeLeft !== undefined && col >= props.rangeLeft && col <= (props.rangeRight ?? 0);
    const classNames = [
      'item-grid-cell',
      pinnedLeft === undefined ? '' : 'is-pinned',
      pinnedLeft !== undefined && col === pinned.length ? 'is-last-pinned' : '',
      value && 'N' in value ? 'is-number' : '',
      isStagedValue ? 'is-staged-value' : '',
      isEditing ? 'is-editing' : '',
      isInRange ? 'is-in-range' : '',
    ];
    const label =
      item === undefined
        ? 'loading'
        : column === ENTITY_COLUMN
          ? (entityOf(item, keys) ?? 'none')
          : `${spokenValue(value)}${isStagedValue ? ' (staged, not committed yet)' : ''}`;
    return (
      <div
        key={column}
        role="gridcell"
        aria-colindex={colIndexOf(col)}
        aria-readonly={isKey || column === ENTITY_COLUMN ? true : undefined}
        aria-selected={isInRange || undefined}
        tabIndex={isActive && !isEditing ? 0 : -1}
        aria-label={isActive && !isEditing ? cellLabel(column, label) : undefined}
        className={classNames.filter(Boolean).join(' ')}
        style={{ width: columnWidth(column, keys), left: pinnedLeft }}
        title={isKey ? KEY_CELL_TITLE : undefined}
      >
        {isEditing ? (
          editor.node
        ) : item === undefined ? null : column === ENTITY_COLUMN ? (
          <span className="cell-entity">{entityOf(item, keys) ?? ''}</span>
        ) : props.isGrouped && column === pk ? (
          // U+2033 (double prime) as the ditto mark: U+3003 〃 needs a CJK font, which many
          // Linux machines lack, and then showed as an empty box.
          <span className="cell-faint" title="The partition of the collection header above">
            ″
          </span>
        ) : (
          <ValueCell
            value={value}
            onExpand={() => {
              if (value) props.onExpand(column, value);
            }}
          />
        )}
      </div>
    );
  };
  const selectionLabel = `Row ${(position + 1).toLocaleString('en-US')}, ${props.isSelected ? 'selected' : 'not selected'}${mark ? `, ${MARK_LABELS[mark].toLowerCase()}` : ''}`;
  return (
    <div
      className={classes.filter(Boolean).join(' ')}
      role="row"
      aria-rowindex={rowIndexOf(index)}
      aria-level={props.isGrouped ? 2 : undefined}
      aria-selected={props.isSelected}
      style={{ width: props.width, height: ROW_HEIGHT, top: props.top }}
      // The second press of a double-click would select the cell's word; the grid edits the cell
      // (or opens the item) instead, see use-grid-focus.
      onMouseDown={(event) => {
        if (event.detail > 1) event.preventDefault();
      }}
    >
      <div
        role="gridcell"
        aria-colindex={colIndexOf(0)}
        className="item-grid-check"
        tabIndex={activeCol === 0 ? 0 : -1}
        aria-label={activeCol === 0 ? selectionLabel : undefined}
      >
        {/* A plain button, not <input type=checkbox>: native controls cost more to paint per frame. */}
        <button
          type="button"
          role="checkbox"
          tabIndex={-1}
          className="row-check"
          aria-label={`Select row ${position + 1}`}
          aria-checked={props.isSelected}
          onClick={(event) => item && props.onToggleRow(item, position, event.shiftKey)}
        />
        {mark ? (
          <span
            className={`row-mark is-${mark}`}
            role="img"
            aria-label={MARK_LABELS[mark]}
            title={MARK_LABELS[mark]}
          />
        ) : null}
      </div>
      {pinned.map((column, k) => cell(column, k + 1, columnLeft(pinned, keys, k)))}
      {props.leftPad > 0 && (
        <span className="item-grid-gap" style={{ width: props.leftPad }} aria-hidden="true" />
      )}
      {columns.map((column, k) => cell(column, firstCol + k))}
    </div>
  );
});
