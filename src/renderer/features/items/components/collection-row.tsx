import { memo, type KeyboardEvent } from 'react';
import type { AttributeValue } from '../../../../shared/dynamo/attribute-value';
import type { CollectionHeader } from '../../../../shared/ipc/query';
import { colIndexOf, rowIndexOf } from '../../../ui/grid-keys';
import { ROW_HEIGHT } from '../../../ui/virtual-rows';

export interface CollectionRowProps {
  index: number;
  header: CollectionHeader;
  isSelected: boolean;
  width: number;
  top: number;
  /** Attribute columns in the grid: the header's cell spans them. */
  colSpan: number;
  /** The grid column that is the grid's one tab stop, when it is in this row (any column ≥ 1 is the spanning cell). */
  activeCol?: number;
  onToggle(header: CollectionHeader): void;
  onSelect(header: CollectionHeader, isSelected: boolean): void;
}

/** `USER#u1`; numbers and binary as stored; rows fetched without their partition key say so. */
export function partitionLabel(value: AttributeValue | undefined): string {
  if (value === undefined) return '(no partition key)';
  if ('S' in value) return value.S;
  if ('N' in value) return value.N;
  if ('B' in value) return value.B;
  return JSON.stringify(value);
}

/** `12 items: 1 USER, 10 ORDER, 1 PAYMENT`, entity types in the order the items came. */
export function collectionSummary(header: CollectionHeader): string {
  const items = `${header.count.toLocaleString('en-US')} item${header.count === 1 ? '' : 's'}`;
  const entities = Object.entries(header.entities ?? {});
  if (entities.length === 0) return items;
  return `${items}: ${entities.map(([name, count]) => `${count.toLocaleString('en-US')} ${name}`).join(', ')}`;
}

/**
 * The header row of one item collection: a selection cell and one cell spanning the attribute
 * columns with the disclosure (click, or Enter in the grid, toggles; Left collapses, Right
 * expands); its checkbox selects every item of the collection, also while it is collapsed.
 * Memoized like item rows: scrolling renders only new rows.
 */
export const CollectionRow = memo(function CollectionRow({
  index,
  header,
  isSelected,
  width,
  top,
  colSpan,
  activeCol,
  onToggle,
  onSelect,
}: CollectionRowProps) {
  const label = partitionLabel(header.partitionKey);
  const isExpanded = !header.isCollapsed;
  const onKeyDown = (event: KeyboardEvent): void => {
    const wants = event.key === 'ArrowLeft' ? false : event.key === 'ArrowRight' ? true : undefined;
    if (wants === undefined) return;
    event.preventDefault();
    if (wants !== isExpanded) onToggle(header);
  };
  return (
    <div
      className={`item-grid-row collection-row${isSelected ? ' is-selected' : ''}`}
      role="row"
      aria-rowindex={rowIndexOf(index)}
      aria-level={1}
      aria-expanded={isExpanded}
      aria-selected={isSelected}
      style={{ width, height: ROW_HEIGHT, top }}
    >
      <div
        role="gridcell"
        aria-colindex={colIndexOf(0)}
        className="item-grid-check"
        tabIndex={activeCol === 0 ? 0 : -1}
        aria-label={
          activeCol === 0
            ? `${label}: all ${header.count.toLocaleString('en-US')} items ${isSelected ? 'selected' : 'not selected'}`
            : undefined
        }
      >
        <button
          type="button"
          role="checkbox"
          tabIndex={-1}
          className="row-check"
          aria-label={`Select the ${header.count.toLocaleString('en-US')} items of ${label}`}
          aria-checked={isSelected}
          onClick={() => onSelect(header, !isSelected)}
        />
      </div>
      <div
        role="gridcell"
        aria-colindex={colIndexOf(1)}
        aria-colspan={Math.max(1, colSpan)}
        className="collection-cell"
        tabIndex={activeCol !== undefined && activeCol > 0 ? 0 : -1}
      >
        <button
          type="button"
          tabIndex={-1}
          className="collection-toggle"
          aria-expanded={isExpanded}
          title={isExpanded ? 'Collapse (←)' : 'Expand (→)'}
          onClick={() => onToggle(header)}
          onKeyDown={onKeyDown}
        >
          <span className="collection-caret" aria-hidden="true">
            {isExpanded ? '▾' : '▸'}
          </span>
          <span className="collection-key">{label}</span>
          <span className="collection-summary">{collectionSummary(header)}</span>
        </button>
      </div>
    </div>
  );
});
