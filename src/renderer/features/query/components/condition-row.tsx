import { filterOperators, type FilterOperator } from '../../../../shared/ipc/query';
import { Button } from '../../../ui/button';
import { noValueOps, type ConditionDraft, type ScalarType } from '../builder-state';

const OPERATOR_LABELS: Partial<Record<FilterOperator, string>> = {
  begins_with: 'begins with',
  contains: 'contains',
  not_contains: 'does not contain',
  attribute_exists: 'exists',
  attribute_not_exists: 'does not exist',
  attribute_type: 'is of type',
  size: 'size',
  between: 'between',
  in: 'in (a, b, …)',
};

const TYPES: ScalarType[] = ['S', 'N', 'B', 'BOOL', 'NULL'];

export interface ConditionRowProps {
  draft: ConditionDraft;
  names: string[];
  error?: string;
  onChange(draft: ConditionDraft): void;
  onRemove(): void;
}

/** One filter condition: attribute path, operator, value type and value(s). */
export function ConditionRow({ draft, names, error, onChange, onRemove }: ConditionRowProps) {
  const set = (change: Partial<ConditionDraft>): void => onChange({ ...draft, ...change });
  const needsValue = !noValueOps.has(draft.op);
  const listId = `names-${draft.id}`;
  return (
    <div className={`qb-condition${error ? ' has-error' : ''}`}>
      <input
        className="input qb-path"
        aria-label="Attribute path"
        placeholder="attribute or a.b[0]"
        list={listId}
        value={draft.path}
        onChange={(e) => set({ path: e.target.value })}
      />
      <datalist id={listId}>
        {names.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <select
        className="input qb-op"
        aria-label="Operator"
        value={draft.op}
        onChange={(e) => set({ op: e.target.value as FilterOperator })}
      >
        {filterOperators.map((op) => (
          <option key={op} value={op}>
            {OPERATOR_LABELS[op] ?? op}
          </option>
        ))}
      </select>
      {draft.op === 'size' ? (
        <select
          className="input qb-op-small"
          aria-label="Size comparison"
          value={draft.sizeOp}
          onChange={(e) => set({ sizeOp: e.target.value as ConditionDraft['sizeOp'] })}
        >
          {['=', '<>', '<', '<=', '>', '>='].map((op) => (
            <option key={op}>{op}</option>
          ))}
        </select>
      ) : null}
      {needsValue && draft.op !== 'size' ? (
        <select
          className="input qb-type"
          aria-label="Value type"
          value={draft.type}
          onChange={(e) => set({ type: e.target.value as ScalarType })}
        >
          {(draft.op === 'attribute_type'
            ? ['S', 'N', 'B', 'BOOL', 'NULL', 'L', 'M', 'SS', 'NS', 'BS']
            : TYPES
          ).map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      ) : null}
      {needsValue && draft.op !== 'attribute_type' && draft.type !== 'NULL' ? (
        <input
          className="input qb-value"
          aria-label="Value"
          value={draft.value}
          onChange={(e) => set({ value: e.target.value })}
        />
      ) : null}
      {draft.op === 'between' ? (
        <input
          className="input qb-value"
          aria-label="Upper bound"
          value={draft.value2}
          onChange={(e) => set({ value2: e.target.value })}
        />
      ) : null}
      <Button size="sm" variant="ghost" aria-label="Remove the condition" onClick={onRemove}>
        ×
      </Button>
      {error ? (
        <p className="field-error qb-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
