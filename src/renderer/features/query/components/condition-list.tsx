import { Select } from '../../../ui/select';
import type { BuilderErrors, BuilderPartProps, ConditionDraft } from '../builder-state';
import { ConditionRow } from './condition-row';

let nextId = 1;

/** The conditions with one more, empty, at the end. */
export function withNewCondition(conditions: ConditionDraft[]): ConditionDraft[] {
  return [
    ...conditions,
    { id: `c${nextId++}`, path: '', op: '=', type: 'S', value: '', value2: '', sizeOp: '>' },
  ];
}

/** The filter conditions of the form, and how they combine once there are two. */
export function ConditionList({
  state,
  set,
  names,
  errors,
}: BuilderPartProps & { names: string[]; errors: BuilderErrors }) {
  return (
    <div className="qb-filters">
      {state.conditions.length > 1 ? (
        <Select
          className="qb-join"
          label="Combine conditions with"
          value={state.join}
          options={['AND', 'OR']}
          labelOf={(join) => (join === 'AND' ? 'All of (AND)' : 'Any of (OR)')}
          onChange={(join) => set({ join })}
        />
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
  );
}
