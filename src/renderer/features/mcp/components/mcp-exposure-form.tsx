import { useEffect, useState } from 'react';
import type { AppError } from '../../../../shared/ipc';
import { type McpExposure, mcpExposureSettingsSchema } from '../../../../shared/ipc/mcp';
import { call } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { Field } from '../../../ui/field';
import { Switch } from '../../../ui/switch';
import '../mcp.css';

export interface McpExposureFormProps {
  connectionId: string;
  isReadOnlyConnection: boolean;
  onClose: () => void;
}

const commandLabels: Record<keyof McpExposure['commands'], string> = {
  claudeCode: 'Claude Code',
  cursor: 'Cursor (.cursor/mcp.json)',
  vscode: 'VS Code (.vscode/mcp.json)',
};

function CopyButton({ text, label }: { text: string; label: string }) {
  const [isCopied, setCopied] = useState(false);
  return (
    <Button
      size="sm"
      aria-label={label}
      onClick={() => {
        void navigator.clipboard.writeText(text).then(() => setCopied(true));
      }}
    >
      {isCopied ? 'Copied' : 'Copy'}
    </Button>
  );
}

/**
 * Serving one connection to coding agents over MCP's HTTP transport: on/off, its own table
 * allow-list, budgets, write and Scan rules, its token and the commands that connect a client.
 */
export function McpExposureForm({ connectionId, isReadOnlyConnection, onClose }: McpExposureFormProps) {
  const [exposure, setExposure] = useState<McpExposure>();
  const [draft, setDraft] = useState<McpExposure>();
  const [tables, setTables] = useState('');
  const [error, setError] = useState<AppError>();
  const [invalid, setInvalid] = useState<string>();
  const [isShowingToken, setShowingToken] = useState(false);
  const [isBusy, setBusy] = useState(false);

  const take = (value: McpExposure) => {
    setExposure(value);
    setDraft(value);
    setTables(value.tables.join(', '));
  };
  useEffect(() => {
    void call('mcp:getExposure', { connectionId }).then((r) => (r.ok ? take(r.value) : setError(r.error)));
  }, [connectionId]);

  if (error && !exposure) return <ErrorMessage error={error} compact />;
  if (!exposure || !draft) return <p className="mcp-loading">Loading…</p>;

  const save = async () => {
    const parsed = mcpExposureSettingsSchema.safeParse({
      ...draft,
      tables: tables
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    });
    if (!parsed.success) {
      setInvalid(`${String(parsed.error.issues[0]?.path.at(-1))}: ${parsed.error.issues[0]?.message ?? ''}`);
      return;
    }
    setInvalid(undefined);
    setBusy(true);
    const result = await call('mcp:saveExposure', { connectionId, settings: parsed.data });
    setBusy(false);
    if (result.ok) take(result.value);
    setError(result.ok ? undefined : result.error);
  };
  const regenerate = async () => {
    const result = await call('mcp:regenerateToken', { connectionId });
    if (result.ok) take(result.value);
    setError(result.ok ? undefined : result.error);
  };
  const number = (name: 'maxItems' | 'maxRcu') => ({
    type: 'number',
    min: name === 'maxRcu' ? 0.5 : 1,
    value: draft[name],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [name]: Number(e.target.value) }),
  });

  return (
    <form
      className="agent-settings mcp-exposure"
      aria-label="Coding agents (MCP)"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <section className="agent-settings-section">
        <h3>Coding agents (MCP over HTTP)</h3>
        <Switch
          checked={draft.enabled}
          onChange={(enabled) => setDraft({ ...draft, enabled })}
          label="Serve this connection to coding agents"
          hint="Claude Code, Cursor or VS Code connect to DynoTable on 127.0.0.1 with this connection’s own token."
        />
      </section>
      <section className="agent-settings-section">
        <h3>What an agent may do</h3>
        <Field label="Tables" htmlFor="mcp-tables" hint="Comma-separated; empty means every table.">
          <input
            id="mcp-tables"
            className="input"
            placeholder="(all tables)"
            value={tables}
            onChange={(e) => setTables(e.target.value)}
          />
        </Field>
        <div className="agent-settings-row">
          <Field label="Items per tool call" htmlFor="mcp-max-items">
            <input id="mcp-max-items" className="input" {...number('maxItems')} />
          </Field>
          <Field label="Read capacity per tool call (RCU)" htmlFor="mcp-max-rcu">
            <input id="mcp-max-rcu" className="input" step="0.5" {...number('maxRcu')} />
          </Field>
        </div>
        <Switch
          checked={draft.allowScans}
          onChange={(allowScans) => setDraft({ ...draft, allowScans })}
          label="Allow Scans"
          hint="Off: a read that would Scan is refused, with the key condition that would serve it."
        />
        <Switch
          checked={draft.allowWrites && !isReadOnlyConnection}
          disabled={isReadOnlyConnection}
          onChange={(allowWrites) => setDraft({ ...draft, allowWrites })}
          label="Offer write proposals"
          hint={
            isReadOnlyConnection
              ? 'This connection is read-only: agents only read.'
              : 'Every write is shown to you with its exact requests and needs your approval.'
          }
        />
      </section>
      {exposure.enabled && exposure.url ? (
        <section className="agent-settings-section" aria-label="Connect a client">
          <h3>Connect a client</h3>
          <div className="mcp-secret-row">
            <span className="mcp-secret-label">Endpoint</span>
            <code className="mcp-value">{exposure.url}</code>
            <CopyButton text={exposure.url} label="Copy the endpoint" />
          </div>
          <div className="mcp-secret-row">
            <span className="mcp-secret-label">Token</span>
            <code className="mcp-value" aria-label="Bearer token">
              {isShowingToken ? exposure.token : '•'.repeat(12)}
            </code>
            <span className="mcp-actions">
              <Button
                size="sm"
                onClick={() => setShowingToken(!isShowingToken)}
                aria-pressed={isShowingToken}
              >
                {isShowingToken ? 'Hide' : 'Show'}
              </Button>
              <CopyButton text={exposure.token} label="Copy the token" />
              <Button size="sm" onClick={() => void regenerate()}>
                Regenerate
              </Button>
            </span>
          </div>
          {exposure.tokenKept === 'launch' ? (
            <p className="field-hint">No keychain here: this token lasts until DynoTable stops.</p>
          ) : null}
          {(Object.keys(commandLabels) as (keyof McpExposure['commands'])[]).map((client) => (
            <div key={client} className="mcp-command">
              <div className="mcp-command-head">
                <span>{commandLabels[client]}</span>
                <CopyButton
                  text={exposure.commands[client]}
                  label={`Copy the ${commandLabels[client]} command`}
                />
              </div>
              <pre className="mcp-command-text">
                {exposure.commands[client].replace(exposure.token, '<token>')}
              </pre>
            </div>
          ))}
        </section>
      ) : null}
      {invalid ? (
        <p className="field-error" role="alert">
          {invalid}
        </p>
      ) : null}
      {error ? <ErrorMessage error={error} compact /> : null}
      <div className="agent-settings-actions">
        <Button variant="primary" type="submit" isBusy={isBusy}>
          Save
        </Button>
        <Button onClick={onClose}>Close</Button>
      </div>
    </form>
  );
}
