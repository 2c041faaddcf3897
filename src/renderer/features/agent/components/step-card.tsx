import { useState } from 'react';
import type { AgentStep } from '../../../../shared/ipc';
import { withCapacityUnits } from '../../../ui/capacity-unit';
import type { OpenResultSet } from './result-set-dialog';

const statusLabel: Record<AgentStep['status'], string> = {
  running: 'running…',
  'waiting-approval': 'waiting for your approval',
  done: 'done',
  error: 'failed',
  refused: 'refused by DynoTable',
};

export interface StepCardProps {
  step: AgentStep;
  onOpenResultSet?: (open: OpenResultSet) => void;
}

function inputField(step: AgentStep, name: string): string | undefined {
  const input = step.input;
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

function costText(step: AgentStep): string | undefined {
  if (step.consumedCapacity === undefined) return undefined;
  return `${Number.isInteger(step.consumedCapacity) ? step.consumedCapacity : step.consumedCapacity.toFixed(1)} RCU`;
}

/**
 * One tool call: the tool, its table and its cost on the first line, what came of it on the
 * second; expanded, the exact input the model sent. A read's result set opens in the grid.
 */
export function StepCard({ step, onOpenResultSet }: StepCardProps) {
  const [isOpen, setOpen] = useState(false);
  const table = inputField(step, 'table');
  // A SQL step has no table; its statement (on one line) says more than any name would.
  const statement = inputField(step, 'statement')?.replace(/\s+/g, ' ');
  const cost = costText(step);
  const summary = step.summary ?? statusLabel[step.status];
  return (
    <div className={`agent-step is-${step.status}`}>
      <button
        type="button"
        className="agent-step-head"
        aria-expanded={isOpen}
        onClick={() => setOpen(!isOpen)}
      >
        <span className="agent-step-caret" aria-hidden="true">
          {isOpen ? '▾' : '▸'}
        </span>
        <code className="agent-step-tool">{step.tool}</code>
        <span
          className={`agent-step-table${statement && !table ? ' is-sql' : ''}`}
          title={table ?? statement}
        >
          {table ?? statement ?? ''}
        </span>
        {cost ? <span className="agent-step-cost">{withCapacityUnits(cost)}</span> : null}
        <span className="agent-step-summary" title={summary}>
          {summary}
        </span>
      </button>
      {isOpen ? (
        <div className="agent-step-body">
          <div className="agent-step-label">Input from the model</div>
          <pre>{JSON.stringify(step.input, null, 2)}</pre>
          <div className="agent-step-label">
            {statusLabel[step.status]}
            {step.items !== undefined
              ? ` · ${step.items} item${step.items === 1 ? '' : 's'} stored as a result set`
              : ''}
            {cost ? <> · {withCapacityUnits(cost)}</> : null}
          </div>
        </div>
      ) : null}
      {step.resultSetId && step.keys && onOpenResultSet ? (
        <button
          type="button"
          className="agent-step-open"
          onClick={() =>
            onOpenResultSet({
              resultSetId: step.resultSetId ?? '',
              keys: step.keys ?? { partitionKey: { name: 'pk', type: 'S' } },
              title: `${step.tool}${table ? ` · ${table}` : ''} — ${summary}`,
            })
          }
        >
          Open {step.items ?? 0} item{step.items === 1 ? '' : 's'} in the grid
        </button>
      ) : null}
    </div>
  );
}
