import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { AttributeValue, Item } from '../../../../shared/dynamo/attribute-value';
import { entityOf } from '../../../../shared/dynamo/entity';
import type { CollectionHeader } from '../../../../shared/ipc/query';
import type { KeySchema } from '../../../../shared/ipc/tables';
import { ErrorMessage } from '../../../ui/error-message';
import { RowCache, type RowMark } from '../row-cache';
import type { GridLayout, GridSort } from '../store';
import { CollectionRow } from './collection-row';
import { GridHeader } from './grid-header';
import {
  CHECK_WIDTH,
  columnWidth,
  ENTITY_COLUMN,
  ROW_HEIGHT,
  useScrollFrame,
  visibleColumns,
} from './grid-layout';

export { ENTITY_COLUMN, ROW_HEIGHT } from './grid-layout';
import { ValueCell } from './value-cell';
import { ownValue } from '../../../../shared/dynamo/proto-keys';

const OVERSCAN = 3;
const ANCHOR_STEP = 1024;
/** Browsers cap an element's height (~33M px in Chromium); past this the scroll is scaled. */
const MAX_SCROLL_PX = 15_000_000;

export interface ItemGridProps {
  resultSetId: string;
  viewId?: string;
  version: number;
  total: number;
  keys: KeySchema;
  hiddenColumns: string[];
  sort: GridSort[];
  isGrouped: boolean;
  /** Item positions (see GridEntry) that are selected. */
  selected: ReadonlySet<number>;
  /** Bumped when positions from `from` on show other rows (a collapse, rows streamed into collections). */
  layout?: GridLayout;
  /** Keys (see rowKeyText) of items with a staged change that is not committed yet. */
  staged?: ReadonlySet<string>;
  onSort(column: string): void;
  onToggleRow(position: number, isRange: boolean): void;
  onOpen(item: Item, position: number): void;
  onColumns(columns: string[]): void;
  onExpand(name: string, value: AttributeValue): void;
  onToggleCollection?(header: CollectionHeader): void;
  onSelectCollection?(header: CollectionHeader, isSelected: boolean): void;
}

const noCollectionAction = (): void => undefined;

function isNumber(value: AttributeValue | undefined): boolean {
  return value !== undefined && 'N' in value;
}

/**
 * A virtualized grid with a fixed row height: only the rows in view (plus a few) exist in the
 * DOM, absolutely placed inside one tall spacer, and only their blocks are fetched from the
 * result set. A million rows scroll like a hundred.
 */
