import type { ApprovalState } from '../store';
import { Button } from '../../../ui/button';
import { requestText } from '../request-text';

export interface ApprovalCardProps {
  approval: ApprovalState;
  onDecide: (approve: boolean) => void;
}

/** One request in words (action, key, table, change, condition); also the agents' proposals list. */
export function RequestLine({ request }: { request: Record<string, unknown> }) {
  const text = requestText(request);
  return (
    <li className="agent-request">
      <div className="agent-request-head">
        <span className={`agent-request-action is-${text.action.toLowerCase()}`}>{text.action}</span>
        {text.key ? <code className="agent-request-key">{text.key}</code> : null}
        <span className="agent-request-table">in {text.table}</span>
      </div>
      {text.change ? <code className="agent-request-change">{text.change}</code> : null}
      {text.condition ? <div className="agent-request-condition">{text.condition}</div> : null}
    </li>
  );
}

/**
 * The requests main will send, in words and as the exact JSON, and the user's decision.
 * Nothing is written before Approve; main holds the write until this card's answer arrives.
 */
export function ApprovalCard({ approval, onDecide }: ApprovalCardProps) {
  const isWrite = approval.kind === 'write';
  return (
    <section
      className={`agent-approval${isWrite ? ' is-write' : ''}${approval.decision ? ` is-${approval.decision}` : ''}`}
      aria-label="Approval needed"
    >
      <header>
        <strong>{isWrite ? 'Approve these writes?' : 'Approve this read?'}</strong>
        <span className="agent-approval-summary">{approval.summary}</span>
      </header>
      <ul className="agent-requests">
        {approval.requests.map((request, i) => (
          <RequestLine key={i} request={request} />
        ))}
      </ul>
      <details className="agent-approval-exact">
        <summary>Exact request{approval.requests.length === 1 ? '' : 's'} (DynamoDB JSON)</summary>
        <pre>{JSON.stringify(approval.requests, null, 2)}</pre>
      </details>
      {approval.decision ? (
        <p className={`agent-approval-outcome is-${approval.decision}`} role="status">
          {approval.outcome ?? (approval.decision === 'approved' ? 'Approved.' : 'Rejected.')}
        </p>
      ) : (
        <div className="agent-approval-actions">
          <Button variant={isWrite ? 'danger' : 'primary'} size="sm" onClick={() => onDecide(true)}>
            {isWrite ? 'Approve and write' : 'Approve read'}
          </Button>
          <Button size="sm" onClick={() => onDecide(false)}>
            Reject
          </Button>
        </div>
      )}
      {isWrite && !approval.decision ? (
        <p className="agent-approval-hint">
          Each write applies only if the item is still as the agent read it, so a change made meanwhile is
          never overwritten.
        </p>
      ) : null}
    </section>
  );
}
