import { useState } from 'react';
import { Button } from '../../../ui/button';
import { Check } from '../../../ui/check';
import { ErrorMessage } from '../../../ui/error-message';
import { useAssistStore, useAssistTab } from '../assist-store';

export interface AssistBarProps {
  connectionId: string;
  /** The editor's whole text, sent as context with a question. */
  editorText: string;
}

/**
 * "Write SQL from words": a question becomes a proposed statement (shown as a diff, never run). What is
 * sent about the catalog can be read before anything is sent; sample values only when ticked.
 */
export function AssistBar({ connectionId, editorText }: AssistBarProps) {
  const tab = useAssistTab(connectionId);
  const actions = useAssistStore.getState();
  const [isShowingContext, setIsShowingContext] = useState(false);
  const ask = () => {
    if (tab.question.trim())
      void actions.start(connectionId, { task: 'ask', question: tab.question, statement: editorText });
  };
  return (
    <div className="sql-assist">
      <form
        className="sql-assist-row"
        onSubmit={(event) => {
          event.preventDefault();
          ask();
        }}
      >
        {/* Not "Ask": that is the assistant's word for a question it answers, and a permission mode. */}
        <label className="sql-assist-label" htmlFor={`sql-ask-${connectionId}`}>
          SQL from words
        </label>
        <input
          id={`sql-ask-${connectionId}`}
          className="input sql-assist-input"
          value={tab.question}
          placeholder="e.g. which five customers spent the most this year?"
          onChange={(event) => actions.update(connectionId, { question: event.target.value })}
          maxLength={4000}
        />
        {tab.requestId ? (
          <Button onClick={() => void actions.cancel(connectionId)}>Cancel</Button>
        ) : (
          <Button
            type="submit"
            variant="secondary"
            disabled={!tab.question.trim()}
            title="The model writes a statement for you to read; nothing runs until you choose"
          >
            Write SQL
          </Button>
        )}
        <Check
          checked={tab.includeSamples}
          onChange={(checked) => actions.setSamples(connectionId, checked)}
          title="Off: only table, view and attribute names and types are sent. On: a few values of each attribute too."
        >
          Send sample values
        </Check>
        <Button
          variant="ghost"
          size="sm"
          aria-expanded={isShowingContext}
          onClick={() => {
            setIsShowingContext((v) => !v);
            if (!tab.context) void actions.loadContext(connectionId);
          }}
        >
          What is sent?
        </Button>
      </form>
      {tab.requestId ? (
        <p className="sql-faint sql-note" role="status">
          {tab.status ?? 'Writing SQL…'}
        </p>
      ) : null}
      {tab.error ? <ErrorMessage error={tab.error} connectionId={connectionId} compact /> : null}
      {isShowingContext ? (
        <div className="sql-assist-context" aria-label="What is sent to Bedrock">
          {tab.contextError ? (
            <ErrorMessage error={tab.contextError} connectionId={connectionId} compact />
          ) : null}
          {tab.context ? (
            <>
              <p className="sql-faint">
                Sent to Bedrock with every question, besides the question and the editor's statement:
              </p>
              <pre>{tab.context.context}</pre>
              <details>
                <summary>Instructions to the model</summary>
                <pre>{tab.context.system}</pre>
              </details>
            </>
          ) : tab.contextError ? null : (
            <p className="sql-faint">Loading…</p>
          )}
        </div>
      ) : null}
    </div>
  );
}
