import { useRef, useState } from 'react';
import { GSI_CONSISTENT_READ } from '../../../../shared/dynamo/read-request';
import type { Connection } from '../../../../shared/ipc';
import type { IndexInfo, KeySchema } from '../../../../shared/ipc/tables';
import { Button } from '../../../ui/button';
import { Check } from '../../../ui/check';
import { FieldError } from '../../../ui/field';
import { Select } from '../../../ui/select';
import { keyFieldError, keysOf, validLimit, type BuilderErrors, type BuilderState } from '../builder-state';
import { withRawFromForm } from '../raw-fields';
import { ConditionList, withNewCondition } from './condition-list';
import { KeyFields } from './key-fields';
import { RequestToggle } from '../../editor/components/request-preview';
import { useRunShortcut } from '../../keyboard/hooks';
import { RawExpressions } from './raw-expressions';
import { ReadRequestPreview } from './read-request-preview';
import { ReadLimits } from './read-limits';

export interface QueryBuilderProps {
  connection: Connection;
  table: string;
  state: BuilderState;
  keys: KeySchema;
  indexes: IndexInfo[];
  names: string[];
  errors: BuilderErrors;
  /** Why the last press of the run button did not send anything. */
  runProblem?: string;
  isRunning: boolean;
  onChange(state: BuilderState): void;
  onRun(): void;
  onCancel(): void;
}

/**
 * Query or Scan, by form or raw expressions. The run button names the operation, so the cost
 * is never a surprise: a Scan reads the whole table, a Query one partition.
 */
export function QueryBuilder({
  connection,
  table,
  state,
  keys,
  indexes,
  names,
  errors,
  runProblem,
  isRunning,
  onChange,
  onRun,
  onCancel,
}: QueryBuilderProps) {
  const form = useRef<HTMLFormElement>(null);
  useRunShortcut(form);
  const [showOptions, setShowOptions] = useState(false);
  const [showRequest, setShowRequest] = useState(false);
  const set = (change: Partial<BuilderState>): void => onChange({ ...state, ...change });
  const indexKeys = keysOf(keys, indexes, state.index);
  const isGsi = indexes.find((i) => i.name === state.index)?.kind === 'GSI';
  const verb = state.mode === 'query' ? 'Query' : 'Scan';
  const target = { table, keys, indexes };
  // A limit out of range is marked at its field as it is typed; the run button says why it did not run.
  const optionsNeedFixing = ['projection', 'pageSize', 'maxItems'].some((field) => errors[field]);
  const fetchUntil = validLimit('maxItems', state.maxItems);
  return (
    <form
      ref={form}
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
        <Select
          className="qb-index"
          label="Table or index"
          value={state.index}
          options={['', ...indexes.map((i) => i.name)]}
          labelOf={(name) => {
            const index = indexes.find((i) => i.name === name);
            return index ? `${index.kind} ${index.name}` : 'Table';
          }}
          onChange={(index) => set({ index, consistent: false, morePartitionKeys: [], moreSortKeys: [] })}
        />
        {state.mode === 'query' && !state.isRaw ? (
          <KeyFields keys={indexKeys} state={state} set={set} />
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
      <FieldError message={keyFieldError(errors)} />
      {runProblem && !keyFieldError(errors) ? (
        <p className="field-error qb-why" role="alert">
          {verb} did not run: {runProblem}
        </p>
      ) : null}
      {state.isRaw ? (
        <RawExpressions state={state} set={set} errors={errors} />
      ) : (
        <ConditionList state={state} set={set} names={names} errors={errors} />
      )}
      <div className="qb-row qb-secondary">
        {!state.isRaw ? (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => set({ conditions: withNewCondition(state.conditions) })}
          >
            + Filter
          </Button>
        ) : null}
        <Button
          size="sm"
          variant="ghost"
          aria-pressed={state.isRaw}
          onClick={() =>
            onChange(state.isRaw ? { ...state, isRaw: false } : withRawFromForm(state, target, names))
          }
        >
          {state.isRaw ? 'Use the form' : 'Raw expressions'}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          aria-expanded={showOptions || optionsNeedFixing}
          onClick={() => setShowOptions(!showOptions)}
        >
          Options
        </Button>
        <RequestToggle isShown={showRequest} onToggle={() => setShowRequest(!showRequest)} />
        <Check
          disabled={isGsi}
          checked={state.consistent && !isGsi}
          onChange={(consistent) => set({ consistent })}
          title={
            isGsi ? GSI_CONSISTENT_READ : 'Reads the latest committed data; costs twice the read capacity.'
          }
        >
          Consistent read
          {isGsi ? <span className="qb-reason">not on a GSI</span> : null}
        </Check>
        {state.mode === 'query' ? (
          <Check checked={state.descending} onChange={(descending) => set({ descending })}>
            Newest first (descending)
          </Check>
        ) : null}
        <Check
          checked={state.untilMatches}
          onChange={(untilMatches) => set({ untilMatches })}
          title="Keep reading pages until this many items match the filter"
        >
          Fetch until {fetchUntil?.toLocaleString('en-US') ?? 'N'} matches
        </Check>
      </div>
      {showOptions || optionsNeedFixing ? <ReadLimits state={state} set={set} errors={errors} /> : null}
      {showRequest ? (
        <ReadRequestPreview state={state} target={target} names={names} connection={connection} />
      ) : null}
    </form>
  );
}