export function ItemGrid(props: ItemGridProps) {
  const { resultSetId, viewId, version, total, keys } = props;
  // A new version means the rows changed meaning (new read, new view): a fresh cache.
  const cache = useMemo(
    () => new RowCache(resultSetId, viewId, version, (row) => entityOf(row, keys) !== undefined),
    [resultSetId, viewId, version, keys],
  );
  // Re-render when a block of rows arrives.
  const [, setLoaded] = useState(0);
  useEffect(() => cache.subscribe(() => setLoaded((n) => n + 1)), [cache]);
  const scroller = useRef<HTMLDivElement>(null);
  const { scrollTop, scrollLeft, height, width } = useScrollFrame(scroller);

  const fullHeight = total * ROW_HEIGHT;
  const spacer = Math.min(fullHeight, MAX_SCROLL_PX);
  const scale = fullHeight > spacer && spacer > height ? (fullHeight - height) / (spacer - height) : 1;
  const virtualTop = scrollTop * scale;
  const first = Math.max(0, Math.floor(virtualTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(total - 1, Math.ceil((virtualTop + height) / ROW_HEIGHT) + OVERSCAN);
  const { layout } = props;
  const invalidated = useRef(layout?.revision);
  useEffect(() => {
    if (layout && layout.revision !== invalidated.current) {
      invalidated.current = layout.revision;
      cache.invalidateFrom(layout.from);
    }
    cache.ensure(first, last, total);
  }, [cache, first, last, total, layout]);

  const hasEntities = cache.hasEntities === true;
  const keyNames = [keys.partitionKey.name, ...(keys.sortKey ? [keys.sortKey.name] : [])];
  const ordered = cache.columns.length > 0 ? cache.columns : keyNames;
  const withEntity = hasEntities
    ? [
        ...ordered.filter((c) => keyNames.includes(c)),
        ENTITY_COLUMN,
        ...ordered.filter((c) => !keyNames.includes(c)),
      ]
    : ordered;
  // One array per distinct column list, so memoized rows do not re-render on every scroll frame.
  const columnsKey = JSON.stringify(withEntity.filter((c) => !props.hiddenColumns.includes(c)));
  const columns = useMemo(() => JSON.parse(columnsKey) as string[], [columnsKey]);
  const { onColumns } = props;
  useEffect(() => onColumns(ordered), [onColumns, ordered.join('\u0000')]); // eslint-disable-line react-hooks/exhaustive-deps
  const rowWidth = CHECK_WIDTH + columns.reduce((sum, c) => sum + columnWidth(c, keys), 0);
  // Only the columns in view (plus a margin) are rendered in rows; one array per range, so
  // memoized rows re-render only when a sideways scroll brings another column in.
  const shown = visibleColumns(columns, keys, scrollLeft, width);
  const rowColumns = useMemo(() => columns.slice(shown.from, shown.to), [columns, shown.from, shown.to]);

  const rows = [];
  for (let i = first; i <= last; i++) rows.push(i);
  // Rows sit at fixed places relative to an anchor row, and only the container moves: rows that
  // stay in view keep their pixels (no repaint), only rows coming into view are painted. The
  // anchor steps every ANCHOR_STEP rows, which repositions the rows in view once.
  const anchor = first - (first % ANCHOR_STEP);
  const offset = scrollTop + (anchor * ROW_HEIGHT - virtualTop);

  return (
    <div
      className="item-grid"
      role={props.isGrouped ? 'treegrid' : 'grid'}
      aria-rowcount={total}
      aria-label="Items"
    >
      {cache.error && <ErrorMessage error={cache.error} compact onRetry={() => cache.retry()} />}
      <div className="item-grid-scroller" ref={scroller} tabIndex={0}>
        <GridHeader columns={columns} keys={keys} sort={props.sort} width={rowWidth} onSort={props.onSort} />
        <div className="item-grid-spacer" style={{ height: spacer, width: rowWidth }}>
          <div className="item-grid-rows" style={{ transform: `translateY(${offset}px)` }}>
            {rows.map((index) => {
              const entry = cache.entry(index);
              const top = (index - anchor) * ROW_HEIGHT;
              if (entry?.type === 'header') {
                const { header } = entry;
                return (
                  <CollectionRow
                    key={index}
                    index={index}
                    header={header}
                    isSelected={isRangeSelected(props.selected, header.first, header.count)}
                    width={rowWidth}
                    top={top}
                    onToggle={props.onToggleCollection ?? noCollectionAction}
                    onSelect={props.onSelectCollection ?? noCollectionAction}
                  />
                );
              }
              const position = entry?.position ?? index;
              const item = entry?.item;
              const isStaged = item !== undefined && props.staged?.has(rowKeyText(item, keys)) === true;
              return (
                <GridRow
                  mark={isStaged ? 'staged' : entry?.mark}
                  key={index}
                  index={index}
                  position={position}
                  item={item}
                  columns={rowColumns}
                  leftPad={shown.leftPad}
                  keys={keys}
                  isSelected={props.selected.has(position)}
                  isGrouped={props.isGrouped}
                  width={rowWidth}
                  top={top}
                  onOpen={props.onOpen}
                  onToggleRow={props.onToggleRow}
                  onExpand={props.onExpand}
                />
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}

interface GridRowProps extends Pick<
  ItemGridProps,
  'onOpen' | 'onToggleRow' | 'onExpand' | 'isGrouped' | 'keys'
> {
  index: number;
  position: number;
  item: Item | undefined;
  mark?: RowMark | 'staged';
  /** The columns in view, and the width of those left of them. */
  columns: string[];
  leftPad: number;
  isSelected: boolean;
  width: number;
  top: number;
}

/** Memoized: while scrolling only the rows that come into view render; the others keep their DOM. */
const GridRow = memo(function GridRow({
  index,
  position,
  item,
  mark,
  columns,
  leftPad,
  keys,
  isSelected,
  isGrouped,
  width: rowWidth,
  top,
  onOpen,
  onToggleRow,
  onExpand,
}: GridRowProps) {
  const pk = keys.partitionKey.name;
  const classes = [
    'item-grid-row',
    index % 2 === 1 ? 'is-odd' : '',
    isSelected ? 'is-selected' : '',
    mark ? `is-${mark}` : '',
  ];
  return (
    <div
      className={classes.filter(Boolean).join(' ')}
      role="row"
      aria-rowindex={index + 1}
      aria-level={isGrouped ? 2 : undefined}
      aria-selected={isSelected}
      style={{ width: rowWidth, height: ROW_HEIGHT, top }}
      onDoubleClick={() => item && onOpen(item, position)}
      // The second press of a double-click would select the cell's word; it opens the item instead.
      onMouseDown={(event) => {
        if (event.detail > 1) event.preventDefault();
      }}
    >
      <span className="item-grid-check">
        {/* A plain button, not <input type=checkbox>: native controls cost more to paint per frame. */}
        <button
          type="button"
          role="checkbox"
          className="row-check"
          aria-label={`Select row ${position + 1}`}
          aria-checked={isSelected}
          onClick={(event) => onToggleRow(position, event.shiftKey)}
        />
        {mark ? (
          <span
            className={`row-mark is-${mark}`}
            role="img"
            aria-label={MARK_LABELS[mark]}
            title={MARK_LABELS[mark]}
          />
        ) : null}
      </span>
      {leftPad > 0 && <span className="item-grid-gap" style={{ width: leftPad }} aria-hidden="true" />}
      {item === undefined ? (
        <span className="item-grid-loading" />
      ) : (
        columns.map((column) => (
          <span
            key={column}
            role="gridcell"
            className={isNumber(item[column]) ? 'item-grid-cell is-number' : 'item-grid-cell'}
            style={{ width: columnWidth(column, keys) }}
          >
            {column === ENTITY_COLUMN ? (
              <span className="cell-entity">{entityOf(item, keys) ?? ''}</span>
            ) : isGrouped && column === pk ? (
              // U+2033 (double prime) as the ditto mark: U+3003 〃 needs a CJK font, which many
              // Linux machines lack, and then showed as an empty box.
              <span className="cell-faint" title="The partition of the collection header above">
                ″
              </span>
            ) : (
              <ValueCell
                value={ownValue(item, column)}
                onExpand={() => {
                  const v = ownValue(item, column);
                  if (v) onExpand(column, v);
                }}
              />
            )}
          </span>
        ))
      )}
    </div>
  );
});

const MARK_LABELS: Record<RowMark | 'staged', string> = {
  changed: 'Changed by you',
  new: 'Created by you',
  staged: 'Staged change, not committed yet',
};

/** An item's table key as text, to match grid rows with staged changes. */
export function rowKeyText(item: Item, keys: KeySchema): string {
  return JSON.stringify([
    item[keys.partitionKey.name] ?? null,
    keys.sortKey ? (item[keys.sortKey.name] ?? null) : null,
  ]);
}

const rangeAnswers = new WeakMap<ReadonlySet<number>, Map<string, boolean>>();

/**
 * Whether every item of a collection is selected. Cheap when the selection is smaller; a large
 * one is checked once per selection (the grid asks again on every scroll frame).
 */
function isRangeSelected(selected: ReadonlySet<number>, first: number, count: number): boolean {
  if (count === 0 || selected.size < count) return false;
  let answers = rangeAnswers.get(selected);
  if (!answers) rangeAnswers.set(selected, (answers = new Map<string, boolean>()));
  const range = `${first}+${count}`;
  let answer = answers.get(range);
  if (answer === undefined) {
    answer = true;
    for (let position = first; position < first + count && answer; position++)
      answer = selected.has(position);
    answers.set(range, answer);
  }
  return answer;
}
