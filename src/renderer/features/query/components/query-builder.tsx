import { useState } from 'react';
import { GSI_CONSISTENT_READ } from '../../../../shared/dynamo/read-request';
import type { IndexInfo, KeySchema } from '../../../../shared/ipc/tables';
import { Button } from '../../../ui/button';
import { keysOf, type BuilderErrors, type BuilderState, type SortKeyOp } from '../builder-state';
import { ConditionRow } from './condition-row';

export interface QueryBuilderProps {
  state: BuilderState;
  keys: KeySchema;
  indexes: IndexInfo[];
  names: string[];
  errors: BuilderErrors;
  isRunning: boolean;
  onChange(state: BuilderState): void;
  onRun(): void;
  onCancel(): void;
}

const SORT_OPS: SortKeyOp[] = ['', '=', '<', '<=', '>', '>=', 'begins_with', 'between'];
let nextId = 1;

/**
 * Query or Scan, by form or raw expressions. The run button names the operation, so the cost
 * is never a surprise: a Scan reads the whole table, a Query one partition.
 */
export function QueryBuilder({
  state,
  keys,
  indexes,
  names,
  errors,
  isRunning,
  onChange,
  onRun,
  onCancel,
}: QueryBuilderProps) {
  const [showOptions, setShowOptions] = useState(false);
  const set = (change: Partial<BuilderState>): void => onChange({ ...state, ...change });
  const indexKeys = keysOf(keys, indexes, state.index);
  const isGsi = indexes.find((i) => i.name === state.index)?.kind === 'GSI';
  const verb = state.mode === 'query' ? 'Query' : 'Scan';
  return (
    <form
      className="qb"
      aria-label="Query builder"
      onSubmit={(event) => {
        event.preventDefault();
        onRun();
      }}
    >
      <div className="qb-row">
        <div className="qb-mode" role="radiogroup" aria-label="Operation">
          {(['scan', 'query'] as const).map((mode) => (
            <button
              key={mode}
              type="button"
              role="radio"
              aria-checked={state.mode === mode}
              className={state.mode === mode ? 'is-active' : ''}
              onClick={() => set({ mode })}
            >
              {mode === 'scan' ? 'Scan' : 'Query'}
            </button>
          ))}
        </div>
        <select
          className="input qb-index"
          aria-label="Table or index"
          value={state.index}
          onChange={(e) => set({ index: e.target.value, consistent: false })}
        >
          <option value="">Table</option>
          {indexes.map((i) => (
            <option key={i.name} value={i.name}>
              {i.kind} {i.name}
            </option>
          ))}
        </select>
        {state.mode === 'query' && !state.isRaw ? (
          <>
            <label className="qb-key">
              <span className="qb-key-name">{indexKeys.partitionKey.name} =</span>
              <input
                className="input"
                aria-label={`Partition key ${indexKeys.partitionKey.name}`}
                value={state.partitionKey}
                onChange={(e) => set({ partitionKey: e.target.value })}
                placeholder={indexKeys.partitionKey.type === 'N' ? 'number' : 'value'}
              />
            </label>
            {indexKeys.sortKey ? (
              <label className="qb-key">
                <span className="qb-key-name">{indexKeys.sortKey.name}</span>
                <select
                  className="input qb-op-small"
                  aria-label="Sort key condition"
                  value={state.sortOp}
                  onChange={(e) => set({ sortOp: e.target.value as SortKeyOp })}
                >
                  {SORT_OPS.map((op) => (
                    <option key={op} value={op}>
                      {op === '' ? 'any' : op.replace('_', ' ')}
                    </option>
                  ))}
                </select>
                {state.sortOp ? (
                  <input
                    className="input"
                    aria-label={`Sort key ${indexKeys.sortKey.name}`}
                    value={state.sortValue}
                    onChange={(e) => set({ sortValue: e.target.value })}
                  />
                ) : null}
                {state.sortOp === 'between' ? (
                  <input
                    className="input"
                    aria-label="Sort key upper bound"
                    value={state.sortValue2}
                    onChange={(e) => set({ sortValue2: e.target.value })}
                  />
                ) : null}
              </label>
            ) : null}
          </>
        ) : null}
        <span className="toolbar-spacer" />
        {isRunning ? (
          <Button variant="danger" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" variant="primary" isBusy={isRunning}>
          {verb}
        </Button>
      </div>
      {errors.partitionKey || errors.sortKey ? (
        <p className="field-error" role="alert">
          {errors.partitionKey ?? errors.sortKey}
        </p>
      ) : null}
      {state.isRaw ? (
        <div className="qb-raw">
          {state.mode === 'query' ? (
            <textarea
              className="input code"
              aria-label="Key condition expression"
              placeholder="#pk = :pk AND begins_with(#sk, :prefix)"
              value={state.rawKeyCondition}
              onChange={(e) => set({ rawKeyCondition: e.target.value })}
            />
          ) : null}
          <textarea
            className="input code"
            aria-label="Filter expression"
            placeholder="#status = :paid AND size(#items) > :n"
            value={state.rawFilter}
            onChange={(e) => set({ rawFilter: e.target.value })}
          />
          <textarea
            className="input code"
            aria-label="Expression attribute names"
            value={state.rawNames}
            onChange={(e) => set({ rawNames: e.target.value })}
          />
          <textarea
            className="input code"
            aria-label="Expression attribute values"
            value={state.rawValues}
            onChange={(e) => set({ rawValues: e.target.value })}
          />
          {errors.raw ? (
            <p className="field-error" role="alert">
              {errors.raw}
            </p>
          ) : null}
        </div>
      ) : (
        <div className="qb-filters">
          {state.conditions.length > 1 ? (
            <select
              className="input qb-join"
              aria-label="Combine conditions with"
              value={state.join}
              onChange={(e) => set({ join: e.target.value as 'AND' | 'OR' })}
            >
              <option value="AND">All of (AND)</option>
              <option value="OR">Any of (OR)</option>
            </select>
          ) : null}
          {state.conditions.map((draft) => (
            <ConditionRow
              key={draft.id}
              draft={draft}
              names={names}
              error={errors[`condition:${draft.id}`]}
              onChange={(next) =>
                set({ conditions: state.conditions.map((c) => (c.id === draft.id ? next : c)) })
              }
              onRemove={() => set({ conditions: state.conditions.filter((c) => c.id !== draft.id) })}
            />
          ))}
        </div>
      )}
      <div className="qb-row qb-secondary">
        {!state.isRaw ? (
          <Button
            size="sm"
            variant="ghost"
            onClick={() =>
              set({
                conditions: [
                  ...state.conditions,
                  { id: `c${nextId++}`, path: '', op: '=', type: 'S', value: '', value2: '', sizeOp: '>' },
                ],
              })
            }
          >
            + Filter
          </Button>
        ) : null}
        <Button
          size="sm"
          variant="ghost"
          aria-pressed={state.isRaw}
          onClick={() => set({ isRaw: !state.isRaw })}
        >
          {state.isRaw ? 'Use the form' : 'Raw expressions'}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          aria-expanded={showOptions}
          onClick={() => setShowOptions(!showOptions)}
        >
          Options
        </Button>
        <label
          className="check"
          title={
            isGsi ? GSI_CONSISTENT_READ : 'Reads the latest committed data; costs twice the read capacity.'
          }
        >
          <input
            type="checkbox"
            disabled={isGsi}
            checked={state.consistent && !isGsi}
            onChange={(e) => set({ consistent: e.target.checked })}
          />
          Consistent read
          {isGsi ? <span className="qb-reason">not on a GSI</span> : null}
        </label>
        {state.mode === 'query' ? (
          <label className="check">
            <input
              type="checkbox"
              checked={state.descending}
              onChange={(e) => set({ descending: e.target.checked })}
            />
            Newest first (descending)
          </label>
        ) : null}
        <label className="check" title="Keep reading pages until this many items match the filter">
          <input
            type="checkbox"
            checked={state.untilMatches}
            onChange={(e) => set({ untilMatches: e.target.checked })}
          />
          Fetch until {state.maxItems || 'N'} matches
        </label>
      </div>
      {showOptions ? (
        <div className="qb-row qb-options">
          <label className="qb-key">
            <span>Projection</span>
            <input
              className="input"
              aria-label="Projection"
              placeholder="all attributes (or: total, address.city)"
              value={state.projection}
              onChange={(e) => set({ projection: e.target.value })}
            />
          </label>
          <label className="qb-key">
            <span>Page size</span>
            <input
              className="input qb-number"
              aria-label="Page size"
              inputMode="numeric"
              value={state.pageSize}
              onChange={(e) => set({ pageSize: e.target.value })}
            />
          </label>
          <label className="qb-key">
            <span>Max items</span>
            <input
              className="input qb-number"
              aria-label="Max items"
              inputMode="numeric"
              value={state.maxItems}
              onChange={(e) => set({ maxItems: e.target.value })}
            />
          </label>
          {(errors.projection ?? errors.pageSize ?? errors.maxItems) ? (
            <p className="field-error" role="alert">
              {errors.projection ?? errors.pageSize ?? errors.maxItems}
            </p>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
