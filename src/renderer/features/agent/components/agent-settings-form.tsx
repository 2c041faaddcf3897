import { useState } from 'react';
import { type AgentSettings, agentSettingsSchema, commonModelIds } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { BudgetFields, fieldLabels } from './budget-fields';

/** The permission modes as the settings and the panel's header name them. */
export const modeText: Record<AgentSettings['mode'], { title: string; detail: string }> = {
  'read-only': { title: 'Read-only', detail: 'the agent is never offered a write tool.' },
  // Not "Ask": the assistant's button asks it a question.
  ask: { title: 'Approve first', detail: 'costly reads and every write wait for your approval.' },
  'auto-read': {
    title: 'Auto-read',
    detail: 'reads within budget run; every write waits for your approval.',
  },
};

export interface AgentSettingsFormProps {
  settings: AgentSettings;
  isReadOnlyConnection: boolean;
  onSave: (settings: AgentSettings) => Promise<string | undefined>;
  onCancel: () => void;
}

/** Model, Bedrock region and credentials, permission mode and budgets, per connection. */
export function AgentSettingsForm({
  settings,
  isReadOnlyConnection,
  onSave,
  onCancel,
}: AgentSettingsFormProps) {
  const [draft, setDraft] = useState(settings);
  const [tables, setTables] = useState(settings.allowedTables.join(', '));
  const [error, setError] = useState<string>();
  const [isSaving, setSaving] = useState(false);
  const text = (name: 'modelId' | 'bedrockRegion' | 'bedrockProfile' | 'bedrockEndpoint') => ({
    value: draft[name] ?? '',
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value }),
  });
  const save = async () => {
    const candidate = {
      ...draft,
      bedrockProfile: draft.bedrockProfile?.trim() || undefined,
      bedrockEndpoint: draft.bedrockEndpoint?.trim() || undefined,
      allowedTables: tables
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    };
    const parsed = agentSettingsSchema.safeParse(candidate);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = fieldLabels[String(issue?.path.at(-1))] ?? 'A setting';
      setError(`${field}: ${issue?.message ?? 'not valid'}.`);
      return;
    }
    setSaving(true);
    setError(await onSave(parsed.data));
    setSaving(false);
  };
  return (
    <form
      className="agent-settings"
      aria-label="Assistant settings"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <section className="agent-settings-section">
        <h3>Model on Amazon Bedrock</h3>
        <Field
          label="Model or inference profile"
          htmlFor="agent-model"
          hint="Pick a common id or type any Bedrock model id."
        >
          <input id="agent-model" className="input" list="agent-models" {...text('modelId')} />
          <datalist id="agent-models">
            {commonModelIds.map((id) => (
              <option key={id} value={id} />
            ))}
          </datalist>
        </Field>
        <div className="agent-settings-row">
          <Field label="Bedrock region" htmlFor="agent-region">
            <input id="agent-region" className="input" {...text('bedrockRegion')} />
          </Field>
          <Field label="AWS profile" htmlFor="agent-profile" hint="Empty: this connection’s credentials.">
            <input
              id="agent-profile"
              className="input"
              placeholder="(this connection)"
              {...text('bedrockProfile')}
            />
          </Field>
        </div>
        <Field
          label="Bedrock endpoint (optional)"
          htmlFor="agent-endpoint"
          hint="For a VPC endpoint; leave empty for AWS’s own."
        >
          <input
            id="agent-endpoint"
            className="input"
            placeholder="https://bedrock-runtime…"
            {...text('bedrockEndpoint')}
          />
        </Field>
      </section>
      <fieldset className="agent-settings-section agent-modes">
        <legend>Permissions</legend>
        {(Object.keys(modeText) as AgentSettings['mode'][]).map((mode) => (
          <label key={mode}>
            <input
              type="radio"
              name="agent-mode"
              checked={draft.mode === mode}
              onChange={() => setDraft({ ...draft, mode })}
            />
            <span>
              <strong>{modeText[mode].title}</strong> — {modeText[mode].detail}
            </span>
          </label>
        ))}
        {isReadOnlyConnection ? (
          <p className="field-hint">
            This connection is read-only, so the agent is read-only here whatever you choose.
          </p>
        ) : null}
      </fieldset>
      <BudgetFields draft={draft} onChange={setDraft} />
      <section className="agent-settings-section">
        <h3>Tables</h3>
        <Field
          label="Tables the agent may use"
          htmlFor="agent-tables"
          hint="Comma-separated; empty means every table of this connection."
        >
          <input
            id="agent-tables"
            className="input"
            placeholder="(all tables)"
            value={tables}
            onChange={(e) => setTables(e.target.value)}
          />
        </Field>
      </section>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="agent-settings-actions">
        <Button variant="primary" type="submit" isBusy={isSaving}>
          Save
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
