import { Markdown } from '../markdown';
import { type ChatTurn, useAgentStore } from '../store';
import { ApprovalCard } from './approval-card';
import { StepCard } from './step-card';
import { TurnError } from './turn-error';
import type { OpenResultSet } from './result-set-dialog';

export interface TurnViewProps {
  connectionId: string;
  turn: ChatTurn;
  onOpenResultSet?: (open: OpenResultSet) => void;
  onOpenSettings?: () => void;
}

/** Between steps the model is thinking with nothing on screen moving; say so. */
function isWaitingForModel(turn: ChatTurn): boolean {
  if (turn.status !== 'running') return false;
  const last = turn.blocks.at(-1);
  if (!last) return true;
  if (last.kind === 'step')
    return last.step.status === 'done' || last.step.status === 'error' || last.step.status === 'refused';
  return last.kind === 'approval' && last.approval.decision !== undefined;
}

/** A question and everything the agent did for it, in order: text, steps, approvals, notices. */
export function TurnView({ connectionId, turn, onOpenResultSet, onOpenSettings }: TurnViewProps) {
  const decide = useAgentStore((state) => state.decide);
  return (
    <article className="agent-turn">
      <div className="agent-question">{turn.question}</div>
      <div className="agent-answer">
        {turn.blocks.map((block, i) => {
          if (block.kind === 'text') return <Markdown key={i} text={block.text} />;
          if (block.kind === 'step')
            return <StepCard key={block.step.id} step={block.step} onOpenResultSet={onOpenResultSet} />;
          if (block.kind === 'approval') {
            return (
              <ApprovalCard
                key={block.approval.id}
                approval={block.approval}
                onDecide={(approve) => void decide(connectionId, block.approval.id, approve)}
              />
            );
          }
          return (
            <p key={i} className="agent-notice">
              {block.message}
            </p>
          );
        })}
        {isWaitingForModel(turn) ? <p className="agent-thinking">Thinking…</p> : null}
        {turn.status === 'cancelled' ? (
          <p className="agent-notice">Stopped. Nothing more was read or written.</p>
        ) : null}
        {turn.error ? (
          <TurnError error={turn.error} connectionId={connectionId} onOpenSettings={onOpenSettings} />
        ) : null}
      </div>
    </article>
  );
}
