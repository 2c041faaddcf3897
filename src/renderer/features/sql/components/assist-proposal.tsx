import { diffLines } from 'diff';
import type { SqlAssistResult } from '../../../../shared/ipc/sql-assist';
import { Button } from '../../../ui/button';
import { Markdown } from '../../agent/markdown';
import { CapacityUnit } from '../../../ui/capacity-unit';

export interface AssistProposalProps {
  result: SqlAssistResult;
  /** The editor's text the proposal replaces. */
  current: string;
  onUse(statement: string, andRun: boolean): void;
  onDiscard(): void;
}

const rcu = (n: number): string => (n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US'));

function usageLine(result: SqlAssistResult): string {
  const tokens = `${result.usage.inputTokens.toLocaleString('en-US')} in / ${result.usage.outputTokens.toLocaleString('en-US')} out tokens`;
  const cost =
    result.costUsd === undefined
      ? 'price of this model unknown'
      : `≈ $${result.costUsd < 0.01 ? result.costUsd.toFixed(4) : result.costUsd.toFixed(2)} at list price`;
  return `${result.modelId} · ${tokens} · ${cost}`;
}

/** The model's proposal beside the editor: a diff, its plan and cost, and nothing run until asked. */
export function AssistProposal({ result, current, onUse, onDiscard }: AssistProposalProps) {
  const statement = result.statement;
  const title =
    result.task === 'explain' ? 'Explanation' : result.task === 'fix' ? 'Proposed fix' : 'Proposed statement';
  return (
    <section className="sql-proposal" aria-label={title}>
      <header>
        <h3>{title}</h3>
        <span className="sql-faint">{usageLine(result)}</span>
      </header>
      {result.task === 'explain' ? (
        <Markdown text={result.explanation} />
      ) : (
        <>
          {result.explanation ? <p>{result.explanation}</p> : null}
          {result.retried ? (
            <p className="sql-faint">
              The first answer did not run here ({result.retried}); it was sent back once with that error.
            </p>
          ) : null}
          {statement ? (
            <pre className="sql-diff" aria-label="Changes to the editor's text">
              {diffLines(`${current.trimEnd()}\n`, `${statement}\n`).map((part, i) => (
                <span key={i} className={part.added ? 'is-added' : part.removed ? 'is-removed' : 'is-same'}>
                  {part.value
                    .replace(/\n$/, '')
                    .split('\n')
                    .map((line) => `${part.added ? '+ ' : part.removed ? '- ' : '  '}${line}`)
                    .join('\n')}
                  {'\n'}
                </span>
              ))}
            </pre>
          ) : null}
          {result.plan ? (
            <p className="sql-proposal-plan">
              Would read about {Math.round(result.plan.totals.itemsRead).toLocaleString('en-US')} items (≈{' '}
              {rcu(result.plan.totals.rcu)} <CapacityUnit unit="RCU" />) with{' '}
              {[...new Set(result.plan.fetches.map((f) => f.call.operation))].join(', ') ||
                'no DynamoDB call'}
              . Nothing has run.
            </p>
          ) : null}
          {result.planError ? <p className="sql-proposal-error">{result.planError}</p> : null}
        </>
      )}
      <div className="sql-proposal-actions">
        {statement ? (
          <>
            <Button variant="primary" onClick={() => onUse(statement, true)}>
              Use and run
            </Button>
            <Button onClick={() => onUse(statement, false)}>Use in editor</Button>
          </>
        ) : null}
        <Button variant="ghost" onClick={onDiscard}>
          {statement ? 'Discard' : 'Close'}
        </Button>
      </div>
      <details>
        <summary>What was sent</summary>
        {result.sent.map((message, i) => (
          <div key={i} className="sql-sent">
            <strong>{message.role}</strong>
            <pre>{message.text}</pre>
          </div>
        ))}
      </details>
    </section>
  );
}
