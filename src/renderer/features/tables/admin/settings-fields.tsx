import type { StreamViewType, TableDefinition } from '../../../../shared/dynamo/table-definition';
import { problemAt, type FieldProblem } from '../../../../shared/dynamo/table-validation';
import { Button } from '../../../ui/button';
import { Field, FieldError } from '../../../ui/field';
import { Switch } from '../../../ui/switch';
import { TextInput } from '../../../ui/text-input';

export const STREAM_OPTIONS = ['OFF', 'NEW_AND_OLD_IMAGES', 'NEW_IMAGE', 'OLD_IMAGE', 'KEYS_ONLY'] as const;
export const streamOptionLabel = (o: (typeof STREAM_OPTIONS)[number]): string =>
  ({
    OFF: 'Off',
    NEW_AND_OLD_IMAGES: 'New and old images',
    NEW_IMAGE: 'New image',
    OLD_IMAGE: 'Old image',
    KEYS_ONLY: 'Keys only',
  })[o];

/** TTL, stream, deletion protection, table class and tags of a new table. */
export function SettingsFields({
  value,
  onChange,
  problems,
}: {
  value: TableDefinition;
  onChange(value: TableDefinition): void;
  problems: FieldProblem[];
}) {
  const set = (patch: Partial<TableDefinition>): void => onChange({ ...value, ...patch });
  return (
    <section className="form" aria-labelledby="settings-heading">
      <h3 id="settings-heading" className="subheading">
        Settings
      </h3>
      <div className="field-row">
        <Field
          label="Time to live attribute"
          htmlFor="create-ttl"
          error={problemAt(problems, 'ttlAttribute')}
          hint="Empty: no TTL. Set once the table is ACTIVE."
        >
          <input
            id="create-ttl"
            className="input"
            value={value.ttlAttribute ?? ''}
            placeholder="expiresAt"
            onChange={(event) =>
              set({ ttlAttribute: event.target.value === '' ? undefined : event.target.value })
            }
          />
        </Field>
        <Field label="Stream" htmlFor="create-stream">
          <select
            id="create-stream"
            className="input"
            value={value.streamViewType ?? 'OFF'}
            onChange={(event) =>
              set({
                streamViewType:
                  event.target.value === 'OFF' ? undefined : (event.target.value as StreamViewType),
              })
            }
          >
            {STREAM_OPTIONS.map((o) => (
              <option key={o} value={o}>
                {streamOptionLabel(o)}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Table class" htmlFor="create-class">
          <select
            id="create-class"
            className="input"
            value={value.tableClass}
            onChange={(event) =>
              set({
                tableClass: event.target.value === 'STANDARD' ? 'STANDARD' : 'STANDARD_INFREQUENT_ACCESS',
              })
            }
          >
            <option value="STANDARD">Standard</option>
            <option value="STANDARD_INFREQUENT_ACCESS">Standard-IA</option>
          </select>
        </Field>
      </div>
      <Switch
        checked={value.deletionProtection}
        onChange={(deletionProtection) => set({ deletionProtection })}
        label="Deletion protection"
        hint="Nobody can delete the table until it is turned off."
      />
      <div className="tag-list">
        <div className="index-list-bar">
          <span className="field-label">Tags</span>
          <Button size="sm" onClick={() => set({ tags: [...value.tags, { key: '', value: '' }] })}>
            Add tag
          </Button>
        </div>
        <FieldError message={problems.find((p) => p.field === 'tags')?.message} />
        {value.tags.map((tag, i) => (
          <div key={i} className="tag-row">
            <TextInput
              label={`Tag ${i + 1} key`}
              placeholder="key"
              value={tag.key}
              onChange={(key) => set({ tags: value.tags.map((t, j) => (j === i ? { ...t, key } : t)) })}
            />
            <TextInput
              label={`Tag ${i + 1} value`}
              placeholder="value"
              value={tag.value}
              onChange={(v) => set({ tags: value.tags.map((t, j) => (j === i ? { ...t, value: v } : t)) })}
            />
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Remove tag ${i + 1}`}
              onClick={() => set({ tags: value.tags.filter((_, j) => j !== i) })}
            >
              Remove
            </Button>
            <FieldError message={problemAt(problems, `tags.${i}`)} />
          </div>
        ))}
      </div>
    </section>
  );
}
