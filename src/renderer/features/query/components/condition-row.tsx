import { attributeTypes, typeLabel } from '../../../../shared/dynamo/attribute-value';
import { filterOperators, type FilterOperator } from '../../../../shared/ipc/query';
import { Button } from '../../../ui/button';
import { FieldError } from '../../../ui/field';
import { Select } from '../../../ui/select';
import { TextInput } from '../../../ui/text-input';
import { noValueOps, scalarTypes, type ConditionDraft, type ScalarType } from '../builder-state';

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

const SIZE_OPS: ConditionDraft['sizeOp'][] = ['=', '<>', '<', '<=', '>', '>='];

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
      <TextInput
        className="qb-path"
        label="Attribute path"
        placeholder="attribute or a.b[0]"
        list={listId}
        value={draft.path}
        onChange={(path) => set({ path })}
      />
      <datalist id={listId}>
        {names.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <Select
        className="qb-op"
        label="Operator"
        value={draft.op}
        options={filterOperators}
        labelOf={(op) => OPERATOR_LABELS[op] ?? op}
        onChange={(op) => set({ op })}
      />
      {draft.op === 'size' ? (
        <Select
          className="qb-op-small"
          label="Size comparison"
          value={draft.sizeOp}
          options={SIZE_OPS}
          onChange={(sizeOp) => set({ sizeOp })}
        />
      ) : null}
      {needsValue && draft.op !== 'size' ? (
        <Select
          className="qb-type"
          label="Value type"
          value={draft.type}
          // "is of type" offers every type; a value typed in the box has a scalar one.
          options={draft.op === 'attribute_type' ? attributeTypes : scalarTypes}
          labelOf={typeLabel}
          // "is of type" keeps any type in the draft's type, as the request it builds does.
          onChange={(type) => set({ type: type as ScalarType })}
        />
      ) : null}
      {needsValue && draft.op !== 'attribute_type' && draft.type !== 'NULL' ? (
        <TextInput
          className="qb-value"
          label="Value"
          value={draft.value}
          onChange={(value) => set({ value })}
        />
      ) : null}
      {draft.op === 'between' ? (
        <TextInput
          className="qb-value"
          label="Upper bound"
          value={draft.value2}
          onChange={(value2) => set({ value2 })}
        />
      ) : null}
      <Button size="sm" variant="ghost" aria-label="Remove the condition" onClick={onRemove}>
        ×
      </Button>
      <FieldError className="qb-error" message={error} />
    </div>
  );
}
