import type { TableDefinition } from '../../../../shared/dynamo/table-definition';
import { problemAt, type FieldProblem } from '../../../../shared/dynamo/table-validation';
import { Button } from '../../../ui/button';
import { Field, FieldError } from '../../../ui/field';
import { Select } from '../../../ui/select';
import { TextInput } from '../../../ui/text-input';
import { GlobalIndexFields } from './global-index-fields';
import { CapacityFields, KeyFields, OptionalSortKey, ProjectionFields } from './key-fields';
import { SettingsFields } from './settings-fields';

export interface DefinitionFormProps {
  value: TableDefinition;
  onChange(value: TableDefinition): void;
  problems: FieldProblem[];
}

const BILLING = ['PAY_PER_REQUEST', 'PROVISIONED'] as const;

/** Name, keys, billing and indexes of a new table; every problem said at its field. */
export function DefinitionForm({ value, onChange, problems }: DefinitionFormProps) {
  const isProvisioned = value.billingMode === 'PROVISIONED';
  const set = (patch: Partial<TableDefinition>): void => onChange({ ...value, ...patch });
  return (
    <div className="form create-table-form">
      <Field
        label="Table name"
        htmlFor="create-table-name"
        error={problemAt(problems, 'name')}
        hint="3–255 letters, digits, _ - ."
      >
        <input
          id="create-table-name"
          className="input"
          value={value.name}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => set({ name: event.target.value })}
        />
      </Field>
      <div className="field-row">
        <KeyFields
          label="Partition key"
          value={value.partitionKey}
          problems={problems}
          field="partitionKey"
          placeholder="PK"
          onChange={(partitionKey) => set({ partitionKey })}
        />
        <OptionalSortKey
          value={value.sortKey}
          problems={problems}
          field="sortKey"
          onChange={(sortKey) => set({ sortKey })}
        />
      </div>
      <div className="field-row">
        <div className="key-fields">
          <span className="field-label">Capacity</span>
          <Select
            label="Billing mode"
            value={value.billingMode}
            options={BILLING}
            labelOf={(m) =>
              m === 'PAY_PER_REQUEST'
                ? 'On-demand (pay per request)'
                : 'Provisioned (read and write units per second)'
            }
            onChange={(billingMode) =>
              set(
                billingMode === 'PROVISIONED'
                  ? {
                      billingMode,
                      readCapacity: value.readCapacity ?? 5,
                      writeCapacity: value.writeCapacity ?? 5,
                      globalIndexes: value.globalIndexes.map((g) => ({
                        ...g,
                        readCapacity: g.readCapacity ?? 5,
                        writeCapacity: g.writeCapacity ?? 5,
                      })),
                    }
                  : { billingMode },
              )
            }
          />
        </div>
        {isProvisioned ? (
          <CapacityFields
            label="Table capacity"
            read={value.readCapacity}
            write={value.writeCapacity}
            problems={problems}
            field=""
            onChange={(readCapacity, writeCapacity) => set({ readCapacity, writeCapacity })}
          />
        ) : (
          <div className="key-fields" />
        )}
      </div>

      <section className="index-list" aria-labelledby="gsi-heading">
        <div className="index-list-bar">
          <h3 id="gsi-heading" className="subheading">
            Global secondary indexes <span className="muted">{value.globalIndexes.length} of 20</span>
          </h3>
          <Button
            size="sm"
            onClick={() =>
              set({
                globalIndexes: [
                  ...value.globalIndexes,
                  {
                    name: `GSI${value.globalIndexes.length + 1}`,
                    partitionKey: { name: `GSI${value.globalIndexes.length + 1}PK`, type: 'S' },
                    projection: { type: 'ALL' },
                    ...(isProvisioned ? { readCapacity: 5, writeCapacity: 5 } : {}),
                  },
                ],
              })
            }
          >
            Add global index
          </Button>
        </div>
        <FieldError message={problems.find((p) => p.field === 'globalIndexes')?.message} />
        {value.globalIndexes.map((gsi, i) => (
          <GlobalIndexFields
            key={i}
            value={gsi}
            field={`globalIndexes.${i}`}
            problems={problems}
            isProvisioned={isProvisioned}
            onChange={(next) =>
              set({ globalIndexes: value.globalIndexes.map((g, j) => (j === i ? next : g)) })
            }
            onRemove={() => set({ globalIndexes: value.globalIndexes.filter((_, j) => j !== i) })}
          />
        ))}
      </section>

      <section className="index-list" aria-labelledby="lsi-heading">
        <div className="index-list-bar">
          <h3 id="lsi-heading" className="subheading">
            Local secondary indexes{' '}
            <span className="muted">{value.localIndexes.length} of 5 · only at creation</span>
          </h3>
          <Button
            size="sm"
            onClick={() =>
              set({
                localIndexes: [
                  ...value.localIndexes,
                  {
                    name: `LSI${value.localIndexes.length + 1}`,
                    sortKey: { name: '', type: 'S' },
                    projection: { type: 'ALL' },
                  },
                ],
              })
            }
          >
            Add local index
          </Button>
        </div>
        <FieldError message={problems.find((p) => p.field === 'localIndexes')?.message} />
        {value.localIndexes.map((lsi, i) => {
          const title = lsi.name || 'New local index';
          const at = `localIndexes.${i}`;
          const update = (patch: Partial<typeof lsi>): void =>
            set({ localIndexes: value.localIndexes.map((l, j) => (j === i ? { ...l, ...patch } : l)) });
          return (
            <fieldset key={i} className="index-fields">
              <legend>{title}</legend>
              <div className="index-fields-grid">
                <div className="key-fields">
                  <span className="field-label">Index name</span>
                  <TextInput
                    label={`${title}: index name`}
                    value={lsi.name}
                    onChange={(name) => update({ name })}
                  />
                  <FieldError message={problemAt(problems, `${at}.name`)} />
                </div>
                <KeyFields
                  label="Sort key"
                  value={lsi.sortKey}
                  problems={problems}
                  field={`${at}.sortKey`}
                  onChange={(sortKey) => update({ sortKey })}
                />
                <ProjectionFields
                  label={title}
                  value={lsi.projection}
                  error={problemAt(problems, `${at}.projection`)}
                  onChange={(projection) => update({ projection })}
                />
              </div>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove ${title}`}
                onClick={() => set({ localIndexes: value.localIndexes.filter((_, j) => j !== i) })}
              >
                Remove
              </Button>
            </fieldset>
          );
        })}
      </section>
      <SettingsFields value={value} onChange={onChange} problems={problems} />
    </div>
  );
}
