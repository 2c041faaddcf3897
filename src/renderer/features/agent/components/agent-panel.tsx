import { useEffect, useRef, useState } from 'react';
import type { AppError } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { matches } from '../../keyboard/shortcuts';
import { McpExposureForm } from '../../mcp/components/mcp-exposure-form';
import type { WorkspaceToolProps } from '../../workspace/tools';
import { useAgentStore } from '../store';
import { useWholeCharacterWidth } from '../../../ui/whole-characters';
import { AgentSettingsForm, modeText } from './agent-settings-form';
import { type OpenResultSet, ResultSetDialog } from './result-set-dialog';
import { TurnView } from './turn-view';
import { UsageMeter } from './usage-meter';
import '../agent.css';

const emptyTurns: never[] = [];

/**
 * "us.anthropic.claude-sonnet-4-20250514-v1:0" → "claude-sonnet-4": the full id does not fit
 * in the header (it is in the tooltip and the settings).
 */
export function shortModelName(modelId: string): string {
  return modelId
    .replace(/^(us|eu|apac|us-gov|global)\./, '')
    .replace(/^[a-z0-9-]+\./, '')
    .replace(/-v\d+(:\d+)?$/, '')
    .replace(/-\d{8}$/, '');
}

/** The chat beside the tables: questions, streamed answers, steps, approval cards, budgets. */
export function AgentPanel({ connection }: WorkspaceToolProps) {
  const turns = useAgentStore((state) => state.chats[connection.id]?.turns ?? emptyTurns);
  const running = useAgentStore((state) => state.chats[connection.id]?.runningRequestId);
  const settings = useAgentStore((state) => state.settings[connection.id]);
  const { ask, stop, newConversation, loadSettings, saveSettings } = useAgentStore.getState();
  const [question, setQuestion] = useState('');
  const [isEditing, setEditing] = useState(false);
  const [isEditingMcp, setEditingMcp] = useState(false);
  const [openResultSet, setOpenResultSet] = useState<OpenResultSet>();
  const [loadError, setLoadError] = useState<AppError>();
  const endRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    void loadSettings(connection.id).then(setLoadError);
  }, [connection.id, loadSettings]);
  useEffect(() => {
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [turns]);

  const send = async () => {
    const text = question.trim();
    if (!text || running) return;
    setQuestion('');
    const error = await ask(connection.id, text);
    // Nothing the user typed is lost when the question could not even start.
    if (error) setQuestion(text);
  };
  const last = turns.at(-1);
  const modelName = settings ? shortModelName(settings.modelId) : '';
  const model = useRef<HTMLSpanElement>(null);
  useWholeCharacterWidth(
    model,
    modelName,
    `${settings?.mode ?? ''} ${isEditing} ${isEditingMcp} ${Boolean(running)}`,
  );

  return (
    <div className="agent-panel">
      <header className="agent-header">
        <div className="agent-title">
          <h2>Assistant</h2>
          {settings ? (
            // The short name is cut in a narrow dock: the whole id is its tooltip and accessible
            // description, and it opens the settings where the model is chosen.
            <button
              type="button"
              className="agent-model"
              title={`${settings.modelId} in ${settings.bedrockRegion} (opens the settings)`}
              onClick={() => {
                setEditing(true);
                setEditingMcp(false);
              }}
            >
              {/* The name gives way; the permission mode after it stays whole. */}
              <span className="agent-model-name" ref={model}>
                {modelName}
              </span>
              <span className="agent-model-mode">
                {' · '}
                {connection.readOnly ? 'Read-only' : modeText[settings.mode].title}
              </span>
            </button>
          ) : null}
        </div>
        <div className="agent-header-actions">
          <Button
            size="sm"
            variant="ghost"
            onClick={() => newConversation(connection.id)}
            disabled={Boolean(running)}
          >
            New chat
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setEditingMcp(!isEditingMcp);
              setEditing(false);
            }}
            aria-pressed={isEditingMcp}
            title="Serve this connection to coding agents (Claude Code, Cursor, VS Code) over MCP"
          >
            Coding agents
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setEditing(!isEditing);
              setEditingMcp(false);
            }}
            aria-pressed={isEditing}
          >
            Settings
          </Button>
        </div>
      </header>
      {loadError ? <ErrorMessage error={loadError} compact /> : null}
      {isEditingMcp ? (
        <McpExposureForm
          connectionId={connection.id}
          isReadOnlyConnection={connection.readOnly}
          onClose={() => setEditingMcp(false)}
        />
      ) : isEditing && settings ? (
        // The settings take the panel's whole body: squeezed above the chat they were unreadable.
        <AgentSettingsForm
          settings={settings}
          isReadOnlyConnection={connection.readOnly}
          onCancel={() => setEditing(false)}
          onSave={async (next) => {
            const error = await saveSettings(connection.id, next);
            if (!error) setEditing(false);
            return error?.message;
          }}
        />
      ) : (
        <div className="agent-turns" aria-live="polite">
          {turns.length === 0 ? (
            <div className="agent-empty">
              <p>Ask about this connection’s tables, for example:</p>
              <p className="agent-example">
                Which customers ordered more than 3 times last week and still have an unpaid balance?
              </p>
              <p className="agent-empty-fine">
                The agent runs on your own Amazon Bedrock access. It reads within the budgets in Settings and
                never writes without your approval.
              </p>
            </div>
          ) : (
            turns.map((turn) => (
              <TurnView
                key={turn.id}
                connectionId={connection.id}
                turn={turn}
                onOpenSettings={() => setEditing(true)}
                onOpenResultSet={setOpenResultSet}
              />
            ))
          )}
          <div ref={endRef} />
        </div>
      )}
      {!isEditing && !isEditingMcp && last?.usage && last.budgets ? (
        <UsageMeter usage={last.usage} budgets={last.budgets} />
      ) : null}
      {isEditing || isEditingMcp ? null : (
        <form
          className="agent-input"
          onSubmit={(event) => {
            event.preventDefault();
            void send();
          }}
        >
          <textarea
            className="input"
            rows={3}
            value={question}
            placeholder="Ask a question… (Enter to send, Shift+Enter for a new line)"
            aria-label="Question for the assistant"
            onChange={(event) => setQuestion(event.target.value)}
            onKeyDown={(event) => {
              if (matches('send-question', event.nativeEvent)) {
                event.preventDefault();
                void send();
              }
            }}
          />
          {running ? (
            <Button variant="danger" onClick={() => void stop(connection.id)}>
              Stop
            </Button>
          ) : (
            <Button variant="primary" type="submit" disabled={question.trim() === ''}>
              Ask
            </Button>
          )}
        </form>
      )}
      {openResultSet ? (
        <ResultSetDialog {...openResultSet} onClose={() => setOpenResultSet(undefined)} />
      ) : null}
    </div>
  );
}
