import type { ApprovalState } from '../store';
import { Button } from '../../../ui/button';

export interface ApprovalCardProps {
  approval: ApprovalState;
  onDecide: (approve: boolean) => void;
}

/** The exact requests main will send, and the user's decision. Nothing is written before Approve. */
export function ApprovalCard({ approval, onDecide }: ApprovalCardProps) {
  const isWrite = approval.kind === 'write';
  return (
    <section className={`agent-approval${isWrite ? ' is-write' : ''}`} aria-label="Approval needed">
      <header>
        <strong>{isWrite ? 'Approve these writes?' : 'Approve this read?'}</strong>
        <span>{approval.summary}</span>
      </header>
      <pre className="agent-approval-requests">{JSON.stringify(approval.requests, null, 2)}</pre>
      {approval.decision ? (
        <p className={`agent-approval-outcome is-${approval.decision}`}>
          {approval.decision === 'approved' ? 'Approved' : 'Rejected'}
          {approval.outcome ? ` — ${approval.outcome}` : ''}
        </p>
      ) : (
        <div className="agent-approval-actions">
          <Button variant={isWrite ? 'danger' : 'primary'} size="sm" onClick={() => onDecide(true)}>
            {isWrite ? 'Approve and write' : 'Approve read'}
          </Button>
          <Button size="sm" onClick={() => onDecide(false)}>
            Reject
          </Button>
          {isWrite ? <span className="agent-approval-hint">Each write is conditioned on the item being unchanged.</span> : null}
        </div>
      )}
    </section>
  );
}
