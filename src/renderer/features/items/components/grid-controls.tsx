import { useEffect, useState } from 'react';
import type { KeySchema } from '../../../../shared/ipc/tables';
import { Button } from '../../../ui/button';
import { Check } from '../../../ui/check';
import { shownTimeZone, useDateView } from '../date-view';
import { TextInput } from '../../../ui/text-input';
import { itemsKey, useItemsStore, useItemsTable } from '../store';
import { ColumnChooser } from './column-chooser';

export interface GridControlsProps {
  connectionId: string;
  table: string;
  keys: KeySchema;
  columns: string[];
}

/** Quick filter, entity types, item collections and columns: all on fetched rows, computed in main's worker. */
export function GridControls({ connectionId, table, keys, columns }: GridControlsProps) {
  const showDates = useDateView((s) => s.isOn);
  const setShowDates = useDateView((s) => s.set);
  const state = useItemsTable(connectionId, table);
  const patch = useItemsStore((s) => s.patch);
  const applyView = useItemsStore((s) => s.applyView);
  const setCollapsed = useItemsStore((s) => s.setCollapsed);
  const readEntities = useItemsStore((s) => s.readEntities);
  const key = itemsKey(connectionId, table);
  const [text, setText] = useState(state.text);
  const [entities, setEntities] = useState<Record<string, number>>();

  useEffect(() => {
    if (text === state.text) return;
    const timer = setTimeout(() => {
      patch(key, { text });
      void applyView(connectionId, table, keys);
    }, 250);
    return () => clearTimeout(timer);
  }, [text, state.text, patch, key, applyView, connectionId, table, keys]);

  // Entity counts come from the worker over every fetched row, refreshed when a read ends. A view
  // reports them itself; the store skips the read when a view is shown or on its way.
  useEffect(() => {
    if (!state.resultSetId || state.viewId || state.status === 'running') return;
    let isCurrent = true;
    void readEntities(connectionId, table, keys).then((counts) => {
      if (isCurrent && counts) setEntities(counts);
    });
    return () => {
      isCurrent = false;
    };
  }, [state.resultSetId, state.viewId, state.status, state.fetched, readEntities, connectionId, table, keys]);

  const entityNames = Object.keys(state.entities ?? entities ?? {})
    .filter(Boolean)
    .sort();
  const change = (next: Partial<typeof state>): void => {
    patch(key, next);
    void applyView(connectionId, table, keys);
  };
  return (
    <div className="grid-controls">
      <TextInput
        className="grid-filter"
        type="search"
        label="Filter fetched rows"
        placeholder="Filter fetched rows…"
        value={text}
        onChange={setText}
      />
      {entityNames.length > 0 ? (
        <div className="entity-chips" role="group" aria-label="Entity types">
          {entityNames.map((name) => {
            const isOn = state.entityFilter.includes(name);
            return (
              <button
                key={name}
                type="button"
                aria-pressed={isOn}
                className={`chip${isOn ? ' is-active' : ''}`}
                onClick={() =>
                  change({
                    entityFilter: isOn
                      ? state.entityFilter.filter((e) => e !== name)
                      : [...state.entityFilter, name],
                  })
                }
              >
                {name} <span className="muted">{(state.entities ?? entities)?.[name] ?? ''}</span>
              </button>
            );
          })}
        </div>
      ) : null}
      {/* One group from here to Columns: when the line is short (1440 px with the editor open) it
          moves down whole, so "View as dates" is never left alone under the filter's line. */}
      <div className="grid-view-options">
        <Check
          checked={state.isGrouped}
          onChange={(isGrouped) => change({ isGrouped })}
          title="One header per partition key, with its items sorted by sort key; collapse the ones you do not need"
        >
          Item collections
        </Check>
        {state.isGrouped && state.viewId ? (
          <span className="collection-controls">
            <span className="muted" role="status">
              {(state.collections ?? 0).toLocaleString('en-US')} collection
              {state.collections === 1 ? '' : 's'}
            </span>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => void setCollapsed(connectionId, table, { all: true, isCollapsed: true })}
            >
              Collapse all
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => void setCollapsed(connectionId, table, { all: true, isCollapsed: false })}
            >
              Expand all
            </Button>
          </span>
        ) : null}
        <Check
          checked={showDates}
          onChange={setShowDates}
          title="Numbers that look like epoch seconds or milliseconds, and ISO strings, as dates in your time zone (hover for UTC and the stored value). Nothing stored changes."
        >
          View as dates{showDates ? ` (${shownTimeZone()})` : ''}
        </Check>
        {state.sort.length > 0 ? (
          <Button size="sm" variant="ghost" onClick={() => change({ sort: [] })}>
            Clear sort
          </Button>
        ) : null}
        <span className="toolbar-spacer" />
        <ColumnChooser
          columns={columns}
          hidden={state.hiddenColumns}
          onChange={(hiddenColumns) => patch(key, { hiddenColumns })}
        />
      </div>
    </div>
  );
}
