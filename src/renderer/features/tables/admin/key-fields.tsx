import type { ReactNode } from 'react';
import { typeLabel } from '../../../../shared/dynamo/attribute-value';
import {
  keyTypeSchema,
  type KeyAttribute,
  type ProjectionDefinition,
} from '../../../../shared/dynamo/table-definition';
import { problemAt, type FieldProblem } from '../../../../shared/dynamo/table-validation';
import { FieldError } from '../../../ui/field';
import { Select } from '../../../ui/select';
import { TextInput } from '../../../ui/text-input';
import { capacityUnitHelp } from '../../../ui/capacity-unit';

/** A key attribute's name and type, with the problem of either said under them. */
export function KeyFields({
  label,
  value,
  onChange,
  problems,
  field,
  placeholder,
  heading,
}: {
  label: string;
  value: KeyAttribute;
  onChange(value: KeyAttribute): void;
  problems: FieldProblem[];
  field: string;
  placeholder?: string;
  /** Shown instead of the label above the inputs (the sort key's checkbox). */
  heading?: ReactNode;
}) {
  const error = problemAt(problems, field);
  return (
    <div className={`key-fields${error ? ' has-error' : ''}`}>
      {heading ?? <span className="field-label">{label}</span>}
      <div className="key-fields-row">
        <TextInput
          label={`${label} name`}
          value={value.name}
          placeholder={placeholder ?? 'attribute name'}
          aria-invalid={problemAt(problems, `${field}.name`) ? true : undefined}
          onChange={(name) => onChange({ ...value, name })}
        />
        <Select
          label={`${label} type`}
          value={value.type}
          options={keyTypeSchema.options}
          labelOf={typeLabel}
          onChange={(type) => onChange({ ...value, type })}
        />
      </div>
      <FieldError message={error} />
    </div>
  );
}

const PROJECTIONS = ['ALL', 'KEYS_ONLY', 'INCLUDE'] as const;
const projectionLabel = (p: (typeof PROJECTIONS)[number]): string =>
  ({ ALL: 'All attributes', KEYS_ONLY: 'Keys only', INCLUDE: 'Keys and…' })[p];

export function ProjectionFields({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: ProjectionDefinition;
  onChange(value: ProjectionDefinition): void;
  error?: string;
}) {
  return (
    <div className="key-fields">
      <span className="field-label">Projection</span>
      <div className="key-fields-row">
        <Select
          label={`${label} projection`}
          value={value.type}
          options={PROJECTIONS}
          labelOf={projectionLabel}
          onChange={(type) =>
            onChange(type === 'INCLUDE' ? { type, attributes: value.attributes ?? [] } : { type })
          }
        />
        {value.type === 'INCLUDE' ? (
          <TextInput
            label={`${label} included attributes`}
            placeholder="status, total (comma-separated)"
            value={(value.attributes ?? []).join(', ')}
            onChange={(text) =>
              onChange({
                type: 'INCLUDE',
                attributes: text
                  .split(',')
                  .map((a) => a.trim())
                  .filter((a, i, all) => a !== '' || i < all.length - 1),
              })
            }
          />
        ) : null}
      </div>
      <FieldError message={error} />
    </div>
  );
}

export function CapacityFields({
  label,
  read,
  write,
  onChange,
  problems,
  field,
}: {
  label: string;
  read?: number;
  write?: number;
  onChange(read: number | undefined, write: number | undefined): void;
  problems: FieldProblem[];
  /** Prefix of readCapacity/writeCapacity in the problems ('' for the table's own). */
  field: string;
}) {
  const parse = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));
  const error = problemAt(problems, `${field}readCapacity`) ?? problemAt(problems, `${field}writeCapacity`);
  return (
    <div className="key-fields">
      <span className="field-label">{label}</span>
      <div className="key-fields-row">
        {/* The unit stays in sight once a number is typed, where a placeholder would not. */}
        <span className="unit-input">
          <TextInput
            label={`${label}: read capacity units`}
            inputMode="numeric"
            value={read === undefined ? '' : String(read)}
            onChange={(text) => onChange(parse(text), write)}
          />
          <span className="unit" aria-hidden="true" title={capacityUnitHelp.RCU}>
            RCU
          </span>
        </span>
        <span className="unit-input">
          <TextInput
            label={`${label}: write capacity units`}
            inputMode="numeric"
            value={write === undefined ? '' : String(write)}
            onChange={(text) => onChange(read, parse(text))}
          />
          <span className="unit" aria-hidden="true" title={capacityUnitHelp.WCU}>
            WCU
          </span>
        </span>
      </div>
      <FieldError message={error} />
    </div>
  );
}

/** A sort key that may be absent: a checkbox, then its fields. */
export function OptionalSortKey({
  value,
  onChange,
  problems,
  field,
  label = 'Sort key',
}: {
  value?: KeyAttribute;
  onChange(value: KeyAttribute | undefined): void;
  problems: FieldProblem[];
  field: string;
  label?: string;
}) {
  const toggle = (
    <label className="check-label">
      <input
        type="checkbox"
        checked={value !== undefined}
        onChange={(event) => onChange(event.target.checked ? { name: '', type: 'S' } : undefined)}
      />
      {label}
    </label>
  );
  if (!value) return <div className="key-fields">{toggle}</div>;
  return (
    <KeyFields
      label={label}
      heading={toggle}
      value={value}
      onChange={onChange}
      problems={problems}
      field={field}
    />
  );
}
