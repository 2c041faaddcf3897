import type { GlobalIndexDefinition } from '../../../../shared/dynamo/table-definition';
import { problemAt, type FieldProblem } from '../../../../shared/dynamo/table-validation';
import { Button } from '../../../ui/button';
import { FieldError } from '../../../ui/field';
import { TextInput } from '../../../ui/text-input';
import { IndexKeyFields } from './index-key-fields';
import { CapacityFields, ProjectionFields } from './key-fields';

/** One global index: name, keys, projection, and capacity on a provisioned table. */
export function GlobalIndexFields({
  value,
  onChange,
  onRemove,
  problems,
  field,
  isProvisioned,
}: {
  value: GlobalIndexDefinition;
  onChange(value: GlobalIndexDefinition): void;
  onRemove?: () => void;
  problems: FieldProblem[];
  field: string;
  isProvisioned: boolean;
}) {
  const title = value.name || 'New global index';
  return (
    <fieldset className="index-fields">
      <legend>{title}</legend>
      <div className="index-fields-grid">
        <div className="key-fields">
          <span className="field-label">Index name</span>
          <TextInput
            label={`${title}: index name`}
            value={value.name}
            placeholder="GSI2"
            onChange={(name) => onChange({ ...value, name })}
          />
          <FieldError message={problemAt(problems, `${field}.name`)} />
        </div>
        <IndexKeyFields title={title} value={value} problems={problems} field={field} onChange={onChange} />
        <ProjectionFields
          label={title}
          value={value.projection}
          error={problemAt(problems, `${field}.projection`)}
          onChange={(projection) => onChange({ ...value, projection })}
        />
        {isProvisioned ? (
          <CapacityFields
            label="Index capacity"
            read={value.readCapacity}
            write={value.writeCapacity}
            problems={problems}
            field={`${field}.`}
            onChange={(readCapacity, writeCapacity) => onChange({ ...value, readCapacity, writeCapacity })}
          />
        ) : null}
      </div>
      {onRemove ? (
        <Button size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove ${title}`}>
          Remove
        </Button>
      ) : null}
    </fieldset>
  );
}
