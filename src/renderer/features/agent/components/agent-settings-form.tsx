import { useState } from 'react';
import { type AgentSettings, agentSettingsSchema, commonModelIds } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';

const modeText: Record<AgentSettings['mode'], string> = {
  'read-only': 'Read-only — the agent is never offered a write tool.',
  ask: 'Ask — costly reads and every write wait for your approval.',
  'auto-read': 'Auto-read — reads within budget run; every write waits for your approval.',
};

export interface AgentSettingsFormProps {
  settings: AgentSettings;
  isReadOnlyConnection: boolean;
  onSave: (settings: AgentSettings) => Promise<string | undefined>;
  onCancel: () => void;
}

/** Model, Bedrock region and credentials, permission mode and budgets, per connection. */
export function AgentSettingsForm({ settings, isReadOnlyConnection, onSave, onCancel }: AgentSettingsFormProps) {
  const [draft, setDraft] = useState(settings);
  const [tables, setTables] = useState(settings.allowedTables.join(', '));
  const [error, setError] = useState<string>();
  const [isSaving, setSaving] = useState(false);
  const budget = (name: keyof AgentSettings['budgets'], label: string) => (
    <Field label={label} htmlFor={`agent-budget-${name}`}>
      <input
        id={`agent-budget-${name}`}
        type="number"
        className="input"
        value={draft.budgets[name]}
        onChange={(e) => setDraft({ ...draft, budgets: { ...draft.budgets, [name]: Number(e.target.value) } })}
      />
    </Field>
  );
  const save = async () => {
    const candidate = {
      ...draft,
      bedrockProfile: draft.bedrockProfile?.trim() || undefined,
      bedrockEndpoint: draft.bedrockEndpoint?.trim() || undefined,
      allowedTables: tables.split(',').map((t) => t.trim()).filter(Boolean),
    };
    const parsed = agentSettingsSchema.safeParse(candidate);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setError(`${issue?.path.join('.') ?? 'settings'}: ${issue?.message ?? 'invalid'}`);
      return;
    }
    setSaving(true);
    setError(await onSave(parsed.data));
    setSaving(false);
  };
  return (
    <form className="agent-settings" onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <Field label="Model or inference profile" htmlFor="agent-model" hint="Pick a common id or type any Bedrock model id.">
        <input id="agent-model" className="input" list="agent-models" value={draft.modelId} onChange={(e) => setDraft({ ...draft, modelId: e.target.value })} />
        <datalist id="agent-models">{commonModelIds.map((id) => <option key={id} value={id} />)}</datalist>
      </Field>
      <div className="agent-settings-row">
        <Field label="Bedrock region" htmlFor="agent-region">
          <input id="agent-region" className="input" value={draft.bedrockRegion} onChange={(e) => setDraft({ ...draft, bedrockRegion: e.target.value })} />
        </Field>
        <Field label="AWS profile for Bedrock" htmlFor="agent-profile" hint="Empty: this connection's credentials.">
          <input id="agent-profile" className="input" value={draft.bedrockProfile ?? ''} onChange={(e) => setDraft({ ...draft, bedrockProfile: e.target.value })} />
        </Field>
      </div>
      <fieldset className="agent-modes">
        <legend>Permissions</legend>
        {(Object.keys(modeText) as AgentSettings['mode'][]).map((mode) => (
          <label key={mode}>
            <input type="radio" name="agent-mode" checked={draft.mode === mode} onChange={() => setDraft({ ...draft, mode })} />
            {modeText[mode]}
          </label>
        ))}
        {isReadOnlyConnection ? <p className="field-hint">This connection is read-only, so the agent is read-only here whatever you choose.</p> : null}
      </fieldset>
      <div className="agent-settings-grid">
        {budget('modelCalls', 'Model calls')}
        {budget('toolCalls', 'Tool calls')}
        {budget('tokens', 'Tokens')}
        {budget('itemsRead', 'Items read')}
        {budget('readCapacity', 'Read capacity (RCU)')}
        <Field label="Ask above (RCU)" htmlFor="agent-ask-above">
          <input id="agent-ask-above" type="number" className="input" value={draft.askAboveReadCapacity} onChange={(e) => setDraft({ ...draft, askAboveReadCapacity: Number(e.target.value) })} />
        </Field>
      </div>
      <Field label="Tables the agent may use" htmlFor="agent-tables" hint="Comma-separated; empty means every table of this connection.">
        <input id="agent-tables" className="input" value={tables} onChange={(e) => setTables(e.target.value)} />
      </Field>
      <Field label="Bedrock endpoint (optional)" htmlFor="agent-endpoint" hint="For a VPC endpoint; leave empty for AWS's.">
        <input id="agent-endpoint" className="input" value={draft.bedrockEndpoint ?? ''} onChange={(e) => setDraft({ ...draft, bedrockEndpoint: e.target.value })} />
      </Field>
      {error ? <p className="field-error" role="alert">{error}</p> : null}
      <div className="agent-settings-actions">
        <Button variant="primary" type="submit" isBusy={isSaving}>Save</Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
