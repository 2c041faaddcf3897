import { useState } from 'react';
import type { AgentStep } from '../../../../shared/ipc';

const statusLabel: Record<AgentStep['status'], string> = {
  running: 'running…',
  'waiting-approval': 'waiting for you',
  done: 'done',
  error: 'failed',
  refused: 'refused by DynoTable',
};

export interface StepCardProps {
  step: AgentStep;
  onOpenResultSet?: (resultSetId: string, title: string) => void;
}

/** One tool call: collapsed to a line (tool, summary, cost); expanded it shows the exact input. */
export function StepCard({ step, onOpenResultSet }: StepCardProps) {
  const [isOpen, setOpen] = useState(false);
  const table = typeof (step.input as { table?: unknown })?.table === 'string' ? (step.input as { table: string }).table : undefined;
  return (
    <div className={`agent-step is-${step.status}`}>
      <button type="button" className="agent-step-head" aria-expanded={isOpen} onClick={() => setOpen(!isOpen)}>
        <span className="agent-step-caret" aria-hidden="true">{isOpen ? '▾' : '▸'}</span>
        <code className="agent-step-tool">{step.tool}</code>
        {table ? <span className="agent-step-table">{table}</span> : null}
        <span className="agent-step-summary">{step.summary ?? statusLabel[step.status]}</span>
        {step.consumedCapacity !== undefined ? <span className="agent-step-cost">{step.consumedCapacity} RCU</span> : null}
      </button>
      {isOpen ? (
        <div className="agent-step-body">
          <div className="agent-step-label">Input</div>
          <pre>{JSON.stringify(step.input, null, 2)}</pre>
          <div className="agent-step-label">Status: {statusLabel[step.status]}</div>
        </div>
      ) : null}
      {step.resultSetId && onOpenResultSet ? (
        <button
          type="button"
          className="link-button agent-step-open"
          onClick={() => onOpenResultSet(step.resultSetId ?? '', `${step.tool} ${table ?? ''}`.trim())}
        >
          Open {step.items ?? 0} items
        </button>
      ) : null}
    </div>
  );
}
