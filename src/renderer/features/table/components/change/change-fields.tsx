import type { TableChange } from '../../../../../shared/dynamo/table-change';
import { problemAt, type FieldProblem } from '../../../../../shared/dynamo/table-validation';
import type { TableSummary } from '../../../../../shared/ipc';
import { FieldError } from '../../../../ui/field';
import { Select } from '../../../../ui/select';
import { Switch } from '../../../../ui/switch';
import { TextInput } from '../../../../ui/text-input';
import { GlobalIndexFields } from '../../../tables/admin/global-index-fields';
import { CapacityFields } from '../../../tables/admin/key-fields';
import { STREAM_OPTIONS, streamOptionLabel } from '../../../tables/admin/settings-fields';

/** The form for one change; each kind edits only its own fields. */
export function ChangeFields({
  change,
  onChange,
  summary,
  problems,
}: {
  change: TableChange;
  onChange(change: TableChange): void;
  summary: TableSummary;
  problems: FieldProblem[];
}) {
  switch (change.kind) {
    case 'billing':
      return (
        <div className="field-row">
          <div className="key-fields">
            <span className="field-label">Billing mode</span>
            <Select
              label="New billing mode"
              value={change.mode}
              options={['PAY_PER_REQUEST', 'PROVISIONED'] as const}
              labelOf={(m) => (m === 'PAY_PER_REQUEST' ? 'On-demand' : 'Provisioned')}
              onChange={(mode) =>
                onChange(
                  mode === 'PAY_PER_REQUEST'
                    ? { kind: 'billing', mode }
                    : {
                        ...change,
                        mode,
                        readCapacity: change.readCapacity ?? 5,
                        writeCapacity: change.writeCapacity ?? 5,
                      },
                )
              }
            />
          </div>
          {change.mode === 'PROVISIONED' ? (
            <CapacityFields
              label="Capacity"
              read={change.readCapacity}
              write={change.writeCapacity}
              problems={problems}
              field=""
              onChange={(readCapacity, writeCapacity) => onChange({ ...change, readCapacity, writeCapacity })}
            />
          ) : (
            <div className="key-fields" />
          )}
        </div>
      );
    case 'addIndex':
      return (
        <GlobalIndexFields
          value={change.index}
          field="index"
          problems={problems}
          isProvisioned={summary.billingMode === 'PROVISIONED'}
          onChange={(index) => onChange({ ...change, index })}
        />
      );
    case 'deleteIndex': {
      const gsis = summary.indexes.filter((i) => i.kind === 'GSI').map((i) => i.name);
      if (gsis.length === 0) return <p className="muted">This table has no global index to delete.</p>;
      return (
        <div className="key-fields">
          <span className="field-label">Index</span>
          <Select
            label="Index to delete"
            value={change.name}
            options={gsis}
            onChange={(name) => onChange({ ...change, name })}
          />
        </div>
      );
    }
    case 'ttl':
      return (
        <div className="field-row">
          <Switch
            checked={change.enabled}
            onChange={(enabled) => onChange({ ...change, enabled })}
            label="Time to live on"
          />
          <div className="key-fields">
            <span className="field-label">TTL attribute</span>
            <TextInput
              label="TTL attribute"
              value={change.attribute}
              placeholder="expiresAt"
              onChange={(attribute) => onChange({ ...change, attribute })}
            />
            <FieldError message={problemAt(problems, 'attribute')} />
          </div>
        </div>
      );
    case 'stream':
      return (
        <div className="key-fields">
          <span className="field-label">Stream</span>
          <Select
            label="New stream setting"
            value={change.enabled ? (change.viewType ?? 'NEW_AND_OLD_IMAGES') : 'OFF'}
            options={STREAM_OPTIONS}
            labelOf={streamOptionLabel}
            onChange={(o) =>
              onChange(
                o === 'OFF'
                  ? { kind: 'stream', enabled: false }
                  : { kind: 'stream', enabled: true, viewType: o },
              )
            }
          />
        </div>
      );
    case 'deletionProtection':
      return (
        <Switch
          checked={change.enabled}
          onChange={(enabled) => onChange({ ...change, enabled })}
          label="Deletion protection on"
        />
      );
    case 'pitr':
      return (
        <Switch
          checked={change.enabled}
          onChange={(enabled) => onChange({ ...change, enabled })}
          label="Point-in-time recovery on"
        />
      );
    case 'tableClass':
      return (
        <div className="key-fields">
          <span className="field-label">Table class</span>
          <Select
            label="New table class"
            value={change.tableClass}
            options={['STANDARD', 'STANDARD_INFREQUENT_ACCESS'] as const}
            labelOf={(c) => (c === 'STANDARD' ? 'Standard' : 'Standard-IA')}
            onChange={(tableClass) => onChange({ ...change, tableClass })}
          />
        </div>
      );
    case 'tags':
      // The Tags change has its own editor, which starts from the table's current tags (tags-editor.tsx).
      return null;
  }
}
